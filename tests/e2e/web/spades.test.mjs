// A person plays a whole Spades match against bots with the keyboard alone, lets a timer
// run out, and reloads the page mid-hand to find the table exactly as it was.
import assert from "node:assert/strict";
import { test } from "node:test";

import { arrowTo, browser, movedOn, playAgainstBots, reloadAndCompare, shot, signIn, snapshot, tabInto, turnOrEnd, version } from "./helpers.mjs";

test("a whole Spades match is played by keyboard, a timer runs out and a reload changes nothing", { timeout: 300_000 }, async () => {
  const b = await browser();
  const { page } = b;
  try {
    await signIn(page);
    await playAgainstBots(page, "spades", { hands: "1", timer_bid: "30", timer_card: "10" });
    let timedOut = false;
    let reloaded = false;
    let cards = 0;
    while (await turnOrEnd(page)) {
      const before = await version(page);
      if ((await page.locator(".bid-blocks").count()) > 0) {
        // Tab to the bid blocks, arrows to the pencil-marked suggestion, Enter, Enter
        await tabInto(page, ".bid-blocks");
        await arrowTo(page, ".bid-block.pencil");
        await page.keyboard.press("Enter");
        assert.equal(await page.getAttribute(".bid-block.raised", "aria-pressed"), "true");
        await page.keyboard.press("Enter");
        await movedOn(page, before);
        await shot(page, "spades-bid");
        continue;
      }
      cards++;
      if (cards === 2 && !timedOut) {
        // hands off: the 10 s card timer runs out and the table plays a safe card for us
        await page.waitForSelector('.my-area .timer', { timeout: 5000 });
        await movedOn(page, before, 30_000);
        await page.waitForFunction(() => /time ran out/i.test(document.querySelector(".log")?.textContent ?? ""), null, { timeout: 10_000 });
        timedOut = true;
        continue;
      }
      if (cards === 5 && !reloaded) {
        const seen = await snapshot(page);
        assert.deepEqual(await reloadAndCompare(page, seen), seen);
        // the log's last moves are there again (streamed from a little before the reload)
        await page.waitForFunction(() => document.querySelectorAll(".log li").length >= 8, null, { timeout: 15_000 });
        await shot(page, "spades-table");
        reloaded = true;
      }
      await tabInto(page, ".hand");
      await arrowTo(page, ".in-hand.playable");
      await page.keyboard.press("Enter");
      await page.waitForSelector(".in-hand.raised");
      await page.keyboard.press("Enter");
      await movedOn(page, before);
    }
    assert.ok(timedOut && reloaded, "the timer ran out and the page was reloaded");
    await page.waitForSelector('.standings[data-final="true"]');
    await shot(page, "spades-final");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
