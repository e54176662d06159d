// Labels built from the API's stable codes, in the chosen language: cards and tiles (with
// the words a screen reader says), legal actions (docs/games/*.md "Action codes"), enums.
import { t, tMaybe, type Key } from "./i18n";

export const SUIT_SYMBOL: Record<string, string> = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_SHOWN: Record<string, string> = { T: "10" };
const CARD = /^([2-9TJQKA])([CDHS])$/;
const TILE = /^([0-6])-([0-6])$/;

export function cardFace(code: string): { rank: string; suit: string; red: boolean } {
  const m = CARD.exec(code);
  if (!m) return { rank: code, suit: "", red: false };
  const rank = m[1] as string;
  const suit = m[2] as string;
  return { rank: RANK_SHOWN[rank] ?? rank, suit: SUIT_SYMBOL[suit] ?? suit, red: suit === "H" || suit === "D" };
}

export function cardShort(code: string): string {
  const face = cardFace(code);
  return face.rank + face.suit;
}

export function cardName(code: string): string {
  const m = CARD.exec(code);
  if (!m) return code;
  return t("card.name", { rank: t(`rank.${m[1]}` as Key), suit: t(`suit.${m[2]}` as Key) });
}

export function tileName(code: string): string {
  const m = TILE.exec(code);
  return m ? t("tile.name", { high: m[1] as string, low: m[2] as string }) : code;
}

export function enumText(type: string, name: string): string {
  return tMaybe(`enum.${type}.${name}`, name.charAt(0) + name.slice(1).toLowerCase().replace(/_/g, " "));
}

export function levelText(level: string): string {
  return tMaybe(`level.${level}`, level);
}

export function choiceText(value: string): string {
  return tMaybe(`choice.${value}`, value);
}

export function gameTitle(name: string, fallback = name): string {
  return tMaybe(`game.${name}`, fallback);
}

const CALLS = new Set(["re", "kontra", "no 90", "no 60", "no 30", "schwarz"]);

/** A legal action's label; ``names`` gives a seat's display name (for doubles). */
export function actionLabel(game: string, code: string, serverLabel: string, names: (seat: number) => string): string {
  if (CARD.test(code)) return cardShort(code);
  if (TILE.test(code)) return code.replace("-", "|");
  const parts = code.split(" ");
  const head = parts[0] ?? "";
  if (parts.length === 2 && TILE.test(head) && (parts[1] === "L" || parts[1] === "R")) {
    return t(parts[1] === "L" ? "action.tile_left" : "action.tile_right", { tile: head.replace("-", "|") });
  }
  if (code === "nil") return t("action.nil");
  if (code === "pass") return t("action.pass");
  if (head === "bid" && parts.length === 2) return t("action.bid", { n: parts[1] as string });
  if (game === "barbu") {
    if ((head === "double" || head === "redouble") && parts.length > 1) {
      const list = parts.slice(1).map((s) => names(Number(s))).join(", ");
      return t(head === "double" ? "action.double" : "action.redouble", { names: list });
    }
    if (head === "contract" && parts.length >= 2) {
      const name = parts[1] as string;
      if (name === "trumps" && parts[2]) return t("action.contract_trumps", { suit: SUIT_SYMBOL[parts[2]] ?? parts[2] });
      if (name === "domino" && parts[2]) return t("action.contract_domino", { rank: RANK_SHOWN[parts[2]] ?? parts[2] });
      return tMaybe(`contract.${name}`, serverLabel || code);
    }
  }
  if (game === "doppelkopf") {
    if (["healthy", "wedding", "poverty", "throw", "accept", "decline", "wait"].includes(code)) {
      return t(`doko.${code}` as Key);
    }
    if (head === "solo" && parts[1]) return tMaybe(`doko.solo.${parts[1]}`, serverLabel || code);
    if (head === "give" && parts[1]) return t("action.give", { card: cardShort(parts[1]) });
    if (CALLS.has(code)) return t(`doko.call.${code.replace(" ", "_")}` as Key);
  }
  return serverLabel || code;
}
