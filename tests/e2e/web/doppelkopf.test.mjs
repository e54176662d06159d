// A Doppelkopf game played with the mouse: a reservation (a queen solo) at the
// Vorbehalt, an announcement (Re), then every trick until the game is scored.
import assert from "node:assert/strict";
import { test } from "node:test";

import { browser, clickCard, movedOn, playAgainstBots, shot, signIn, turnOrEnd, version } from "./helpers.mjs";

test("a Doppelkopf game with a reservation and an announcement is played with the mouse", { timeout: 300_000 }, async () => {
  const b = await browser();
  const { page } = b;
  try {
    await signIn(page);
    // one game per match; a game may give no chance to announce (the reservations decide
    // who plays what, and a bot may move before the click): then another table, six at most
    let reserved = false;
    let announced = false;
    for (let games = 0; games < 6 && !(reserved && announced); games++) {
      if (games > 0) {
        await page.click("text=Lobby");
        await page.waitForSelector(".game-tile");
      }
      reserved = false;
      announced = false;
      await playAgainstBots(page, "doppelkopf", { match: "one_game" });
      while (await turnOrEnd(page)) {
        const before = await version(page);
        const choices = await page.locator(".choice").evaluateAll((l) => l.map((e) => e.getAttribute("data-code")));
        console.log(`# choices ${choices.join(", ")}`);
        const solo = page.locator('.choice[data-code="solo Q"]');
        // any announcement: once the window for Re / Kontra has passed, a later one (no 90
        // ... schwarz, which says Re or Kontra with it) may still be open
        const call = page.locator(
          '.choice[data-code="re"], .choice[data-code="kontra"], .choice[data-code^="no "], .choice[data-code="schwarz"]',
        );
        if (!reserved && (await solo.count()) > 0) {
          await shot(page, "doppelkopf-reservation");
          await solo.click();
          reserved = true;
        } else if (!announced && (await call.count()) > 0) {
          // the offer passes when the table moves on (a card played by the one on turn)
          if (!(await call.first().click({ timeout: 3000 }).then(() => true, () => false))) continue;
          // made (its badge shows), or refused because a card was played meanwhile (the
          // table says it moved on): then look again
          const outcome = await page.waitForFunction(
            () => (document.querySelector(".my-area .badge.call") ? "made" : document.querySelector(".notice") ? "refused" : null),
            null,
            { timeout: 15_000, polling: 100 },
          );
          if ((await outcome.jsonValue()) !== "made") continue;
          announced = true;
          await shot(page, "doppelkopf-table");
          // the log names each move; the others' reservations, kept from us, have no line
          const logged = await page.locator(".log li").allTextContents();
          assert.ok(logged.length > 0 && logged.every((line) => !/:\s*$/.test(line)), `the log: ${JSON.stringify(logged)}`);
          continue;
        } else if ((await page.locator(".in-hand.playable").count()) > 0) {
          await clickCard(page);
        } else {
          // a seat that may only announce now: no announcement (the offer may pass meanwhile)
          const wait = page.locator('.choice[data-code="wait"]');
          const clicked = await wait.click({ timeout: 3000 }).then(() => true, () => false);
          if (!clicked) continue;
        }
        await movedOn(page, before);
      }
    }
    assert.ok(reserved && announced, "a reservation and an announcement were made");
    await page.waitForSelector('.standings[data-final="true"]');
    await shot(page, "doppelkopf-final");
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
