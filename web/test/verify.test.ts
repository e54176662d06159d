import { describe, expect, it } from "vitest";

import { commitment, hex, streamFor } from "../src/fairness";
import { dealTargets, doppelkopfDeck, dominoSet, standardDeck, verifyMatch, type ChanceEvent } from "../src/verify";

describe("decks and deals as the games' pages give them", () => {
  it("orders the decks", () => {
    expect(standardDeck().slice(0, 3)).toEqual(["2C", "3C", "4C"]);
    expect(standardDeck()[51]).toBe("AS");
    expect(doppelkopfDeck(false)).toHaveLength(48);
    expect(doppelkopfDeck(true)[0]).toBe("TC");
    expect(dominoSet().slice(0, 4)).toEqual(["0-0", "1-0", "1-1", "2-0"]);
  });

  it("deals one at a time from the dealer's left, from the declarer in Barbu, seven each in dominoes", () => {
    expect(dealTargets("spades", { dealer: 3 }, 8, 4)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect(dealTargets("barbu", { declarer: 2 }, 8, 4)).toEqual([2, 3, 0, 1, 2, 3, 0, 1]);
    expect(dealTargets("dominoes", {}, 28, 2).filter((s) => s === 1)).toHaveLength(7);
    expect(dealTargets("fan-tan", { dealer: 0, counts: [1, 2, 2] }, 6, 3)).toEqual([1, 2, 0, 1, 2, -1]);
    // five at the table: the dealer sits out
    expect(dealTargets("doppelkopf", { dealer: 1, seats: [0, 2, 3, 4] }, 8, 5)).toEqual([2, 3, 4, 0, 2, 3, 4, 0]);
  });
});

describe("verifying a match", () => {
  it("accepts a record dealt from its seed and refuses a card changed", async () => {
    const seed = new Uint8Array(32).fill(7);
    const d = { serverSeed: seed, clientSeeds: [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)] };
    const dealer = await (await streamFor(d, "first-dealer")).draw(4);
    const perm = await (await streamFor(d, "deal/1")).shuffle(52);
    const deck = standardDeck();
    const targets = dealTargets("spades", { dealer }, 52, 4);
    const hands = [0, 1, 2, 3].map((seat) => perm.map((i) => deck[i] as string).filter((_, p) => targets[p] === seat));
    const card = (code: string) => ({ t: "card" as const, code, rank: 0, suit: 0 });
    const events: ChanceEvent[] = [
      { version: 3, type: "spades.DealerChosen", purpose: "first-dealer", payload: { dealer } },
      { version: 4, type: "spades.HandStarted", purpose: "deal/1", payload: { dealer, counts: [13, 13, 13, 13] } },
      ...hands.map((cards, seat) => ({ version: 5 + seat, type: "spades.HandDealt", purpose: "deal/1", payload: { seat, cards: cards.map(card) } })),
    ];
    const shown = await commitment(seed);
    const good = await verifyMatch("spades", 4, hex(seed), shown, ["", "", "", ""], events);
    expect(good.map((c) => c.ok)).toEqual([true, true, true]);
    // seat 0 shown holding one of seat 1's cards
    const swapped = [card(hands[1]![0]!), ...hands[0]!.slice(1).map(card)];
    const changed = events.map((e) => (e.version === 5 ? { ...e, payload: { ...e.payload, cards: swapped } } : e));
    const bad = await verifyMatch("spades", 4, hex(seed), shown, ["", "", "", ""], changed);
    expect(bad.find((c) => c.what === "deal/1")?.ok).toBe(false);
    const wrongSeed = await verifyMatch("spades", 4, hex(new Uint8Array(32)), shown, ["", "", "", ""], events);
    expect(wrongSeed[0]?.ok).toBe(false);
  });
});
