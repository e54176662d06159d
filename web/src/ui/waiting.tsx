// An open table before its match: who sits where (bots marked), and for its host the
// bots to fill the free seats with and the start.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, refusal } from "../api";
import { FillWithBotsRequestSchema, GetTableRequestSchema, StartMatchRequestSchema, TableStatus, type Table } from "../gen/tavola/v1/lobby_pb";
import { t } from "../i18n";
import { gameTitle, levelText } from "../labels";
import { session } from "../session";
import { Notice } from "./pieces";

export function WaitingRoom(props: { tableId: string; accountId: string }): JSX.Element {
  const { tableId } = props;
  const [table, setTable] = useState<Table | null>(null);
  const [level, setLevel] = useState("easy");
  const [error, setError] = useState("");
  useEffect(() => {
    let stopped = false;
    const poll = async (): Promise<void> => {
      while (!stopped) {
        try {
          const found = (await api.lobby.getTable(create(GetTableRequestSchema, { tableId }))).table ?? null;
          setTable(found);
          if (found && found.status !== TableStatus.OPEN && found.matchId) {
            const kept = session.seat(`table:${tableId}`);
            if (kept) session.keepSeat({ ...kept, matchId: found.matchId, practice: false });
            location.hash = `#/match/${found.matchId}`;
            return;
          }
        } catch (e) {
          setError(refusal(e).message);
        }
        await new Promise((r) => setTimeout(r, 1500));
      }
    };
    void poll();
    return () => {
      stopped = true;
    };
  }, [tableId]);
  if (!table) return <p>{t("common.loading")}</p>;
  const host = table.hostAccountId === props.accountId;
  const run = async (step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch (e) {
      setError(refusal(e).message);
    }
  };
  return (
    <main class="waiting">
      <h1>{t("waiting.title", { game: gameTitle(table.game) })}</h1>
      <p class="mono">{t("table.fingerprint_long", { hash: table.seedCommitment })}</p>
      <ul class="seat-list">
        {table.seats.map((s) => (
          <li key={s.seat}>
            {t("common.seat", { n: s.seat })}: {s.taken ? s.playerName : t("waiting.free_seat")}
            {s.isBot && <span class="badge bot">{s.botLevel ? t("common.bot_level", { level: levelText(s.botLevel) }) : t("common.bot")}</span>}
          </li>
        ))}
      </ul>
      {host ? (
        <div class="buttons">
          <select aria-label={t("lobby.bot_level")} value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
            {["easy", "medium", "hard", "master"].map((l) => (
              <option key={l} value={l}>
                {levelText(l)}
              </option>
            ))}
          </select>
          <button onClick={() => void run(() => api.lobby.fillWithBots(create(FillWithBotsRequestSchema, { tableId, level })))}>{t("waiting.fill")}</button>
          <button class="primary" onClick={() => void run(() => api.lobby.startMatch(create(StartMatchRequestSchema, { tableId })))}>
            {t("waiting.start")}
          </button>
        </div>
      ) : (
        <p>{t("waiting.wait_host")}</p>
      )}
      <Notice text={error} kind="error" />
    </main>
  );
}
