// What every browser test of the web table shares: Debian's Chromium driven by
// playwright-core (a fresh profile each time), signing in, setting up a table in the
// lobby, waiting for one's turn, and screenshots saved as test artifacts.
//
// Environment (set by tests/e2e/test_web.py): TAVOLA_WEB_URL (the gateway), TAVOLA_TOKEN
// (a token of the platform's admin), TAVOLA_CHROMIUM (the browser), TAVOLA_ARTIFACTS
// (where screenshots go), TAVOLA_WEB_DIR (web/, whose node_modules has playwright-core).
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const require = createRequire(path.resolve(process.env.TAVOLA_WEB_DIR ?? "web", "package.json"));
const { chromium } = require("playwright-core");

export const URL = process.env.TAVOLA_WEB_URL ?? "http://127.0.0.1:8080/";
export const TOKEN = process.env.TAVOLA_TOKEN ?? "";
export const ARTIFACTS = process.env.TAVOLA_ARTIFACTS ?? path.join(os.tmpdir(), "tavola-web-artifacts");
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser with a fresh profile; closed by ``close()``. */
export async function browser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tavola-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.TAVOLA_CHROMIUM ?? "/usr/bin/chromium",
    args: FLAGS,
    headless: true,
    viewport: { width: 1280, height: 960 },
    locale: "en-US",
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const calls = new Map(); // the API calls the page made, by method ("GetView": 3)
  page.on("request", (r) => {
    const method = /\/tavola\.v1\.\w+\/(\w+)$/.exec(new globalThis.URL(r.url()).pathname)?.[1];
    if (method) calls.set(method, (calls.get(method) ?? 0) + 1);
  });
  return {
    context,
    page,
    errors,
    calls,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function shot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export async function signIn(page) {
  await page.goto(URL);
  await page.fill("#token", TOKEN);
  await page.click("button[type=submit]");
  await page.waitForSelector(".game-tile");
}

/** Set up a table of ``game`` in the lobby and play it against bots; returns the match id. */
export async function playAgainstBots(page, game, options = {}, { players, level = "easy", thinkMs = 100 } = {}) {
  await page.click(`[data-game="${game}"]`);
  await page.waitForSelector(".new-table");
  if (players) await page.selectOption("#players", String(players));
  for (const [name, value] of Object.entries(options)) {
    const field = page.locator(`#option-${name}`);
    const type = await field.getAttribute("type");
    if (type === "checkbox") await field.setChecked(value === "true");
    else if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(String(value));
  }
  await page.selectOption("#level", level);
  await page.fill("#think", String(thinkMs));
  await page.click('[data-testid="play-bots"]');
  await page.waitForURL(/#\/match\//);
  await page.waitForSelector(".board");
  return page.url().split("#/match/")[1];
}

/** Wait until it is the player's turn (true) or the match is over (false). */
export async function turnOrEnd(page, timeout = 60_000) {
  const handle = await page.waitForFunction(
    () => {
      if (document.querySelector(".match-over")) return "end";
      const area = document.querySelector(".my-area.on-turn");
      return area && document.querySelector(".my-area .playable, .my-area .bid-block, .my-area .choice") ? "turn" : null;
    },
    null,
    { timeout, polling: 100 },
  );
  return (await handle.jsonValue()) === "turn";
}

/** What the table shows, to compare before and after a reload. */
export async function snapshot(page) {
  return page.evaluate(() => {
    const text = (sel) => Array.from(document.querySelectorAll(sel), (e) => e.getAttribute("data-code") ?? e.textContent);
    return {
      version: document.querySelector(".board")?.getAttribute("data-version"),
      hand: text(".hand [data-code]"),
      playable: text(".hand .playable"),
      table: document.querySelector(".center")?.textContent ?? "",
      seats: Array.from(document.querySelectorAll(".seat .facts"), (e) => e.textContent),
      mine: document.querySelector(".my-area .facts")?.textContent ?? "",
      deal: document.querySelector(".deal-line")?.textContent ?? "",
      standings: document.querySelector(".standings tbody")?.textContent ?? "",
    };
  });
}

/** Press Tab until the focus is inside ``selector`` (keyboard only). */
export async function tabInto(page, selector, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => Boolean(document.activeElement?.closest(s)), selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Arrows along the focused group until the focused button matches ``wanted``. */
export async function arrowTo(page, wanted, limit = 40) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((w) => Boolean(document.activeElement?.matches(w)), wanted)) return;
    await page.keyboard.press("ArrowRight");
  }
  throw new Error(`no focusable ${wanted}`);
}

export async function version(page) {
  return Number(await page.getAttribute(".board", "data-version"));
}

/** Wait until the table has moved past ``before`` (a move of ours was recorded). */
export async function movedOn(page, before, timeout = 30_000) {
  await page.waitForFunction((v) => Number(document.querySelector(".board")?.getAttribute("data-version")) > v, before, { timeout, polling: 100 });
}

/** With the mouse: a card is clicked (it rises) and clicked again (it is played). */
export async function clickCard(page, selector = ".in-hand.playable") {
  const card = page.locator(selector).first();
  await card.click();
  await page.waitForSelector(".in-hand.raised");
  await page.locator(".in-hand.raised").first().click();
}

/** Reload the page and wait until the table shows exactly ``seen`` again (or say what differs). */
export async function reloadAndCompare(page, seen, timeout = 15_000) {
  await page.reload();
  const deadline = Date.now() + timeout;
  let now = null;
  while (Date.now() < deadline) {
    now = await snapshot(page).catch(() => null);
    if (now && JSON.stringify(now) === JSON.stringify(seen)) return now;
    await page.waitForTimeout(100);
  }
  return now;
}
