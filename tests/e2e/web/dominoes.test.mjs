// A person plays a whole match of Brazilian dominoes against bots with the keyboard alone:
// a tile that fits one end plays at once, one that fits both lights the ends; a timer
// runs out; the page is reloaded mid-hand; the network goes away for a while and comes back.
import assert from "node:assert/strict";
import { test } from "node:test";

import { arrowTo, browser, movedOn, playAgainstBots, reloadAndCompare, shot, signIn, snapshot, tabInto, turnOrEnd, version } from "./helpers.mjs";

test("a whole dominoes match is played by keyboard, through a timer, a reload and a lost network", { timeout: 300_000 }, async () => {
  const b = await browser();
  const { page, context } = b;
  try {
    await signIn(page);
    await playAgainstBots(page, "dominoes", { target: "20", timer_tile: "10" });
    let turns = 0;
    let timedOut = false;
    let reloaded = false;
    let offline = false;
    let bothEnds = 0;
    while (await turnOrEnd(page)) {
      turns++;
      const before = await version(page);
      if (turns === 2 && !timedOut) {
        await movedOn(page, before, 30_000); // the 10 s timer: the table lays the heaviest tile
        await page.waitForFunction(() => /time ran out/i.test(document.querySelector(".log")?.textContent ?? ""), null, { timeout: 10_000 });
        timedOut = true;
        continue;
      }
      if (turns === 3 && !reloaded) {
        const seen = await snapshot(page);
        assert.deepEqual(await reloadAndCompare(page, seen), seen);
        reloaded = true;
      }
      await tabInto(page, ".hand");
      await arrowTo(page, ".in-hand.playable");
      await page.keyboard.press("Enter");
      if (await page.locator(".line-end.lit").count()) {
        // both ends lit: the focus is on the first; Enter lays the tile there
        const focused = await page
          .waitForFunction(() => document.activeElement?.classList.contains("lit"), null, { timeout: 5_000 })
          .then(() => true, () => false);
        assert.ok(focused);
        await shot(page, "dominoes-ends");
        await page.keyboard.press("Enter");
        bothEnds++;
      }
      await movedOn(page, before);
      if (turns === 4 && !offline) {
        await shot(page, "dominoes-table");
        await context.setOffline(true);
        await page.waitForTimeout(3000);
        await context.setOffline(false);
        await page.waitForSelector(".connection.on", { timeout: 20_000 });
        offline = true;
      }
    }
    assert.ok(timedOut && reloaded && offline);
    await page.waitForSelector('.standings[data-final="true"]');
    await shot(page, "dominoes-final");
    assert.deepEqual(b.errors, []);
    console.log(`# ${turns} turns, ${bothEnds} tiles laid on a chosen end`);
  } finally {
    await b.close();
  }
});
