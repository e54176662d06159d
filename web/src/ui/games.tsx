// Each game's part of the table: a line about the deal, what a seat shows beside its name,
// and the middle of the table (the trick, the rows, the line of dominoes).
import type { JSX } from "preact";

import { t } from "../i18n";
import { cardShort, enumText, SUIT_SYMBOL } from "../labels";
import { bool, cardOf, enumName, list, num, nums, obj, objs, type Obj, type Val } from "./read";
import { TableCard, TableTile } from "./pieces";

export interface GameCtx {
  view: Obj;
  me: number; // -1: a spectator
  players: number;
  name: (seat: number) => string;
  legal: Set<string>;
  selectedTile: string; // dominoes: the tile whose ends are lit
  onEnd: (code: string) => void; // dominoes: play on a lit end
  interactive: boolean;
}

/** Where a seat sits on the screen, from the viewer's place. */
export function slotOf(seat: number, me: number, players: number): string {
  const base = me < 0 ? 0 : me;
  const offset = (seat - base + players) % players;
  if (offset === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 3) return offset === 1 ? "left" : "right";
  if (players === 4) return ["bottom", "left", "top", "right"][offset] as string;
  if (offset === 1) return "left";
  if (offset === players - 1) return "right";
  return "top";
}

// ----- tricks ------------------------------------------------------------------------------
function plays(v: Val | undefined): { seat: number; card: string }[] {
  return objs(v).map((p) => ({ seat: num(p["seat"]) ?? -1, card: cardOf(p["card"]) }));
}

function TrickArea(props: { ctx: GameCtx; trick: { seat: number; card: string }[]; last: { seat: number; card: string }[]; lastWinner: number | null }): JSX.Element {
  const { ctx } = props;
  return (
    <div class="trick-area">
      <div class="trick" role="group" aria-label={t("table.trick")}>
        {props.trick.map((p) => (
          <span key={p.seat} class={`trick-card slot-${slotOf(p.seat, ctx.me, ctx.players)}`}>
            <TableCard code={p.card} label={`${ctx.name(p.seat)}: ${cardShort(p.card)}`} />
          </span>
        ))}
      </div>
      {props.last.length > 0 && (
        <div class="last-trick" aria-label={t("table.last_trick", { name: props.lastWinner === null ? "" : ctx.name(props.lastWinner) })}>
          <span class="caption">{t("table.last_trick", { name: props.lastWinner === null ? "" : ctx.name(props.lastWinner) })}</span>
          {props.last.map((p) => (
            <TableCard key={p.seat} code={p.card} small label={`${ctx.name(p.seat)}: ${cardShort(p.card)}`} />
          ))}
        </div>
      )}
    </div>
  );
}

// ----- rows of cards (Fan Tan, Barbu's Domino) ---------------------------------------------
const RANK_LETTERS = "23456789TJQKA";
const RANK_NAMES = ["TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN", "KING", "ACE"];

function rankIndex(v: Val | undefined): number | null {
  const card = cardOf(v);
  if (card) return RANK_LETTERS.indexOf(card[0] as string);
  const name = enumName(v);
  return name ? RANK_NAMES.indexOf(name) : null;
}

function Rows(props: { view: Obj; aceLow: boolean }): JSX.Element {
  const rows = new Map<string, { low: number; high: number }>();
  for (const row of objs(props.view["rows"])) {
    const suit = enumName(row["suit"]);
    const low = rankIndex(row["low"]);
    const high = rankIndex(row["high"]);
    if (suit && low !== null && high !== null) rows.set(suit.charAt(0), { low, high });
  }
  // Fan Tan builds from the sevens with the ace low; Barbu's Domino has the ace high
  const order = props.aceLow ? [12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const position = (i: number): number => order.indexOf(i);
  return (
    <div class="rows">
      {["C", "D", "H", "S"].map((suit) => {
        const row = rows.get(suit);
        return (
          <div class="row" key={suit} role="group" aria-label={`${SUIT_SYMBOL[suit]}`}>
            <span class={`row-suit${suit === "H" || suit === "D" ? " red" : ""}`} aria-hidden="true">
              {SUIT_SYMBOL[suit]}
            </span>
            {row === undefined ? (
              <span class="row-closed">{t("fantan.row_closed")}</span>
            ) : (
              order.map((i) => {
                const on = position(i) >= position(row.low) && position(i) <= position(row.high);
                const code = `${RANK_LETTERS[i]}${suit}`;
                return on ? <TableCard key={code} code={code} small /> : <span key={code} class="row-gap" aria-hidden="true" />;
              })
            )}
          </div>
        );
      })}
    </div>
  );
}

// ----- dominoes ---------------------------------------------------------------------------
function DominoLine(props: { ctx: GameCtx }): JSX.Element {
  const { ctx } = props;
  const v = ctx.view;
  const line = objs(v["line"]);
  const left = num(v["left_end"]);
  const right = num(v["right_end"]);
  const tile = ctx.selectedTile;
  const end = (side: "L" | "R", n: number | null): JSX.Element | null => {
    if (n === null) return null;
    const code = `${tile} ${side}`;
    const lit = ctx.interactive && tile !== "" && ctx.legal.has(code);
    return (
      <button
        class={`line-end${lit ? " lit" : ""}`}
        disabled={!lit}
        data-end={side}
        aria-label={t("tile.end", { side: t(side === "L" ? "tile.left" : "tile.right"), n })}
        onClick={() => lit && ctx.onEnd(code)}
      >
        {n}
      </button>
    );
  };
  return (
    <div class="domino-board">
      <div class="line" role="group" aria-label={left === null ? t("tile.line_empty") : t("tile.ends", { left, right: right ?? "" })}>
        {end("L", left)}
        {line.length === 0 ? <span class="line-empty">{t("tile.line_empty")}</span> : null}
        {line.map((p, i) => (
          <TableTile key={i} code={cardOf(p["tile"])} left={num(p["left"]) ?? 0} right={num(p["right"]) ?? 0} />
        ))}
        {end("R", right)}
      </div>
      {tile !== "" && ctx.legal.has(`${tile} L`) && <p class="hint-line">{t("tile.choose_end", { tile: tile.replace("-", "|") })}</p>}
      <p class="board-facts">
        {(num(v["boneyard_count"]) ?? 0) > 0 && <span>{t("tile.boneyard", { n: num(v["boneyard_count"]) ?? 0 })}</span>}
        {objs(v["passes"]).map((p, i) => (
          <span key={i}>{t("tile.passed", { name: ctx.name(num(p["seat"]) ?? -1) })}</span>
        ))}
      </p>
    </div>
  );
}

// ----- each game -------------------------------------------------------------------------
export function Center(props: { game: string; ctx: GameCtx }): JSX.Element {
  const { game, ctx } = props;
  const v = ctx.view;
  if (game === "dominoes") return <DominoLine ctx={ctx} />;
  if (game === "fan-tan") return <Rows view={v} aceLow />;
  if (game === "barbu" && enumName(v["contract"]) === "DOMINO") return <Rows view={v} aceLow={false} />;
  if (game === "doppelkopf") {
    const trick = obj(v["trick"]);
    const last = obj(v["last_trick"]);
    return <TrickArea ctx={ctx} trick={plays(trick?.["plays"])} last={plays(last?.["plays"])} lastWinner={num(last?.["winner"])} />;
  }
  return <TrickArea ctx={ctx} trick={plays(v["trick"])} last={plays(v["last_trick"])} lastWinner={num(v["last_trick_winner"])} />;
}

function seatView(v: Obj, seat: number): Obj | null {
  return objs(v["seats"]).find((s) => num(s["seat"]) === seat) ?? null;
}

function Boxes(props: { taken: number; missing: number }): JSX.Element {
  return (
    <span class="trick-boxes" aria-hidden="true">
      {Array.from({ length: Math.min(13, props.taken) }, (_, i) => <span key={`t${i}`} class="box taken" />)}
      {Array.from({ length: Math.min(13, props.missing) }, (_, i) => <span key={`m${i}`} class="box missing" />)}
    </span>
  );
}

/** What a seat shows beside its name. */
export function SeatFacts(props: { game: string; ctx: GameCtx; seat: number }): JSX.Element | null {
  const { game, ctx, seat } = props;
  const v = ctx.view;
  const at = (name: string): number | null => {
    const items = list(v[name]);
    const found = items[seat];
    return typeof found === "number" ? found : null;
  };
  if (game === "spades") {
    const s = seatView(v, seat);
    if (!s) return null;
    const bid = num(s["bid"]);
    const tricks = num(s["tricks"]) ?? 0;
    return (
      <div class="facts">
        {bid !== null && <span class="bid-block" title={t("spades.bid_of", { n: bid })}>{bid === 0 ? t("spades.nil_bid") : bid}</span>}
        <span>{t("spades.tricks", { n: tricks })}</span>
        {num(s["missing"]) !== null && <span class="missing">{t("spades.missing", { n: num(s["missing"]) ?? 0 })}</span>}
        <Boxes taken={tricks} missing={num(s["missing"]) ?? 0} />
        <span>{t("table.cards_left", { n: num(s["cards"]) ?? 0 })}</span>
      </div>
    );
  }
  if (game === "barbu") {
    const declarer = num(v["declarer"]) === seat;
    const owed = at("doubles_owed");
    return (
      <div class="facts">
        {declarer && <span class="badge">{t("barbu.declarer", { name: "" }).trim()}</span>}
        <span>{t("barbu.points", { deal: at("deal_points") ?? 0, total: at("totals") ?? 0 })}</span>
        <span>{t("spades.tricks", { n: at("tricks_taken") ?? 0 })}</span>
        <span>{t("table.cards_left", { n: at("hand_counts") ?? 0 })}</span>
        {owed !== null && owed > 0 && <span class="muted">{t("barbu.owed", { n: owed })}</span>}
      </div>
    );
  }
  if (game === "doppelkopf") {
    const playing = nums(v["seats"]);
    if (playing.length && !playing.includes(seat)) return <div class="facts"><span class="muted">{t("doko.sits_out")}</span></div>;
    const calls = objs(v["announcers"]).filter((a) => num(a["seat"]) === seat);
    const party = objs(v["known_parties"]).find((p) => num(p["seat"]) === seat);
    const phase = v["phase"];
    const declared = list(v["declared"])[seat];
    return (
      <div class="facts">
        {party && <span class="badge">{enumText("Party", enumName(party["party"]) ?? "")}</span>}
        {calls.map((c, i) => (
          <span key={i} class="badge call">{t("doko.announced", { call: enumText("Party", enumName(c["party"]) ?? "") })}</span>
        ))}
        {phase === "reservations" && <span class="muted">{bool(declared) ? t("doko.declared") : t("doko.deciding")}</span>}
        <span>{t("doko.tricks", { n: at("tricks_won") ?? 0 })}</span>
        <span>{t("table.cards_left", { n: at("card_counts") ?? 0 })}</span>
      </div>
    );
  }
  if (game === "fan-tan") {
    return (
      <div class="facts">
        <span>{t("table.cards_left", { n: at("card_counts") ?? 0 })}</span>
        <span>{t("fantan.penalties", { n: at("totals") ?? 0 })}</span>
      </div>
    );
  }
  if (game === "dominoes") {
    return (
      <div class="facts">
        <span>{t("table.tiles_left", { n: at("tile_counts") ?? 0 })}</span>
      </div>
    );
  }
  return null;
}

/** The line about the deal above the table. */
export function DealLine(props: { game: string; ctx: GameCtx }): JSX.Element {
  const { game, ctx } = props;
  const v = ctx.view;
  const parts: string[] = [];
  if (game === "spades") {
    parts.push(t("spades.hand", { n: num(v["hand_number"]) ?? 0 }));
    if (bool(v["spades_broken"])) parts.push(t("spades.broken"));
    if (bool(v["extra_hand"])) parts.push(t("spades.extra"));
    for (const team of objs(v["teams"])) {
      const names = nums(team["seats"]).map(ctx.name).join(" + ");
      parts.push(
        `${t("spades.team", { names })}: ${t("spades.team_line", {
          score: num(team["score"]) ?? 0,
          bags: num(team["bags"]) ?? 0,
          tricks: num(team["contract_tricks"]) ?? 0,
          contract: num(team["contract"]) ?? "—",
        })}`,
      );
    }
  } else if (game === "barbu") {
    parts.push(t("barbu.deal", { n: num(v["deal"]) ?? 0, total: num(v["deals_in_session"]) ?? 28 }));
    parts.push(t("barbu.declarer", { name: ctx.name(num(v["declarer"]) ?? 0) }));
    const contract = enumName(v["contract"]);
    if (contract) parts.push(enumText("Contract", contract));
    const trump = enumName(v["trump"]);
    if (trump) parts.push(t("barbu.trump", { suit: SUIT_SYMBOL[trump.charAt(0)] ?? trump }));
    const start = enumName(v["start_rank"]);
    if (start) parts.push(t("barbu.from_rank", { rank: RANK_LETTERS[RANK_NAMES.indexOf(start)]?.replace("T", "10") ?? start }));
    const doubles = objs(v["doubles"]).map((d) => t("barbu.doubled", { a: ctx.name(num(d["doubler"]) ?? 0), b: ctx.name(num(d["doubled"]) ?? 0) }));
    if (doubles.length) parts.push(t("barbu.doubles", { list: doubles.join(", ") }));
  } else if (game === "doppelkopf") {
    const contract = enumName(v["contract"]);
    if (contract) parts.push(enumText("Contract", contract));
    if (v["phase"] === "reservations") parts.push(t("doko.reservations"));
    const mine = enumName(v["my_party"]);
    if (mine) parts.push(t("doko.party", { party: enumText("Party", mine) }));
    if (bool(v["bock"])) parts.push(t("doko.bock"));
  } else if (game === "fan-tan") {
    parts.push(t("fantan.hand", { n: num(v["hand_number"]) ?? 0, total: num(v["hands_in_match"]) ?? 0 }));
  } else if (game === "dominoes") {
    parts.push(t("dominoes.hand", { n: num(v["hand_number"]) ?? 0, target: num(v["target"]) ?? 0 }));
    const scores = nums(v["scores"]);
    scores.forEach((score, side) => {
      const names = Array.from({ length: ctx.players }, (_, s) => s)
        .filter((s) => s % scores.length === side)
        .map(ctx.name)
        .join(" + ");
      parts.push(t("dominoes.side", { names, score }));
    });
    const bestOf = num(v["best_of"]) ?? 1;
    if (bestOf > 1) parts.push(t("dominoes.series", { n: bestOf, won: nums(v["games_won"]).join("–") }));
    const opens = cardOf(v["must_open_with"]);
    if (opens) parts.push(t("dominoes.opens_with", { tile: opens.replace("-", "|") }));
  }
  return (
    <p class="deal-line">
      {parts.map((p, i) => (
        <span key={i}>{p}</span>
      ))}
    </p>
  );
}
