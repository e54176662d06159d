// What a table screen draws, from GetView and GetMatch: typed once here.
import { timestampMs } from "@bufbuild/protobuf/wkt";

import { CauseKind, type EventEnvelope } from "../gen/tavola/v1/events_pb";
import type { GetMatchResponse, GetViewResponse } from "../gen/tavola/v1/game_pb";
import { t } from "../i18n";
import { levelText } from "../labels";
import { record, type Obj } from "../record";

export interface SeatInfo {
  seat: number;
  name: string;
  isBot: boolean;
  botLevel: string;
  away: boolean;
}

export interface MatchInfo {
  matchId: string;
  tableId: string;
  game: string;
  players: number;
  seats: SeatInfo[];
  options: Record<string, string>;
  houseRules: string[];
  seedCommitment: string;
  seed: string;
  clientSeeds: string[];
  finished: boolean;
}

export interface Standing {
  seat: number;
  name: string;
  score: number;
  rank: number;
  isBot: boolean;
}

export interface Deadline {
  seat: number;
  deadlineMs: number;
  seconds: number;
}

export interface TableState {
  game: string;
  version: number;
  view: Obj;
  toAct: number[];
  legal: { code: string; label: string }[];
  blocked: Map<string, string>;
  deadlines: Deadline[];
  standings: Standing[];
  finished: boolean;
  away: number[];
}

export function matchInfo(m: GetMatchResponse): MatchInfo {
  return {
    matchId: m.matchId,
    tableId: m.tableId,
    game: m.game,
    players: m.seats.length,
    seats: m.seats.map((s) => ({
      seat: s.seat,
      name: s.playerName,
      isBot: s.isBot,
      botLevel: s.botLevel,
      away: s.away,
    })),
    options: { ...m.options },
    houseRules: [...m.houseRules],
    seedCommitment: m.seedCommitment,
    seed: m.seed,
    clientSeeds: [...m.clientSeeds],
    finished: m.finished,
  };
}

export function tableState(v: GetViewResponse): TableState {
  const blocked = new Map<string, string>();
  for (const b of v.blocked) if (!blocked.has(b.code)) blocked.set(b.code, b.reason?.text ?? "");
  return {
    game: v.game,
    version: Number(v.version),
    view: record(v.view),
    toAct: [...v.toAct],
    legal: v.legalActions.map((a) => ({ code: a.code, label: a.label })),
    blocked,
    deadlines: v.deadlines.map((d) => ({
      seat: d.seat,
      deadlineMs: d.deadline ? timestampMs(d.deadline) : Date.now(),
      seconds: d.seconds,
    })),
    standings: v.standings.map((s) => ({
      seat: s.seat,
      name: s.playerName,
      score: Number(s.score),
      rank: s.rank,
      isBot: s.isBot,
    })),
    finished: v.finished,
    away: [...v.away],
  };
}

/** A seat's name as the table shows it: "you" for one's own seat. */
export function seatName(info: MatchInfo | null, seat: number, me: number): string {
  const found = info?.seats.find((s) => s.seat === seat);
  const name = found?.name || t("common.seat", { n: seat });
  return seat === me ? `${name} (${t("common.you")})` : name;
}

export function botMark(info: MatchInfo | null, seat: number): string {
  const found = info?.seats.find((s) => s.seat === seat);
  if (!found?.isBot) return "";
  return found.botLevel ? t("common.bot_level", { level: levelText(found.botLevel) }) : t("common.bot");
}

/** A practice table: the one person here, every other seat a bot of the platform. */
export function isPractice(info: MatchInfo | null, me: number): boolean {
  if (!info || me < 0) return false;
  return info.seats.every((s) => s.seat === me || (s.isBot && s.botLevel !== ""));
}

/** A line of the table's log of moves. */
export interface LogLine {
  version: number;
  seat: number;
  action: string;
  automatic: string | null; // the reason of an automatic move (a timer ran out)
}

// choices a seat keeps to itself until they are shown (Doppelkopf's reservations)
const SECRET_CHOICES = /^(healthy|wedding|poverty|throw|solo [A-Z])$/;

/** The log's line for a move: the first event of an append that a seat's action or timer
 * caused and that this viewer may see, its action included and not a secret choice
 * (``logged``: the append has its line already). The append's last event is often the
 * platform's own (the next turn's timer), so the line cannot wait for ``last_in_batch``. */
export function logLine(e: EventEnvelope, logged: boolean): LogLine | null {
  const cause = e.cause;
  // a choice the server keeps to its maker comes without its code
  if (logged || !cause || e.hidden || !cause.action || SECRET_CHOICES.test(cause.action)) return null;
  if (cause.kind !== CauseKind.ACTION && cause.kind !== CauseKind.TIMEOUT) return null;
  return {
    version: Number(e.version),
    seat: cause.seat,
    action: cause.action,
    automatic: cause.kind === CauseKind.TIMEOUT ? (cause.automaticReason?.text ?? "") : null,
  };
}

/** The log's lines for a run of a stream's events, in order. ``logged`` says whether the
 * append under way has its line already; the answer's is the same for the next run (an
 * append may span two responses of a backlog). */
export function logLines(events: readonly EventEnvelope[], logged: boolean): { lines: LogLine[]; logged: boolean } {
  const lines: LogLine[] = [];
  for (const e of events) {
    const line = logLine(e, logged);
    if (line) lines.push(line);
    logged = e.lastInBatch ? false : logged || line !== null;
  }
  return { lines, logged };
}
