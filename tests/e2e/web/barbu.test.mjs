// A Barbu deal played with the mouse: the declarer's contract, a doubling turn in which
// the person doubles the declarer, then the cards, until the deal is scored.
import assert from "node:assert/strict";
import { test } from "node:test";

import { browser, clickCard, movedOn, playAgainstBots, shot, signIn, turnOrEnd, version } from "./helpers.mjs";

async function declarer(page) {
  await page.waitForFunction(() => document.querySelector(".deal-line")?.textContent?.includes("declarer"), null, { timeout: 30_000 });
  return page.evaluate(() => document.querySelector(".my-area")?.textContent?.includes("declarer") ?? false);
}

test("a Barbu deal with doubling is played with the mouse", { timeout: 300_000 }, async () => {
  const b = await browser();
  const { page } = b;
  try {
    await signIn(page);
    // the first declarer is drawn from the seed: sit at tables until someone else declares
    for (let tries = 0; ; tries++) {
      await playAgainstBots(page, "barbu", { blocks: "1" });
      if (!(await declarer(page))) break;
      assert.ok(tries < 6, "never anyone else's deal");
      page.once("dialog", (d) => void d.accept());
      await page.click("text=Leave the match");
      await page.click("text=Lobby");
      await page.waitForSelector(".game-tile");
    }
    let doubled = false;
    let doubles = "";
    while (await turnOrEnd(page)) {
      const before = await version(page);
      const deal = await page.evaluate(() => document.querySelector(".deal-line")?.textContent ?? "");
      if (!deal.includes("Deal 1 ")) break; // the first deal is scored: the next one began
      const double = page.locator('.choice[data-code^="double"]');
      if ((await double.count()) > 0) {
        await shot(page, "barbu-doubling");
        await double.first().click();
        doubled = true;
      } else if ((await page.locator(".choice").count()) > 0) {
        await page.locator(".choice").first().click();
      } else {
        await clickCard(page);
      }
      await movedOn(page, before);
      const line = await page.evaluate(() => document.querySelector(".deal-line")?.textContent ?? "");
      // the deal line once it names the person's double (a later deal's bots may double too)
      if (line.includes("Doubles:") && !doubles.includes("(you)")) doubles = line;
    }
    assert.ok(doubled, "the person doubled the declarer");
    assert.match(doubles, /\(you\) doubled/);
    await page.waitForFunction(() => /Deal 2 /.test(document.querySelector(".deal-line")?.textContent ?? ""), null, { timeout: 60_000 });
    await shot(page, "barbu-table");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
