// The live table of one match for one seat (or a spectator): the view, kept current by the
// match's event stream, and the player's moves.
//
// Reconnection: the browser keeps, per match, the seat, its token and the last version it
// saw (session.ts). Opening the table — after a reload, or when the network comes back —
// asks StreamEvents for what came after that version, then GetView. The stream is asked
// for `views` and `packed`: each append's events arrive in one message with the seat's view
// after them, as GetView would answer it, so the table is exactly the engine's without a
// GetView a move (GetView stays for the first view, a refused move and a server that sends
// no views). A view older than the one on screen is never shown.
import type { JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { create } from "@bufbuild/protobuf";

import { api, Code, refusal } from "../api";
import {
  GetHintRequestSchema,
  GetMatchRequestSchema,
  GetViewRequestSchema,
  type GetViewResponse,
  LeaveMatchRequestSchema,
  StreamEventsRequestSchema,
  SubmitActionRequestSchema,
  TakeBackRequestSchema,
} from "../gen/tavola/v1/game_pb";
import { ListGamesRequestSchema, type GameInfo } from "../gen/tavola/v1/lobby_pb";
import { t } from "../i18n";
import { actionLabel, gameTitle } from "../labels";
import { session, type SeatCredentials } from "../session";
import { beep } from "../sound";
import { Board } from "./board";
import { Fairness } from "./fair";
import { isPractice, logLines, matchInfo, seatName, tableState, type LogLine, type MatchInfo, type TableState } from "./model";
import { Dialog, Notice } from "./pieces";
import { AllRules, AtThisTable } from "./rules";
import { Standings } from "./standings";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function commandId(): string {
  return globalThis.crypto.randomUUID();
}


// a load refused for one of these is tried again (at most REFRESH_RETRIES times, about 30 s)
const PASSING = new Set<Code>([Code.Unavailable, Code.Unknown, Code.ResourceExhausted, Code.DeadlineExceeded]);
const REFRESH_RETRIES = 8;

const LOG_BACKLOG = 64; // events streamed again from before the version last seen, for the log


export function TableScreen(props: { matchId: string }): JSX.Element {
  const { matchId } = props;
  const creds: SeatCredentials | null = session.seat(matchId);
  const me = creds?.seat ?? -1;
  const [info, setInfo] = useState<MatchInfo | null>(null);
  const [game, setGame] = useState<GameInfo | undefined>(undefined);
  const [state, setState] = useState<TableState | null>(null);
  const [online, setOnline] = useState(true);
  const [notice, setNotice] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<{ code: string; text: string } | null>(null);
  const [dialog, setDialog] = useState<"" | "here" | "rules">("");
  const [log, setLog] = useState<LogLine[]>([]);
  const stateRef = useRef<TableState | null>(null);
  const refreshing = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const failures = useRef(0); // loads failed in a row for a passing reason
  const retrying = useRef<ReturnType<typeof setTimeout> | null>(null);
  const closed = useRef(false);
  const refreshRef = useRef<() => void>(() => undefined);
  const finalLoaded = useRef(false); // the ended match's facts are on screen

  const infoRef = useRef<MatchInfo | null>(null);
  infoRef.current = info;
  const names = (seat: number): string => seatName(infoRef.current, seat, me);

  /** Puts a view on screen unless the one there is newer (a GetView answered after the
   * stream's view of a later move); says whether the match has just ended. */
  const showView = useCallback(
    (reply: GetViewResponse): boolean => {
      const next = tableState(reply);
      const before = stateRef.current;
      if (before !== null && next.version < before.version) return false;
      stateRef.current = next;
      setState(next);
      session.sawVersion(matchId, next.version);
      const mineNow = next.legal.length > 0 && me >= 0;
      const mineBefore = before !== null && before.legal.length > 0;
      if (mineNow && !mineBefore) beep();
      return next.finished && !finalLoaded.current;
    },
    [matchId, me],
  );

  /** The match's facts again once it has ended (its seed revealed, the final seats); a
   * failure leaves it to the next view's load to ask again. */
  const loadFinal = useCallback(async (): Promise<void> => {
    setInfo(matchInfo(await api.game.getMatch(create(GetMatchRequestSchema, { matchId }))));
    finalLoaded.current = true;
  }, [matchId]);

  const loadView = useCallback(async (): Promise<void> => {
    const reply = await api.game.getView(
      create(GetViewRequestSchema, { matchId, seat: me, seatToken: creds?.seatToken ?? "", locale: session.locale() }),
    );
    if (showView(reply)) await loadFinal();
  }, [matchId, me, creds?.seatToken, showView, loadFinal]);

  /** One GetView at a time; calls meanwhile ask for one more after it. A load that fails
   * for a passing reason (the gateway or the engine busy or away) is tried again with
   * back-off, a bounded number of times: after a stream that ended at the match's end
   * nothing else would ask, and the table would stay at the move before. */
  const refresh = useCallback((): void => {
    if (refreshing.current) {
      again.current = true;
      return;
    }
    if (retrying.current !== null) {
      clearTimeout(retrying.current);
      retrying.current = null;
    }
    refreshing.current = (async () => {
      let retryIn = 0;
      try {
        do {
          again.current = false;
          await loadView();
        } while (again.current);
        if (failures.current > 0) setOnline(true);
        failures.current = 0;
      } catch (e) {
        const r = refusal(e);
        if (PASSING.has(r.code) && failures.current < REFRESH_RETRIES) {
          retryIn = Math.max(Math.min(500 * 2 ** failures.current, 5000), r.retryAfterMs ?? 0);
          failures.current++;
          setOnline(false);
        } else {
          failures.current = 0;
          setError(PASSING.has(r.code) ? t("table.reconnecting") : r.message);
        }
      } finally {
        refreshing.current = null;
        if (retryIn > 0 && !closed.current) {
          retrying.current = setTimeout(() => {
            retrying.current = null;
            refreshRef.current();
          }, retryIn);
        }
      }
    })();
  }, [loadView]);
  refreshRef.current = refresh;

  // the match's facts, the game's options, then the view and the stream
  useEffect(() => {
    let stopped = false;
    closed.current = false;
    finalLoaded.current = false;
    const controller = new AbortController();
    (async () => {
      try {
        const [m, games] = await Promise.all([
          api.game.getMatch(create(GetMatchRequestSchema, { matchId })),
          api.lobby.listGames(create(ListGamesRequestSchema, { locale: session.locale() })),
        ]);
        if (stopped) return;
        setInfo(matchInfo(m));
        setGame(games.games.find((g) => g.name === m.game));
      } catch (e) {
        setError(refusal(e).message);
      }
    })();
    (async () => {
      // the log's last moves again after a reload: the first stream starts a little before
      // the version last seen; what it brings from before that fills the log only
      const seen = creds?.version ?? 0;
      let after = Math.max(0, seen - LOG_BACKLOG);
      let backoff = 500;
      let logged = false; // the append under way has its line in the log
      while (!stopped) {
        try {
          const stream = api.game.streamEvents(
            create(StreamEventsRequestSchema, {
              matchId,
              seat: me,
              seatToken: creds?.seatToken ?? "",
              afterVersion: BigInt(after),
              untilEnd: true,
              locale: session.locale(),
              views: true,
              packed: true,
            }),
            { signal: controller.signal },
          );
          refresh(); // the view now: what the stream resumes from is on screen at once
          setOnline(true);
          for await (const reply of stream) {
            const events = reply.event ? [reply.event, ...reply.events] : reply.events;
            const last = events[events.length - 1];
            if (last) {
              after = Number(last.version);
              backoff = 500;
            }
            const made = logLines(events, logged);
            logged = made.logged;
            if (made.lines.length) setLog((old) => [...old, ...made.lines].slice(-40));
            const settled = events.some((e) => e.lastInBatch); // an append ended here
            if (reply.view) {
              if (Number(reply.view.version) < seen) continue; // the backlog's, for the log
              if (showView(reply.view)) void loadFinal().catch(() => refresh());
            } else if (settled) {
              refresh(); // a server that sends no views: ask
            }
          }
          refresh();
          return; // until_end: the match is over and every event was sent
        } catch (e) {
          if (stopped) return;
          const r = refusal(e);
          if (r.code === Code.PermissionDenied || r.code === Code.NotFound || r.code === Code.Unauthenticated) {
            setError(r.message);
            return;
          }
          setOnline(false);
          await sleep(Math.max(backoff, r.retryAfterMs ?? 0));
          backoff = Math.min(backoff * 2, 5000);
        }
      }
    })();
    const wake = (): void => {
      if (stopped) return;
      failures.current = 0; // the network is back: a fresh budget of retries
      refresh();
    };
    globalThis.addEventListener("online", wake);
    return () => {
      stopped = true;
      closed.current = true;
      if (retrying.current !== null) clearTimeout(retrying.current);
      retrying.current = null;
      controller.abort();
      globalThis.removeEventListener("online", wake);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [matchId]);

  const act = async (code: string): Promise<void> => {
    if (!creds || !state) return;
    setBusy(true);
    setHint(null);
    setNotice("");
    try {
      await api.game.submitAction(
        create(SubmitActionRequestSchema, {
          matchId,
          seat: me,
          seatToken: creds.seatToken,
          commandId: commandId(),
          // several seats may act at once (Doppelkopf's reservations): no version guard then
          expectedVersion: state.toAct.length > 1 ? 0n : BigInt(state.version),
          action: code,
          locale: session.locale(),
        }),
      );
    } catch (e) {
      const r = refusal(e);
      setNotice(r.code === Code.Aborted ? t("table.moved_on") : r.message);
      refresh(); // nothing was appended: the stream brings no view, so the table asks
    } finally {
      setBusy(false);
    }
  };

  const askHint = async (): Promise<void> => {
    if (!creds) return;
    try {
      const reply = await api.game.getHint(
        create(GetHintRequestSchema, { matchId, seat: me, seatToken: creds.seatToken, locale: session.locale() }),
      );
      const code = reply.action?.code ?? "";
      setHint({
        code,
        text: t("table.hint_text", { action: actionLabel(state?.game ?? "", code, reply.action?.label ?? "", names), reason: reply.reason?.text ?? "" }),
      });
    } catch (e) {
      setNotice(refusal(e).message);
    }
  };

  const takeBack = async (): Promise<void> => {
    if (!creds) return;
    try {
      await api.game.takeBack(
        create(TakeBackRequestSchema, { matchId, seat: me, seatToken: creds.seatToken, commandId: commandId(), locale: session.locale() }),
      );
      setNotice(t("table.taken_back"));
    } catch (e) {
      setNotice(refusal(e).message);
    }
    refresh();
  };

  const leave = async (): Promise<void> => {
    if (!creds || !globalThis.confirm(t("table.leave_confirm"))) return;
    try {
      await api.game.leaveMatch(create(LeaveMatchRequestSchema, { matchId, seat: me, seatToken: creds.seatToken }));
    } catch (e) {
      setNotice(refusal(e).message);
    }
    refresh();
  };

  // H for a hint and U to take back, beside the app's M and ?
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "h" && me >= 0 && state?.legal.length) void askHint();
      if (e.key === "u" && isPractice(info, me)) void takeBack();
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  });

  const title = gameTitle(info?.game ?? state?.game ?? "", game?.title);
  const practice = isPractice(info, me);
  const playing = me >= 0 && !(state?.finished ?? false);
  return (
    <main class="table-screen" aria-label={title}>
      <header class="table-head">
        <h1>
          {title}
          <button class="icon help" aria-label={t("table.help_button")} title={t("table.help_button")} onClick={() => setDialog("here")}>
            ?
          </button>
          <button class="icon gear" aria-label={t("table.rules_button")} title={t("table.rules_button")} onClick={() => setDialog("rules")}>
            ⚙
          </button>
        </h1>
        {info && (
          <span class="fingerprint mono" title={t("table.fingerprint_long", { hash: info.seedCommitment })}>
            {t("table.fingerprint", { short: info.seedCommitment.slice(0, 12) })}
          </span>
        )}
        <span class={`connection ${online ? "on" : "off"}`} role="status">
          {online ? t("table.connected") : t("table.reconnecting")}
        </span>
        {me < 0 && <span class="badge">{t("table.watching")}</span>}
      </header>
      <Notice text={error} kind="error" />
      <Notice text={notice} />
      {hint && <Notice text={hint.text} />}
      <div class="table-body">
        {state && info ? (
          <Board state={state} info={info} me={me} interactive={playing} busy={busy} hint={hint?.code ?? ""} onAct={(c) => void act(c)} />
        ) : (
          <p>{t("common.loading")}</p>
        )}
        <aside class="side">
          {state && <Standings state={state} info={info} me={me} />}
          {playing && (
            <div class="tools">
              <button onClick={() => void askHint()} disabled={!state?.legal.length}>
                {t("table.hint")}
              </button>
              {practice && <button onClick={() => void takeBack()}>{t("table.take_back")}</button>}
              <button class="quiet" onClick={() => void leave()}>
                {t("table.leave")}
              </button>
            </div>
          )}
          <section class="log" aria-label={t("table.log")}>
            <h3>{t("table.log")}</h3>
            <ol>
              {log.slice(-12).map((line, i) => {
                const what = `${names(line.seat)}: ${actionLabel(info?.game ?? "", line.action, line.action, names)}`;
                return <li key={`${line.version}-${i}`}>{line.automatic === null ? what : `${what} (${line.automatic || t("table.automatic")})`}</li>;
              })}
            </ol>
          </section>
        </aside>
      </div>
      {state?.finished && info && (
        <section class="match-over" aria-label={t("table.finished")}>
          <h2>{t("table.finished")}</h2>
          <p>
            <a href={`#/replay/${matchId}`}>{t("table.replay")}</a> · <a href="#/">{t("common.back")}</a>
          </p>
          <Fairness info={info} />
        </section>
      )}
      {dialog === "here" && info && (
        <Dialog title={t("table.at_this_table")} onClose={() => setDialog("")}>
          <AtThisTable info={info} game={game} />
        </Dialog>
      )}
      {dialog === "rules" && info && (
        <Dialog title={t("table.rules")} onClose={() => setDialog("")}>
          <AllRules info={info} game={game} />
        </Dialog>
      )}
    </main>
  );
}
