// One table drawn from a seat's view: the seats around (a bot always marked, timers
// counting down), the middle, and the player's own area — bid blocks, other choices, the
// hand with only the playable cards lit and the reason for every other one.
//
// Playing is two taps or two Enters: the first raises a card or a bid block, the second
// (or "Play" / "Bid") plays it. A domino that fits one end only plays at once; one that fits
// both lights the ends. Arrows move along the hand and the blocks.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

import { t } from "../i18n";
import { actionLabel, cardName, tileName } from "../labels";
import { cards, num, tiles } from "../record";
import { Center, DealLine, SeatFacts, slotOf, type GameCtx } from "./games";
import { botMark, seatName, type MatchInfo, type TableState } from "./model";
import { CardFace, TileFace, Timer } from "./pieces";

export interface BoardProps {
  state: TableState;
  info: MatchInfo | null;
  me: number;
  interactive: boolean;
  busy: boolean;
  hint: string; // a suggested action's code, pencil-marked
  onAct: (code: string) => void;
  live?: boolean; // false in a replay: no timers, no "waiting for"
}

const CARD = /^[2-9TJQKA][CDHS]$/;
const TILE = /^[0-6]-[0-6]( [LR])?$/;

function isBid(code: string): boolean {
  return code === "nil" || /^bid \d+$/.test(code);
}

/** The legal codes that play an item of the hand (a card, a tile), in order. */
function codesFor(item: string, legal: string[]): string[] {
  return legal.filter((c) => c === item || c === `give ${item}` || c === `${item} L` || c === `${item} R`);
}

/** Arrow keys move the focus along a group of buttons (one Tab stop per group). */
function roving(event: KeyboardEvent): void {
  const keys: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  const step = keys[event.key];
  const home = event.key === "Home";
  const end = event.key === "End";
  if (step === undefined && !home && !end) return;
  const group = event.currentTarget as HTMLElement;
  const buttons = Array.from(group.querySelectorAll<HTMLButtonElement>("button[data-roving]"));
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next = home ? 0 : end ? buttons.length - 1 : (Math.max(0, at) + (step ?? 0) + buttons.length) % buttons.length;
  event.preventDefault();
  buttons.forEach((b, i) => (b.tabIndex = i === next ? 0 : -1));
  buttons[next]?.focus();
}

export function Board(props: BoardProps): JSX.Element {
  const { state, info, me, interactive } = props;
  const [selected, setSelected] = useState("");
  const [selectedAt, setSelectedAt] = useState(-1); // which of two equal cards (Doppelkopf)
  const [why, setWhy] = useState("");
  const focusIndex = useRef<Record<string, number>>({});
  const lastGroup = useRef<string>(""); // the group that had the keyboard's focus
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setSelected("");
  }, [state.version]);
  // a played card, a bid made: its button is gone; the focus stays with the player's choices
  useEffect(() => {
    const active = document.activeElement;
    if (!lastGroup.current || (active && active !== document.body && root.current?.contains(active))) return;
    if (active && active !== document.body) return;
    const area = root.current;
    const target =
      area?.querySelector<HTMLElement>(`.${lastGroup.current} button[tabindex="0"]`) ??
      area?.querySelector<HTMLElement>(".bid-blocks button[tabindex=\"0\"], .choices button[tabindex=\"0\"], .hand button[tabindex=\"0\"]");
    target?.focus();
  });
  // a domino that fits both ends: the lit ends take the focus (Enter plays there)
  useEffect(() => {
    if (selected && /^[0-6]-[0-6]$/.test(selected)) root.current?.querySelector<HTMLElement>(".line-end.lit")?.focus();
  }, [selected]);

  const players = info?.players || state.standings.length || 4;
  const name = (seat: number): string => seatName(info, seat, me);
  const legalCodes = interactive ? state.legal.map((a) => a.code) : [];
  const legal = new Set(legalCodes);
  const myTurn = interactive && legalCodes.length > 0;
  const game = state.game;
  const act = (code: string): void => {
    setSelected("");
    setWhy("");
    props.onAct(code);
  };

  const ctx: GameCtx = {
    view: state.view,
    me,
    players,
    name,
    legal,
    selectedTile: game === "dominoes" ? selected : "",
    onEnd: act,
    interactive,
  };

  // ----- the hand -----
  const isTiles = game === "dominoes";
  const hand = isTiles ? tiles(state.view["hand"]).map((x) => x.code) : cards(state.view["hand"]).map((x) => x.code);
  const choose = (item: string, index: number): void => {
    const codes = codesFor(item, legalCodes);
    if (!codes.length) {
      setWhy(state.blocked.get(item) ? t("table.why_not", { card: label(item), reason: state.blocked.get(item) ?? "" }) : "");
      return;
    }
    if (isTiles && codes.length === 1) {
      act(codes[0] as string);
      return;
    }
    if (!isTiles && selected === item && selectedAt === index) act(codes[0] as string);
    else {
      setSelected(item);
      setSelectedAt(index);
    }
  };
  const label = (item: string): string => (isTiles ? tileName(item) : cardName(item));

  // ----- the choices that are not cards -----
  const bids = legalCodes.filter(isBid);
  const others = (interactive ? state.legal : []).filter(
    (a) => !isBid(a.code) && !CARD.test(a.code) && !TILE.test(a.code) && !a.code.startsWith("give "),
  );
  const suggested = num(state.view["suggested_bid"]);

  const live = props.live ?? true;
  const deadlineOf = (seat: number) => (live ? state.deadlines.find((d) => d.seat === seat) : undefined);
  const rank = Math.max(0, focusIndex.current["hand"] ?? 0);

  return (
    <div
      class={`board game-${game} players-${players}`}
      data-version={state.version}
      ref={root}
      onFocusIn={(e) => {
        const group = (e.target as HTMLElement).closest(".hand, .bid-blocks, .choices");
        const end = (e.target as HTMLElement).closest(".line-end");
        lastGroup.current = group ? (group.classList[0] ?? "") : end ? "hand" : "";
      }}
    >
      <DealLine game={game} ctx={ctx} />
      <div class="felt">
        {Array.from({ length: players }, (_, seat) => seat)
          .filter((seat) => seat !== me)
          .map((seat) => {
            const deadline = deadlineOf(seat);
            const bot = botMark(info, seat);
            return (
              <section
                key={seat}
                class={`seat slot-${slotOf(seat, me, players)}${state.toAct.includes(seat) ? " on-turn" : ""}`}
                aria-label={name(seat)}
                data-seat={seat}
              >
                <h3>
                  <span class="seat-name">{name(seat)}</span>
                  {bot && <span class="badge bot">{bot}</span>}
                  {(state.away.includes(seat) || info?.seats.find((s) => s.seat === seat)?.away) && <span class="badge away">{t("common.away")}</span>}
                </h3>
                <SeatFacts game={game} ctx={ctx} seat={seat} />
                {deadline && <Timer deadlineMs={deadline.deadlineMs} seconds={deadline.seconds} name={name(seat)} mine={false} />}
              </section>
            );
          })}
        <div class="center">
          <Center game={game} ctx={ctx} />
        </div>
      </div>

      {me >= 0 && (
        <section class={`my-area${myTurn ? " on-turn" : ""}`} aria-label={name(me)} data-seat={me}>
          <div class="my-head">
            <h3>
              <span class="seat-name">{name(me)}</span>
            </h3>
            <SeatFacts game={game} ctx={ctx} seat={me} />
            {deadlineOf(me) && (
              <Timer deadlineMs={deadlineOf(me)!.deadlineMs} seconds={deadlineOf(me)!.seconds} name={name(me)} mine />
            )}
            <p class="turn-line" role="status" aria-live="polite">
              {myTurn
                ? t("table.your_turn")
                : state.toAct.length && !state.finished
                  ? live
                    ? t("table.waiting_for", { names: state.toAct.map(name).join(", ") })
                    : t("table.turn_of", { name: state.toAct.map(name).join(", ") })
                  : ""}
            </p>
          </div>

          {bids.length > 0 && (
            <div class="bids">
              <p class="caption">{t("spades.bidding")}</p>
              <div class="bid-blocks" role="group" aria-label={t("table.bid")} onKeyDown={roving}>
                {bids.map((code, i) => {
                  const n = code === "nil" ? 0 : Number(code.split(" ")[1]);
                  const pencil = suggested === n || props.hint === code;
                  return (
                    <button
                      key={code}
                      data-roving
                      data-code={code}
                      tabIndex={i === 0 ? 0 : -1}
                      class={`bid-block${selected === code ? " raised" : ""}${pencil ? " pencil" : ""}`}
                      aria-pressed={selected === code}
                      aria-label={`${actionLabel(game, code, "", name)}${pencil ? ` (${t("table.suggested")})` : ""}`}
                      disabled={props.busy}
                      onClick={() => (selected === code ? act(code) : setSelected(code))}
                    >
                      {code === "nil" ? t("action.nil") : n}
                    </button>
                  );
                })}
              </div>
              <button class="primary" disabled={!bids.includes(selected) || props.busy} onClick={() => act(selected)}>
                {t("table.bid")}
              </button>
            </div>
          )}

          {others.length > 0 && (
            <div class="choices" role="group" aria-label={t("table.choose")} onKeyDown={roving}>
              {others.map((a, i) => (
                <button
                  key={a.code}
                  data-roving
                  data-code={a.code}
                  tabIndex={i === 0 ? 0 : -1}
                  class={`choice${props.hint === a.code ? " pencil" : ""}`}
                  disabled={props.busy}
                  onClick={() => act(a.code)}
                >
                  {actionLabel(game, a.code, a.label, name)}
                </button>
              ))}
            </div>
          )}

          <div class={`hand${isTiles ? " tiles" : ""}`} role="group" aria-label={t("table.hand")} onKeyDown={(e) => {
            if (e.key === "Escape") setSelected("");
            roving(e);
          }}>
            {hand.map((item, i) => {
              const codes = codesFor(item, legalCodes);
              const playable = myTurn && codes.length > 0;
              const reason = state.blocked.get(item) ?? "";
              const raised = selected === item && selectedAt === i;
              const aria = raised
                ? t("card.chosen", { card: label(item) })
                : playable
                  ? t("card.playable", { card: label(item) })
                  : reason
                    ? t("card.blocked", { card: label(item), reason })
                    : label(item);
              const [a, b] = item.split("-").map(Number);
              return (
                <button
                  key={`${item}-${i}`}
                  data-roving
                  data-code={item}
                  tabIndex={i === Math.min(rank, hand.length - 1) ? 0 : -1}
                  class={`in-hand${playable ? " playable" : " dim"}${raised ? " raised" : ""}${props.hint && codesFor(item, [props.hint]).length ? " pencil" : ""}`}
                  aria-label={aria}
                  aria-pressed={raised}
                  aria-disabled={!playable}
                  title={!playable && reason ? reason : undefined}
                  onFocus={() => {
                    focusIndex.current["hand"] = i;
                    setWhy(!playable && reason ? t("table.why_not", { card: label(item), reason }) : "");
                  }}
                  onMouseEnter={() => setWhy(!playable && reason ? t("table.why_not", { card: label(item), reason }) : "")}
                  onClick={() => !props.busy && choose(item, i)}
                >
                  {isTiles ? <TileFace a={a ?? 0} b={b ?? 0} /> : <CardFace code={item} />}
                </button>
              );
            })}
          </div>
          {!isTiles && myTurn && (
            <button class="primary play" disabled={!selected || !CARD.test(selected) || props.busy} onClick={() => {
              const codes = codesFor(selected, legalCodes);
              if (codes[0]) act(codes[0]);
            }}>
              {t("table.play")}
            </button>
          )}
          <p class="why" role="status" aria-live="polite">
            {why}
          </p>
        </section>
      )}
    </div>
  );
}
