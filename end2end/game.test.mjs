// Playing in the browser: a new player starts a bot game from the New Game form, finds a word by
// tapping tiles onto the board, places it by drag and drop, sees the preview score committed,
// sees the bot answer, browses the history and resigns; two players play a friend game through
// an invite link, one of them by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, joinByInvite, signUp, uniqueName, openNewGame, startLocalGame } from './support/app.mjs';
import { rack, verdict, nameBlank, tapAWord, typeAWord, waitForText, pass } from './support/play.mjs';

const suite = serverAndBrowser();

async function resign(page) {
  await page.click('button:has-text("Resign")');
  await page.click('.controls button.danger:has-text("Resign")');
  await page.waitForSelector('[data-testid="summary"]');
}

/** Types a word at the start cell by keyboard; leaves it staged. Null when the rack has none. */
async function startGame(page, opponent) {
  await page.goto(suite.server.url);
  await openNewGame(page);
  await page.check(`input[name="opponent"][value="${opponent}"]`);
  if (opponent === 'bot') await page.selectOption('select[name="bot"]', 'beginner');
  // A game on the server (the form's default for a bot is one on this device).
  if (opponent === 'bot' || opponent === 'local') await page.uncheck('input[name="device"]');
  await page.click('button:has-text("Start")');
}

test('a new player plays a bot: drag and drop, preview equals the committed score, history, resign', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('ann'));
  // A new game until the rack holds a two-letter word (almost always the first).
  let found = null;
  for (let attempt = 0; !found; attempt++) {
    assert.ok(attempt < 6, 'six racks without a two-letter word');
    await startGame(page, 'bot');
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    await hydrated(page);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
    assert.match(await page.textContent('[data-testid="turn"]'), /Your turn/);
    // Find a word by tapping, then take it back and place it again by drag and drop.
    found = await tapAWord(page);
    if (!found) await resign(page);
  }
  await page.click('button:has-text("Recall")');
  for (const [i, tile] of found.spelled.entries()) {
    await page.locator(`[data-slot="${tile.slot}"]`).dragTo(page.locator(`[data-cell="7,${7 + i}"]`));
    if (tile.blank) await nameBlank(page, tile.letter);
  }
  const previewed = await verdict(page);
  assert.equal(previewed, found.total, 'the same word previews the same score');
  assert.match(await page.textContent('[data-testid="preview"]'), new RegExp(found.word));
  await page.click('[data-testid="play"]');
  await page.waitForFunction(
    (total) => document.querySelector('[data-testid="score-0"]')?.textContent === String(total), previewed);

  // The bot answers without a reload.
  await waitForText(page, 'turn', /Your turn/);
  assert.match(await page.textContent('[data-testid="last-play"]'), /bot/);
  await page.screenshot({ path: path.join(artifacts, 'game-desktop.png') });

  // The hand's order, shuffled, survives a reload.
  await page.click('button:has-text("Shuffle")');
  const shuffled = (await rack(page)).map((t) => t.label).join('');
  await page.reload();
  await hydrated(page);
  await page.waitForFunction(
    (order) => [...document.querySelectorAll('[data-testid="rack"] .hand-tile')]
      .map((t) => t.getAttribute('aria-label')).join('') === order, shuffled);

  // The history: the board after the first turn holds just our two tiles.
  await page.click('[data-testid="last-play"]');
  await page.waitForSelector('[data-testid="history"]');
  assert.equal(await page.textContent('[data-testid="history-turn"]'), 'Turn 2 of 2');
  await page.click('button[aria-label="Earlier turn"]');
  assert.equal(await page.textContent('[data-testid="history-turn"]'), 'Turn 1 of 2');
  assert.equal(await page.locator('[data-testid="history"] .board .tile').count(), 2);
  assert.match(await page.textContent('[data-testid="history"]'), new RegExp(`played ${found.word} for ${previewed}`));
  await page.click('[data-testid="history"] button:has-text("Close")');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: path.join(artifacts, 'game-phone.png'), fullPage: true });
  const overflow = await page.evaluate((width) => document.documentElement.scrollWidth - width, page.viewportSize().width);
  assert.ok(overflow <= 0, `the game page fits a phone (overflow ${overflow}px)`);

  // Resigning ends the game with a summary for both players.
  await resign(page);
  const text = await page.textContent('[data-testid="summary"]');
  assert.match(text, /beginner bot \(550\) won/);
  assert.match(text, new RegExp(`Best word${found.word} \\(`));
  await page.screenshot({ path: path.join(artifacts, 'game-over-phone.png'), fullPage: true });

  // Play again: a fresh game against the same bot, now on this device.
  await page.click('[data-testid="play-again"]');
  await page.waitForURL(/\/device\/[0-9a-f]{32}$/);
  await waitForText(page, 'turn', /Your turn/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  assert.match(await page.textContent('[data-testid="scoreboard"]'), /beginner bot \(550\)/);
  assert.equal(await page.textContent('[data-testid="score-1"]'), '0');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bot game played to its end: the bot goes out (or the passes run out), the summary, Explore board', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 900 } });
  await startGame(page, 'bot');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await hydrated(page);
  // The player passes every turn; the bot plays until the bag is empty and it goes out.
  for (let turn = 0; ; turn++) {
    assert.ok(turn < 120, 'the game ends');
    await page.waitForFunction(() => /Your turn|over/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''));
    if (/over/.test(await page.textContent('[data-testid="turn"]'))) break;
    const version = await page.textContent('[data-testid="last-play"]').catch(() => '');
    await pass(page);
    await page.waitForFunction((before) => {
      const turn = document.querySelector('[data-testid="turn"]')?.textContent ?? '';
      return !/Your turn/.test(turn) || (document.querySelector('[data-testid="last-play"]')?.textContent ?? '') !== before;
    }, version);
  }
  const text = await page.textContent('[data-testid="summary"]');
  assert.match(text, /The game is over: (beginner bot \(550\) went out|the pass limit was reached)/);
  assert.doesNotMatch(text, /resigned/);

  // Regression: the scoreboard kept the scores of the plays while the card below showed the
  // final ones (coins added), and the shop stayed open. One final score, said how it is made.
  const finals = await page.$$eval('[data-testid="summary-table"] tr.score td', (s) => s.map((e) => e.textContent));
  for (const [seat, final] of finals.entries()) {
    assert.equal(await page.textContent(`[data-testid="score-${seat}"]`), final, `seat ${seat}'s score`);
  }
  // The player, who passed throughout, ends with no points from plays and ten coins.
  assert.match(await page.textContent('[data-testid="final-made-0"]'), /^0 from plays(, -\d+ for tiles left)?, \+10 from coins$/);
  for (const shut of ['shop', 'sell']) {
    assert.ok(await page.locator(`[data-testid="${shut}"]`).isDisabled(), `${shut} is shut`);
  }

  // Explore board: the card gives way to the finished board, which zooms; back to the result.
  await page.click('[data-testid="summary"] button:has-text("Explore board")');
  await page.waitForSelector('[data-testid="explore"]');
  assert.equal(await page.locator('[data-testid="summary"]').count(), 0);
  const before = await page.locator('.board-frame .board').boundingBox();
  await page.click('button[aria-label="Zoom in"]');
  const after = await page.locator('.board-frame .board').boundingBox();
  assert.ok(after.width > before.width * 1.5, `zoomed (${before.width} → ${after.width})`);
  await page.click('button:has-text("Back to the result")');
  await page.waitForSelector('[data-testid="summary"]');

  // Regression: Play again showed the bot's coin change of the game before ("10 coins (+14)").
  // A change shown in the new game is one the new game made.
  await page.click('[data-testid="play-again"]');
  await page.waitForURL(/\/device\/[0-9a-f]{32}$/);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  const coins = await page.textContent('[data-testid="coins-1"]');
  const [, held, change] = coins.match(/^(\d+) coins(?: \(([+-]\d+)\))?$/) ?? [];
  assert.ok(held, `the bot's coins read "${coins}"`);
  assert.equal(Number(held), 10 + Number(change ?? 0), `"${coins}": the change is this game's`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('pass-and-play hides each hand until its player taps, and names each seat', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 375, height: 812 } });
  await startLocalGame(page, suite.server.url);
  // Navigated in the app: the game arrives after the address changes.
  await page.waitForSelector('[data-testid="scoreboard"] .player .name');
  const names = await page.$$eval('[data-testid="scoreboard"] .player .name', (n) => n.map((e) => e.textContent.trim()));
  // Each seat by its own name (then its coins: the default ruleset is Alfa Kraft).
  assert.match(names[0], /^Mia(\d| |$)/);
  assert.match(names[1], /^Leo(\d| |$)/);
  await page.waitForSelector('[data-testid="handover"]');
  assert.match(await page.textContent('[data-testid="handover"]'), /Hand the device to (Mia|Leo)/);
  assert.equal(await page.locator('[data-testid="rack"]').count(), 0, 'the hand is hidden');
  assert.equal(await page.locator('[data-testid="power-bar"]').count(), 0, 'so is the power bar');
  await page.click('[data-testid="handover"] button');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  await page.waitForSelector('[data-testid="power-bar"]');
  const first = await rack(page);
  await pass(page);
  // The next player's hand and power bar stay hidden until they tap.
  await page.waitForSelector('[data-testid="handover"]');
  assert.equal(await page.locator('[data-testid="power-bar"]').count(), 0);
  await page.click('[data-testid="handover"] button');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  assert.notDeepEqual(await rack(page), first, 'another hand');
  assert.deepEqual(errors, []);
  await context.close();
});

test('two players play a friend game through an invite link, one by keyboard, then a rematch', async () => {
  const ann = await openPage(suite.browser);
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  await startGame(ann.page, 'invite');
  const link = await ann.page.inputValue('[data-testid="invite-link"]');

  const bob = await joinByInvite(suite.browser, link, uniqueName('bob'));
  const gameUrl = bob.page.url();
  await bob.page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);

  // Ann opens the game and waits; Bob, who joined, moves first, typing his word. (Should his
  // rack hold no two-letter word, he passes and Ann opens the board instead.)
  await ann.page.goto(gameUrl);
  await hydrated(ann.page);
  assert.match(await ann.page.textContent('[data-testid="turn"]'), /Waiting for bob/);
  let [mover, watcher, moverSeat] = [bob, ann, 1];
  let played = await typeAWord(bob.page);
  if (!played) {
    await pass(bob.page);
    await waitForText(ann.page, 'turn', /Your turn/);
    [mover, watcher, moverSeat] = [ann, bob, 0];
    played = await typeAWord(ann.page);
  }
  assert.ok(played, 'a word was typed');
  await mover.page.keyboard.press('Enter');
  await waitForText(mover.page, 'turn', /Waiting for/);

  // The other sees it without reloading, then passes; the mover sees the turn come back.
  await waitForText(watcher.page, 'turn', /Your turn/);
  assert.equal(await watcher.page.textContent(`[data-testid="score-${moverSeat}"]`), String(played.total));
  assert.match(await watcher.page.textContent('[data-testid="last-play"]'), new RegExp(`played ${played.word} for ${played.total}`));
  await pass(watcher.page);
  await waitForText(mover.page, 'turn', /Your turn/);
  assert.match(await mover.page.textContent('[data-testid="last-play"]'), /passed/);

  // The mover resigns; the other offers a rematch, which the mover sees and accepts.
  await mover.page.click('button:has-text("Resign")');
  await mover.page.click('.controls button.danger:has-text("Resign")');
  await watcher.page.waitForSelector('[data-testid="summary"]');
  await watcher.page.click('button:has-text("Offer a rematch")');
  await waitForText(watcher.page, 'rematch', /waiting for an answer/);
  // Bob moved first in this game, so Ann moves first in the rematch, and the offer says so.
  await waitForText(mover.page, 'rematch', mover === ann ? /offers a rematch\. You would move first/ : /offers a rematch\. ann_\w+ would move first/);
  // Accepting opens the new game at once (it asked for a second tap, "Go to the rematch").
  await mover.page.click('[data-testid="rematch"] button:has-text("Accept")');
  await mover.page.waitForURL((url) => url.href !== gameUrl && /\/game\//.test(url.pathname));
  // Bob moved first last time, so Ann moves first now.
  await waitForText(mover.page, 'turn', mover === ann ? /Your turn/ : /Waiting for ann/);

  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
