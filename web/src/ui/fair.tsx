// The fairness check: the fingerprint shown at the start, the seed revealed at the end,
// and a button that deals every hand again in this browser and compares.
import type { JSX } from "preact";
import { useState } from "preact/hooks";

import { api, refusal } from "../api";
import { create, fromBinary } from "@bufbuild/protobuf";
import { RecordSchema } from "../gen/tavola/v1/common_pb";
import { ExportMatchRequestSchema } from "../gen/tavola/v1/game_pb";
import { EventMetadataSchema } from "../gen/tavola/v1/internal_pb";
import { t } from "../i18n";
import { record } from "../record";
import { verifyMatch, type ChanceEvent, type Check } from "../verify";
import type { MatchInfo } from "./model";

export async function exportedEvents(matchId: string): Promise<(ChanceEvent & { lastInBatch: boolean })[]> {
  const exported = await api.game.exportMatch(create(ExportMatchRequestSchema, { matchId }));
  return exported.events.map((e) => {
    const meta = fromBinary(EventMetadataSchema, e.metadata);
    return {
      version: Number(e.version),
      type: e.type,
      purpose: meta.cause?.chancePurpose ?? "",
      payload: record(fromBinary(RecordSchema, e.payload)),
      lastInBatch: meta.lastInBatch,
    };
  });
}

function checkText(check: Check): string {
  if (check.what === "commitment") return t("fair.check_commitment");
  if (check.what.startsWith("first-")) return t("fair.check_first");
  return t("fair.check_deal", { purpose: check.what });
}

export function Fairness(props: { info: MatchInfo }): JSX.Element {
  const { info } = props;
  const [checks, setChecks] = useState<Check[] | null>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState("");
  const run = async (): Promise<void> => {
    setWorking(true);
    setError("");
    try {
      const events = await exportedEvents(info.matchId);
      setChecks(await verifyMatch(info.game, info.players, info.seed, info.seedCommitment, info.clientSeeds, events));
    } catch (e) {
      setError(refusal(e).message || String(e));
    } finally {
      setWorking(false);
    }
  };
  const failed = checks?.filter((c) => !c.ok) ?? [];
  return (
    <section class="fairness" aria-label={t("fair.title")}>
      <h3>{t("fair.title")}</h3>
      <p>{t("fair.explain")}</p>
      <p class="mono">{t("fair.commitment", { hash: info.seedCommitment })}</p>
      {info.seed && <p class="mono">{t("fair.seed", { seed: info.seed })}</p>}
      {info.seed && (
        <button class="primary" onClick={() => void run()} disabled={working} data-testid="verify">
          {t("fair.verify")}
        </button>
      )}
      {working && <p role="status">{t("fair.verifying")}</p>}
      {error && <p class="notice error">{error}</p>}
      {checks && (
        <div class="checks" role="status" data-testid="verify-result" data-ok={failed.length === 0 ? "true" : "false"}>
          <p class={failed.length ? "notice error" : "notice ok"}>
            {failed.length ? t("fair.failed", { what: failed.map(checkText).join("; ") }) : t("fair.ok", { n: checks.length })}
          </p>
          <ul>
            {checks.map((c) => (
              <li key={c.what} class={c.ok ? "ok" : "bad"}>
                {c.ok ? "✓" : "✗"} {checkText(c)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
