import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

import { ChanceStream, commitment, entropy, fromHex, hex, requestKey } from "../src/fairness";
import { standardDeck } from "../src/verify";

interface Vector {
  server_seed_hex: string;
  commitment: string;
  client_seeds_hex: string[];
  purpose: string;
  kind: "draw" | "shuffle";
  size: number;
  key_hex: string;
  outcome: number[];
  deck_order?: string[];
}

const vectors: Vector[] = JSON.parse(
  readFileSync(new URL("../../docs/fairness-vectors.json", import.meta.url), "utf8"),
).vectors;

describe("tavola-fair-v1 in the browser", () => {
  it("has test vectors to check against", () => {
    expect(vectors.length).toBeGreaterThan(3);
  });

  for (const [index, v] of vectors.entries()) {
    it(`re-derives vector ${index} (${v.purpose}, ${v.kind} of ${v.size}) exactly`, async () => {
      const seed = fromHex(v.server_seed_hex);
      expect(await commitment(seed)).toBe(v.commitment);
      const key = await requestKey(seed, v.purpose, await entropy(v.client_seeds_hex.map(fromHex)));
      expect(hex(key)).toBe(v.key_hex);
      const stream = await ChanceStream.of(key);
      const outcome = v.kind === "draw" ? [await stream.draw(v.size)] : await stream.shuffle(v.size);
      expect(outcome).toEqual(v.outcome);
      if (v.deck_order) {
        const deck = standardDeck();
        expect(outcome.map((i) => deck[i])).toEqual(v.deck_order);
      }
    });
  }

  it("refuses text that is not hex", () => {
    expect(() => fromHex("zz")).toThrow();
  });
});
