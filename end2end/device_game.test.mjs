// A bot game on the device, the way a player on a train meets it: online once (signed up, one
// game on the device, so the app and the dictionary are kept), then offline: the start page
// still opens, a new bot game starts, a real word is played and the bot answers from its worker;
// the page is closed and opened again, still offline, and the game is there with the same board
// and hand. Back online, the finished game is sent to the account: in the player's list, with
// its history. A game going on reaches the account too, and goes on on the player's laptop.
// Pass-and-play on the device is discarded in one confirmed tap. On a 390×844 touch phone, with
// the device game also seen on a 1366×768 laptop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, uniqueName, openNewGame, controlled, PASSWORD } from './support/app.mjs';
import { tapAWord, waitForText } from './support/play.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** From the start page (already open), a device game against the beginner bot: its key. */
async function startOnDevice(page) {
  await openNewGame(page);
  await page.check('input[name="opponent"][value="bot"]');
  await page.selectOption('select[name="bot"]', 'beginner');
  assert.ok(await page.isChecked('input[name="device"]'), 'a bot game is played on the device by default');
  await page.tap('button:has-text("Start")');
  await page.waitForURL(/\/device\/[0-9a-f]{32}$/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  return new URL(page.url()).pathname.split('/').pop();
}

/** What the page shows of the game: the board's tiles by cell, the hand, the scores. */
async function shown(page) {
  return page.evaluate(() => ({
    board: [...document.querySelectorAll('.board-frame [data-cell]')]
      .filter((cell) => cell.querySelector('.tile'))
      .map((cell) => `${cell.dataset.cell}:${cell.textContent.trim()}`),
    hand: [...document.querySelectorAll('[data-testid="rack"] .hand-tile')].map((t) => t.getAttribute('aria-label')).sort(),
    scores: [0, 1].map((seat) => document.querySelector(`[data-testid="score-${seat}"]`)?.textContent),
  }));
}

test('a bot game starts, plays and is restored offline on the device, then reaches the account', async () => {
  const base = suite.server.url;
  const { context, page } = await openPage(suite.browser, PHONE);
  const name = uniqueName('tove');
  await page.goto(`${base}/signup`);
  await signUp(page, name);
  await controlled(page);

  // Online once: the start page (kept for offline), and one game on the device, which keeps its
  // dictionary and the engine.
  await page.goto(`${base}/`);
  await hydrated(page);
  const first = await startOnDevice(page);
  await waitForText(page, 'turn', /Your turn/);

  // Offline: the start page opens from what the app kept, and a new bot game starts.
  await context.setOffline(true);
  await page.goto(`${base}/`);
  await hydrated(page);
  await page.waitForSelector(`[data-device-game="${first}"]`);
  // The device's games come first on a phone: the one going on is on the first screen.
  const listed = await page.locator(`[data-device-game="${first}"]`).boundingBox();
  assert.ok(listed.y >= 0 && listed.y + listed.height <= PHONE.viewport.height, `the device's game on the first screen: ${JSON.stringify(listed)}`);
  assert.match(await page.textContent(`[data-device-game="${first}"]`), /beginner bot \(550\) 0.*Your turn/s);
  await page.screenshot({ path: path.join(artifacts, 'device-home-offline-phone.png') });
  // What needs the network says so.
  await openNewGame(page);
  await page.check('input[name="opponent"][value="invite"]');
  await page.tap('button:has-text("Start")');
  await page.waitForSelector('.new-game [role="alert"]:has-text("You are offline, and this needs the network")');
  let key = null;
  let word = null;
  for (let attempt = 0; !word; attempt++) {
    assert.ok(attempt < 6, 'six racks without a two-letter word');
    if (attempt > 0) {
      await page.goto(`${base}/`);
      await hydrated(page);
    }
    key = await startOnDevice(page);
    // Your turn, no clock: the bot gives none.
    await waitForText(page, 'turn', /Your turn/);
    assert.equal(await page.locator('[data-testid="scoreboard"] .clock').count(), 0, 'no clock against a bot');
    word = await tapAWord(page);
  }
  await page.tap('[data-testid="play"]');
  await page.waitForFunction((total) => document.querySelector('[data-testid="score-0"]')?.textContent === String(total), word.total);
  // The bot answers from its worker, and the page says how long it thought.
  await waitForText(page, 'turn', /Your turn/);
  await waitForText(page, 'bot-thinking', /thought for \d+\.\d\d s/);
  assert.match(await page.textContent('[data-testid="last-play"]'), /bot/);
  const before = await shown(page);
  assert.ok(before.board.length >= word.word.length, JSON.stringify(before));

  // What a person sees: the board and the hand on the first screen, nothing wider than it.
  await page.screenshot({ path: path.join(artifacts, 'device-game-phone.png') });
  const fits = await page.evaluate((width) => {
    const box = (selector) => document.querySelector(selector)?.getBoundingClientRect();
    return {
      overflow: document.documentElement.scrollWidth - width,
      board: box('.board-frame'),
      rack: box('[data-testid="rack"]'),
      scoreboard: box('[data-testid="scoreboard"]'),
      height: window.innerHeight,
    };
  }, page.viewportSize().width);
  assert.ok(fits.overflow <= 0, `nothing wider than the phone (${fits.overflow}px)`);
  for (const what of ['board', 'rack', 'scoreboard']) {
    assert.ok(fits[what] && fits[what].top >= 0 && fits[what].bottom <= fits.height + 1, `${what} on the first screen: ${JSON.stringify(fits[what])}`);
  }

  // Closed, and opened again offline: the same game, board and hand.
  await page.close();
  const again = await context.newPage();
  await again.goto(`${base}/device/${key}`);
  await again.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  assert.deepEqual(await shown(again), before, 'the game comes back as it was');

  // Back online, the player resigns; the finished game goes to the account and its list.
  await context.setOffline(false);
  await again.tap('button:has-text("Resign")');
  await again.tap('.controls button.danger:has-text("Resign")');
  await again.waitForSelector('[data-testid="summary"]');
  await again.goto(`${base}/`);
  await hydrated(again);
  // Sent: the device's list keeps only what the account does not have yet.
  await again.waitForFunction((key) => !document.querySelector(`[data-device-game="${key}"]`)
    && document.querySelector('[data-testid="device-games"]'), key);
  await again.reload();
  await hydrated(again);
  const card = again.locator('[data-testid="my-games"] li', { hasText: 'beginner bot (550)' }).first();
  await card.waitFor();
  assert.match(await card.textContent(), /You lost/);
  await card.locator('a.card-link').click();
  await again.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await hydrated(again);
  await again.waitForSelector('[data-testid="summary"]');
  assert.match(await again.textContent('[data-testid="summary"]'), /resigned/);
  await again.click('[data-testid="summary"] button:has-text("Explore board")');
  await again.click('[data-testid="last-play"]');
  await again.waitForSelector('[data-testid="history"]');
  await again.click('button[aria-label="Earlier turn"]');
  await again.click('button[aria-label="Earlier turn"]');
  assert.match(await again.textContent('[data-testid="history"]'), new RegExp(`played ${word.word} for ${word.total}`));
  await context.close();
});

test('a bot game going on reaches the account and goes on on the laptop', async () => {
  const base = suite.server.url;
  const phone = await openPage(suite.browser, PHONE);
  const name = uniqueName('ines');
  await phone.page.goto(`${base}/signup`);
  await signUp(phone.page, name);
  await controlled(phone.page);
  let key = null;
  let word = null;
  for (let attempt = 0; !word; attempt++) {
    assert.ok(attempt < 6, 'six racks without a two-letter word');
    await phone.page.goto(`${base}/`);
    await hydrated(phone.page);
    key = await startOnDevice(phone.page);
    await waitForText(phone.page, 'turn', /Your turn/);
    word = await tapAWord(phone.page);
  }
  // The head says where the game is played, and that no clock runs.
  assert.match(await phone.page.textContent('.game-title.on-top'), /On this device, no clock/);
  assert.doesNotMatch(await phone.page.textContent('.game-title.on-top'), /Casual/);
  await phone.page.tap('[data-testid="play"]');
  await waitForText(phone.page, 'bot-thinking', /thought for/);
  await waitForText(phone.page, 'turn', /Your turn/);
  const onPhone = await shown(phone.page);

  // On the laptop, signed in as the same player: the game is listed as going on elsewhere, on
  // the first screen, and opens here as it stands on the phone.
  const laptop = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  await laptop.page.goto(`${base}/signin`);
  await hydrated(laptop.page);
  await laptop.page.fill('input[name="name"]', name);
  await laptop.page.fill('input[name="password"]', PASSWORD);
  await laptop.page.click('button[type="submit"]');
  await laptop.page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
  await laptop.page.goto(`${base}/`);
  await hydrated(laptop.page);
  const row = laptop.page.locator(`[data-device-game="${key}"][data-elsewhere]`);
  await row.waitFor();
  assert.match(await row.textContent(), new RegExp(`${name} ${word.total} · beginner bot \\(550\\) \\d+.*Going on on another device`, 's'));
  const box = await row.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 768 && box.x + box.width <= 1366, `on the laptop's first screen: ${JSON.stringify(box)}`);
  await laptop.page.screenshot({ path: path.join(artifacts, 'device-elsewhere-laptop.png') });
  await row.locator('a.card-link').click();
  await laptop.page.waitForURL(`${base}/device/${key}`);
  await laptop.page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  assert.deepEqual(await shown(laptop.page), onPhone, 'the same board, hand and scores');
  // The device game page starts a bundle of its own; the start page, the app's, without it.
  const module = () => laptop.page.evaluate(() => new URL(document.querySelector('link[rel="preload"][as="fetch"]').href).pathname);
  assert.equal(await module(), '/pkg/device_bg.wasm');
  await laptop.page.screenshot({ path: path.join(artifacts, 'device-game-laptop.png') });
  // Kept on the laptop now: listed there as this device's.
  await laptop.page.goto(`${base}/`);
  await hydrated(laptop.page);
  await laptop.page.waitForSelector(`[data-device-game="${key}"]:not([data-elsewhere])`);
  assert.equal(await module(), '/pkg/alfakraft_bg.wasm');
  assert.deepEqual(phone.errors, []);
  assert.deepEqual(laptop.errors, []);
  await phone.context.close();
  await laptop.context.close();
});

test('pass-and-play on the device is discarded in one confirmed tap', async () => {
  const base = suite.server.url;
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${base}/`);
  await openNewGame(page);
  await page.check('input[name="opponent"][value="local"]');
  await page.fill('input[name="local-name-0"]', 'Mia');
  await page.fill('input[name="local-name-1"]', 'Leo');
  await page.tap('button:has-text("Start")');
  await page.waitForURL(/\/device\/[0-9a-f]{32}$/);
  const key = new URL(page.url()).pathname.split('/').pop();
  await page.waitForSelector('[data-testid="scoreboard"] .player .name');
  const names = await page.$$eval('[data-testid="scoreboard"] .player .name', (n) => n.map((e) => e.textContent.trim()));
  assert.match(names[0], /^Mia/);
  assert.match(names[1], /^Leo/);

  // Kept: listed on the start page, and opened from there.
  await page.goto(`${base}/`);
  await hydrated(page);
  await page.waitForSelector(`[data-device-game="${key}"]`);
  await page.setViewportSize({ width: 1366, height: 768 });
  const row = await page.locator(`[data-device-game="${key}"]`).boundingBox();
  assert.ok(row.y + row.height <= 768 && row.x >= 0 && row.x + row.width <= 1366, `listed on the laptop's first screen: ${JSON.stringify(row)}`);
  assert.match(await page.textContent(`[data-device-game="${key}"]`), /Mia 0 · Leo 0.*Your turn/s);
  await page.screenshot({ path: path.join(artifacts, 'device-home-laptop.png') });
  await page.setViewportSize(PHONE.viewport);
  await page.tap(`[data-device-game="${key}"] a.card-link`);
  await page.waitForURL(`${base}/device/${key}`);
  await page.waitForSelector('[data-testid="discard"]');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: path.join(artifacts, 'device-local-laptop.png') });
  await page.setViewportSize(PHONE.viewport);

  // Discarded: asked once, then gone from the device.
  await page.tap('[data-testid="discard"]');
  assert.match(await page.textContent('.discard [role="alert"]'), /won't be saved/);
  await page.screenshot({ path: path.join(artifacts, 'device-discard-phone.png') });
  await page.tap('[data-testid="discard-confirm"]');
  await page.waitForURL(`${base}/`);
  await hydrated(page);
  assert.equal(await page.locator(`[data-device-game="${key}"]`).count(), 0);
  await page.goto(`${base}/device/${key}`);
  await page.waitForSelector('text=This game is not on this device');
  assert.deepEqual(errors, []);
  await context.close();
});
