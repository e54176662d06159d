// The fairness check of a finished match, in the browser: the revealed seed matches the
// commitment shown at the start, and every chance outcome of the record (first dealer or
// declarer, every deal) is re-derived from the seed and the players' client seeds and
// compared with what was dealt, hand by hand (docs/fairness.md; each game's deck order and
// dealing in docs/games/).
import { commitment, fromHex, streamFor, type Derivation } from "./fairness";
import { cards, nums, num, tiles, type Obj } from "./record";

export interface ChanceEvent {
  version: number;
  type: string; // "spades.HandDealt"
  purpose: string; // "deal/1"; "" when not chance
  payload: Obj;
}

export interface Check {
  what: string; // "commitment", "first-dealer", "deal/3"
  ok: boolean;
  detail: string;
}

const SUITS = "CDHS";
const RANKS = "23456789TJQKA";

export function standardDeck(): string[] {
  const out: string[] = [];
  for (const s of SUITS) for (const r of RANKS) out.push(r + s);
  return out;
}

export function doppelkopfDeck(withoutNines: boolean): string[] {
  const ranks = withoutNines ? ["T", "J", "Q", "K", "A"] : ["9", "T", "J", "Q", "K", "A"];
  const copy: string[] = [];
  for (const s of SUITS) for (const r of ranks) copy.push(r + s);
  return [...copy, ...copy];
}

export function dominoSet(): string[] {
  const out: string[] = [];
  for (let high = 0; high <= 6; high++) for (let low = 0; low <= high; low++) out.push(`${high}-${low}`);
  return out;
}

function deckOf(game: string, size: number): string[] {
  if (game === "dominoes") return dominoSet();
  if (game === "doppelkopf") return doppelkopfDeck(size === 40);
  return standardDeck();
}

/** Which seat receives each position of the shuffled deck (-1: not dealt). */
export function dealTargets(game: string, start: Obj, size: number, players: number): number[] {
  const out = new Array<number>(size).fill(-1);
  if (game === "dominoes") {
    for (let p = 0; p < size; p++) out[p] = p < 7 * players ? Math.floor(p / 7) : -1;
    return out;
  }
  let order: number[];
  let counts: number[] | null = null;
  if (game === "barbu") {
    const declarer = num(start["declarer"]) ?? 0;
    order = Array.from({ length: 4 }, (_, i) => (declarer + i) % 4);
  } else if (game === "doppelkopf") {
    const dealer = num(start["dealer"]) ?? 0;
    const playing = nums(start["seats"]);
    const seats = playing.length ? playing : Array.from({ length: players }, (_, i) => i);
    order = [...seats].sort((a, b) => ((a - dealer - 1 + players) % players) - ((b - dealer - 1 + players) % players));
  } else {
    const dealer = num(start["dealer"]) ?? 0;
    order = Array.from({ length: players }, (_, i) => (dealer + 1 + i) % players);
    const given = nums(start["counts"]);
    if (given.length === players) counts = given;
  }
  const dealt = new Array<number>(players).fill(0);
  const perSeat = counts ?? new Array<number>(players).fill(Math.floor(size / order.length));
  let k = 0;
  for (let p = 0; p < size; p++) {
    let tries = 0;
    while (tries < order.length) {
      const seat = order[k % order.length] as number;
      k++;
      tries++;
      if ((dealt[seat] ?? 0) < (perSeat[seat] ?? 0)) {
        out[p] = seat;
        dealt[seat] = (dealt[seat] ?? 0) + 1;
        break;
      }
    }
  }
  return out;
}

const sorted = (items: string[]): string => [...items].sort().join(" ");
const START_TYPES = ["HandStarted", "DealStarted", "GameStarted"];

function dealtItems(payload: Obj): string[] {
  const found = cards(payload["cards"]).map((c) => c.code);
  return found.length ? found : tiles(payload["tiles"]).map((t) => t.code);
}

export async function verifyMatch(
  game: string,
  players: number,
  seedHex: string,
  shownCommitment: string,
  clientSeedsHex: string[],
  events: ChanceEvent[],
): Promise<Check[]> {
  const checks: Check[] = [];
  const serverSeed = fromHex(seedHex);
  const computed = await commitment(serverSeed);
  checks.push({
    what: "commitment",
    ok: computed === shownCommitment.toLowerCase(),
    detail: computed,
  });
  const d: Derivation = { serverSeed, clientSeeds: clientSeedsHex.map(fromHex) };
  const byPurpose = new Map<string, ChanceEvent[]>();
  for (const e of events) {
    if (!e.purpose) continue;
    const batch = byPurpose.get(e.purpose) ?? [];
    batch.push(e);
    byPurpose.set(e.purpose, batch);
  }
  for (const [purpose, batch] of byPurpose) {
    const stream = await streamFor(d, purpose);
    if (purpose === "first-dealer" || purpose === "first-declarer") {
      const field = purpose === "first-dealer" ? "dealer" : "declarer";
      const recorded = num(batch[0]?.payload[field]);
      const drawn = await stream.draw(players);
      checks.push({ what: purpose, ok: recorded === drawn, detail: `${field} ${drawn}` });
      continue;
    }
    const hands = batch.filter((e) => e.type.endsWith(".HandDealt"));
    const start = batch.find((e) => START_TYPES.some((t) => e.type.endsWith("." + t)));
    if (!hands.length || start === undefined) continue;
    const size = game === "dominoes" ? 28 : game === "doppelkopf" ? dealtItems(hands[0]!.payload).length * 4 : 52;
    const deck = deckOf(game, size);
    const perm = await stream.shuffle(size);
    const shuffled = perm.map((i) => deck[i] as string);
    const targets = dealTargets(game, start.payload, size, players);
    let ok = true;
    for (const hand of hands) {
      const seat = num(hand.payload["seat"]) ?? -1;
      const expected = shuffled.filter((_, p) => targets[p] === seat);
      if (sorted(expected) !== sorted(dealtItems(hand.payload))) ok = false;
    }
    checks.push({ what: purpose, ok, detail: `${hands.length}` });
  }
  return checks;
}
