// The language switch: after choosing PT, no text of the client's English catalogue is on
// screen — lobby, the table, its dialogs, the keys — and the platform's own texts (option
// descriptions, reasons a card cannot be played) come in Portuguese too.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { browser, playAgainstBots, shot, signIn, turnOrEnd } from "./helpers.mjs";

/** The static pieces of every English text that differs from its Portuguese one. */
function englishPieces() {
  const source = fs.readFileSync(path.resolve(process.env.TAVOLA_WEB_DIR ?? "web", "src/i18n.ts"), "utf8");
  const entry = /"([\w.-]+)": \[\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)",?\s*\]/g;
  const pieces = new Set();
  for (const [, , en, pt] of source.matchAll(entry)) {
    if (en === pt) continue;
    for (const piece of en.split(/\{\w+\}/)) {
      const clean = piece.trim().replace(/^[—:·,(]+|[—:·,)]+$/g, "").trim();
      if (clean.length >= 6 && /[a-z]{3}/i.test(clean) && !pt.includes(clean)) pieces.add(clean);
    }
  }
  return [...pieces];
}

async function visibleText(page) {
  return page.evaluate(() => {
    const labels = Array.from(document.querySelectorAll("[aria-label], [title]"), (e) => `${e.getAttribute("aria-label") ?? ""} ${e.getAttribute("title") ?? ""}`);
    return `${document.body.innerText}\n${labels.join("\n")}`;
  });
}

function assertNoEnglish(text, pieces, where) {
  const found = pieces.filter((p) => text.includes(p));
  assert.deepEqual(found, [], `English on the ${where}`);
}

test("switching to Portuguese shows every text in Portuguese", { timeout: 300_000 }, async () => {
  const pieces = englishPieces();
  assert.ok(pieces.length > 100, `only ${pieces.length} English texts read from the catalogue`);
  const b = await browser();
  const { page } = b;
  try {
    await signIn(page);
    await page.click('[data-game="spades"]');
    const englishOptions = await page.locator(".new-table label").allTextContents();
    await page.click('[data-locale="pt"]');
    await page.waitForSelector("text=Jogos");
    await page.click('[data-game="spades"]');
    await page.waitForSelector(".new-table");
    const portugueseOptions = await page.locator(".new-table label").allTextContents();
    const server = englishOptions.filter((text) => text.length > 12 && portugueseOptions.includes(text));
    assert.deepEqual(server, [], "option descriptions still in English");
    assertNoEnglish(await visibleText(page), pieces, "lobby");
    await shot(page, "lobby.pt");

    await playAgainstBots(page, "spades", { hands: "1", timer_bid: "60" });
    assert.ok(await turnOrEnd(page));
    await page.waitForSelector(".bid-blocks");
    assertNoEnglish(await visibleText(page), pieces, "table");
    const reason = (await page.locator(".in-hand").first().getAttribute("aria-label")) ?? "";
    assert.match(reason, / de (paus|ouros|copas|espadas), não pode ser jogada: /);
    assert.doesNotMatch(reason, /Everyone bids|your turn to bid/i);
    await shot(page, "spades-table.pt");
    await page.click('button[aria-label="O que muda aqui (?)"]');
    await page.waitForSelector(".dialog");
    assertNoEnglish(await visibleText(page), pieces, "“At this table” dialog");
    await page.keyboard.press("Escape");
    await page.click('button[aria-label="Regras desta mesa (roda dentada)"]');
    await page.waitForSelector(".rules-table");
    assertNoEnglish(await visibleText(page), pieces, "rules dialog");
    await page.keyboard.press("Escape");
    await page.keyboard.press("?");
    await page.waitForSelector("#keys-help");
    assertNoEnglish(await visibleText(page), pieces, "keys");
    await shot(page, "keys.pt");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
