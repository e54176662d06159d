// A Fan Tan hand played with the mouse, with the reason shown for an unplayable card, a hint
// and a move taken back; then
// the end of the match: final standings, the fairness check re-deriving the deal in the
// browser, the replay hand by hand, and the player's statistics and history.
import assert from "node:assert/strict";
import { test } from "node:test";

import { browser, clickCard, movedOn, playAgainstBots, shot, signIn, turnOrEnd, version } from "./helpers.mjs";

test("a Fan Tan hand is played with the mouse, with a hint and a take-back, verified in the browser and replayed", { timeout: 300_000 }, async () => {
  const b = await browser();
  const { page } = b;
  try {
    await signIn(page);
    const match = await playAgainstBots(page, "fan-tan", { hands: "1" });
    const viewsBefore = b.calls.get("GetView") ?? 0;
    let reasons = 0;
    let turns = 0;
    while (await turnOrEnd(page)) {
      const before = await version(page);
      turns++;
      if (turns === 2) {
        // a hint pencil-marks the card the hard bot would play, with why
        await page.click("text=Hint");
        await page.waitForSelector(".in-hand.pencil");
        assert.match((await page.textContent(".notice")) ?? "", /^Hint: /);
      }
      if (turns === 3) {
        // against bots only: take the last move back, and the card is in the hand again
        const cards = await page.locator(".in-hand").count();
        await page.click("text=Take back");
        await page.waitForFunction((n) => document.querySelectorAll(".in-hand").length === n + 1, cards, { timeout: 15_000 });
        assert.ok(await turnOrEnd(page));
      }
      const dim = page.locator(".in-hand.dim").first();
      if (reasons < 2 && (await dim.count()) > 0) {
        await dim.hover(); // pointing at a card tells why it cannot be played now
        await page.waitForFunction(() => (document.querySelector(".why")?.textContent ?? "").length > 3);
        assert.match((await dim.getAttribute("aria-label")) ?? "", /cannot be played/);
        if (reasons++ === 0) await shot(page, "fan-tan-table");
      }
      await clickCard(page);
      await movedOn(page, before);
    }
    // every move's view came on the stream (views + packed): GetView only for the first
    // view, the take-back and the stream's end, not once a move
    const views = (b.calls.get("GetView") ?? 0) - viewsBefore;
    assert.ok(turns >= 8 && views < turns / 2, `${views} GetView calls over ${turns} turns`);
    // "What happened" lists the moves, the player's own and the bots' (the last twelve)
    const logged = await page.locator(".log li").allTextContents();
    assert.equal(logged.length, 12, `the log: ${JSON.stringify(logged)}`);
    assert.ok(logged.some((line) => line.startsWith("Bot ")), `the log: ${JSON.stringify(logged)}`);
    await page.waitForSelector('.standings[data-final="true"]');
    await page.click('[data-testid="verify"]');
    await page.waitForSelector('[data-testid="verify-result"]', { timeout: 30_000 });
    assert.equal(await page.getAttribute('[data-testid="verify-result"]', "data-ok"), "true");
    await shot(page, "fan-tan-final");

    await page.click("text=Replay the match");
    await page.waitForSelector('[data-testid="replay-position"]');
    const first = await page.textContent('[data-testid="replay-position"]');
    assert.match(first ?? "", /Hand 1 of 1 · Move 1 of \d+/);
    await page.click("text=Step forward");
    await page.waitForFunction((f) => document.querySelector('[data-testid="replay-position"]')?.textContent !== f, first);
    await page.waitForSelector(".board");
    await shot(page, "fan-tan-replay");

    await page.click("text=My matches");
    await page.waitForSelector(`[data-match="${match}"]`, { timeout: 20_000 });
    await shot(page, "stats");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
