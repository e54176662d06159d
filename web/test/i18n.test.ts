import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { t, TEXTS, type Key } from "../src/i18n";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "gen" ? [] : sources(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();

describe("the catalogue", () => {
  it("has every text in English and Portuguese with the same placeholders", () => {
    for (const [key, [en, pt]] of Object.entries(TEXTS)) {
      expect(en.trim(), key).not.toBe("");
      expect(pt.trim(), key).not.toBe("");
      expect(placeholders(pt), key).toEqual(placeholders(en));
    }
  });

  it("has every key the sources use", () => {
    const root = new URL("../src", import.meta.url).pathname;
    const used = new Set<string>();
    for (const file of sources(root)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\("([\w.-]+)"/g)) used.add(m[1] as string);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((key) => !(key in TEXTS));
    expect(missing).toEqual([]);
  });

  it("fills placeholders in the language asked for", () => {
    expect(t("action.bid", { n: 4 }, "en")).toBe("Bid 4");
    expect(t("action.bid", { n: 4 }, "pt")).toBe("Lance 4");
    expect(t("card.name", { rank: "dama", suit: "espadas" }, "pt")).toBe("dama de espadas");
    expect(t("table.cards_left", { n: 1 }, "en")).toBe("1 card");
    expect(t("table.cards_left", { n: 2 }, "en")).toBe("2 cards");
    expect(t("barbu.owed", { n: 1 }, "pt")).toBe("deve 1 dobra");
    for (const key of Object.keys(TEXTS).filter((k) => k.endsWith("_one"))) {
      expect(key.slice(0, -4) in TEXTS, key).toBe(true); // a count's other texts
    }
    const key: Key = "table.your_turn";
    expect(t(key, {}, "pt")).toBe("Sua vez");
  });
});
