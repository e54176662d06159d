// Replay of a finished match, hand by hand and move by move: the exported record says
// where each hand starts and where each move settles; GetView{at_version} draws the table
// as the seat saw it then (a spectator's view for a match this browser did not play).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, refusal } from "../api";
import { GetMatchRequestSchema, GetViewRequestSchema } from "../gen/tavola/v1/game_pb";
import { t } from "../i18n";
import { gameTitle } from "../labels";
import { session } from "../session";
import { Board } from "./board";
import { exportedEvents, Fairness } from "./fair";
import { matchInfo, tableState, type MatchInfo, type TableState } from "./model";
import { Notice } from "./pieces";
import { Standings } from "./standings";

const STARTS = ["HandStarted", "DealStarted", "GameStarted"];

interface Step {
  version: number;
  hand: number; // index into hands
}

export function Replay(props: { matchId: string }): JSX.Element {
  const { matchId } = props;
  const creds = session.seat(matchId);
  const me = creds?.seat ?? -1;
  const [info, setInfo] = useState<MatchInfo | null>(null);
  const [steps, setSteps] = useState<Step[]>([]);
  const [hands, setHands] = useState(0);
  const [at, setAt] = useState(0);
  const [state, setState] = useState<TableState | null>(null);
  const [error, setError] = useState("");

  useEffect(() => {
    (async () => {
      try {
        setInfo(matchInfo(await api.game.getMatch(create(GetMatchRequestSchema, { matchId }))));
        const events = await exportedEvents(matchId);
        let hand = -1;
        const found: Step[] = [];
        for (const e of events) {
          if (STARTS.some((s) => e.type.endsWith("." + s))) hand++;
          if (e.lastInBatch && hand >= 0) found.push({ version: e.version, hand });
        }
        setSteps(found);
        setHands(hand + 1);
      } catch (e) {
        setError(refusal(e).message);
      }
    })();
  }, [matchId]);

  const step = steps[at];
  useEffect(() => {
    if (!step) return;
    api.game
      .getView(create(GetViewRequestSchema, { matchId, seat: me, seatToken: creds?.seatToken ?? "", locale: session.locale(), atVersion: BigInt(step.version) }))
      .then((v) => setState(tableState(v)))
      .catch((e: unknown) => setError(refusal(e).message));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step?.version]);

  const inHand = steps.filter((s) => s.hand === step?.hand);
  const goHand = (delta: number): void => {
    const target = (step?.hand ?? 0) + delta;
    const first = steps.findIndex((s) => s.hand === target);
    if (first >= 0) setAt(first);
  };
  return (
    <main class="replay">
      <h1>{t("replay.title", { game: gameTitle(info?.game ?? "") })}</h1>
      <Notice text={error} kind="error" />
      {step && (
        <nav class="replay-controls" aria-label={t("replay.title", { game: gameTitle(info?.game ?? "") })}>
          <button onClick={() => goHand(-1)} disabled={step.hand === 0}>
            {t("replay.prev_hand")}
          </button>
          <button onClick={() => setAt(Math.max(0, at - 1))} disabled={at === 0}>
            {t("replay.prev")}
          </button>
          <span role="status" data-testid="replay-position">
            {t("replay.hand", { n: step.hand + 1, total: hands })} · {t("replay.step", { n: inHand.indexOf(step) + 1, total: inHand.length })} · {t("replay.version", { v: step.version })}
          </span>
          <button onClick={() => setAt(Math.min(steps.length - 1, at + 1))} disabled={at >= steps.length - 1}>
            {t("replay.next")}
          </button>
          <button onClick={() => goHand(1)} disabled={step.hand >= hands - 1}>
            {t("replay.next_hand")}
          </button>
        </nav>
      )}
      <div class="table-body">
        {state ? <Board state={state} info={info} me={me} interactive={false} busy={false} hint="" live={false} onAct={() => undefined} /> : <p>{t("common.loading")}</p>}
        <aside class="side">{state && <Standings state={state} info={info} me={me} />}</aside>
      </div>
      {info?.seed && <Fairness info={info} />}
    </main>
  );
}
