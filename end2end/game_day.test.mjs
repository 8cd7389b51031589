// The game page as a returning player uses it, and as the rules word it: Next game after a move
// and at the end card; the history closing when a new turn comes, each word's points and each
// bonus in it; a staged tile's faded place in the hand, which takes it back; the pass warning
// at two; the chat saying it is off, its report form inside the card on a phone, an unread
// count arriving on the open games list; a refusal shown on screen; a nudge after a day of
// waiting, and a vacation pausing a clock, as both players see them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import {
  PASSWORD, hydrated, inviteGame, joinByInvite, openNewGame, signUp, startBotGame, startLocalGame, uniqueName,
} from './support/app.mjs';
import { pass } from './support/play.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };

function myTurn(page) {
  return page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
    null, { timeout: 30_000 });
}

const turns = (page) => page.evaluate(() => document.querySelectorAll('[data-testid="move-list"] li').length);

/** Passes, then waits for the bot's answer. */
async function passAndWait(page) {
  const before = await turns(page);
  await pass(page);
  await page.waitForFunction((before) => document.querySelectorAll('[data-testid="move-list"] li').length >= before + 2
    && /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''), before, { timeout: 30_000 });
}

/** A box wholly inside the window. */
async function onScreen(page, locator, what) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box && box.x >= 0 && box.y >= 0 && box.x + box.width <= width + 1 && box.y + box.height <= height + 1,
    `${what} is on screen: ${JSON.stringify(box)}`);
}

/** Days left on game `id`'s clock, as the server's SQLite file has it. */
function daysLeft(id) {
  const read = spawnSync('python3', ['-c', `import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
(deadline,) = db.execute("SELECT deadline_at FROM games WHERE id = ?", (sys.argv[2],)).fetchone()
print((deadline - time.time() * 1000) / 86400000)`, path.join(suite.server.dataDir, 'alfakraft.db'), id], { encoding: 'utf8' });
  assert.equal(read.status, 0, read.stderr);
  return Number(read.stdout);
}

/** Nothing on the page is wider than its window. */
async function noWiderThanTheScreen(page, what) {
  assert.ok(await page.evaluate((width) => document.documentElement.scrollWidth <= width, page.viewportSize().width), `${what}: nothing wider than the screen`);
}

test('Next game: after a move and at the end card, one tap to the game waiting on the player', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('nia'));
  await startBotGame(page, suite.server.url);
  const first = new URL(page.url()).pathname;
  await hydrated(page);
  await myTurn(page);
  await startBotGame(page, suite.server.url);
  const second = new URL(page.url()).pathname;
  await hydrated(page);
  await myTurn(page);
  // Her turn in both: nothing to go on to.
  assert.equal(await page.locator('[data-testid="next-game"]').count(), 0, 'no Next game while it is her turn');
  // She passes here: the first game waits on her, one tap away and on the first screen.
  await pass(page);
  const next = page.locator('[data-testid="next-game"]').first();
  await next.waitFor({ state: 'visible' });
  assert.equal(await next.getAttribute('href'), first);
  await onScreen(page, next, 'Next game');
  await page.screenshot({ path: path.join(artifacts, 'next-game-390.png') });
  await next.tap();
  await page.waitForURL((url) => url.pathname === first);
  await hydrated(page);
  await myTurn(page);
  // At the end card: the second game, once the bot has answered there, from the card.
  const [firstId, secondId] = [first, second].map((p) => p.split('/').pop());
  const nextOf = (current) => page.evaluate(async (current) => {
    const response = await fetch('/api/games/next', {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ current }),
    });
    return response.json();
  }, current);
  for (let tries = 0; (await nextOf(firstId)) !== secondId; tries++) {
    assert.ok(tries < 120, 'the bot answers in the second game');
    await new Promise((wait) => setTimeout(wait, 250));
  }
  await page.click('button:has-text("Resign")');
  await page.click('.controls button.danger:has-text("Resign")');
  const fromCard = page.locator('[data-testid="summary"] [data-testid="next-game"]');
  await fromCard.waitFor({ state: 'visible' });
  assert.equal(await fromCard.getAttribute('href'), second);
  await fromCard.tap();
  await page.waitForURL((url) => url.pathname === second);
  await hydrated(page);
  await myTurn(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the history: each word\'s points and bonuses; it closes when a new turn comes', async () => {
  const { context, page, errors } = await openPage(suite.browser, LAPTOP);
  await startBotGame(page, suite.server.url);
  await hydrated(page);
  await myTurn(page);
  // A turn the bot played (it scored: "+N" in the list): its words with their points.
  let botTurn = 0;
  for (let tries = 0; botTurn === 0; tries++) {
    assert.ok(tries < 6, 'the bot plays a word');
    await passAndWait(page);
    botTurn = await page.evaluate(() => [...document.querySelectorAll('[data-testid="move-list"] li')]
      .findIndex((li) => /^\+\d+$/.test(li.querySelector('.points')?.textContent ?? '')) + 1);
  }
  {
    await page.click(`[data-testid="move-${botTurn}"]`);
    await page.waitForSelector('[data-testid="history"]');
    const words = await page.$$eval('[data-testid="history-words"] li:not(.bonus)', (li) => li.map((l) => ({
      word: l.querySelector('strong').textContent, points: l.querySelector('.points').textContent,
      report: l.querySelector('[data-testid="report-word"]')?.textContent,
    })));
    assert.ok(words.length > 0, 'the play\'s words');
    for (const w of words) {
      assert.match(w.word, /^\p{Lu}+$/u);
      assert.match(w.points, /^\d+ points?$/, `${w.word}'s points`);
      assert.equal(w.report, 'Report as not a word', 'the report link says what it does');
    }
    // Each word is on its own row, its points beside it.
    const rows = await page.$$eval('[data-testid="history-words"] li', (li) => li.map((l) => {
      const [a, b] = [l.querySelector('strong, span'), l.querySelector('.points')].map((e) => e.getBoundingClientRect());
      return Math.abs(a.y - b.y) < 6;
    }));
    assert.ok(rows.every(Boolean), 'each word and its points on one line');
    await page.screenshot({ path: path.join(artifacts, 'history-words-1366.png') });
  }
  // Open on an earlier turn, the history closes when the next turn is revealed.
  await page.click('[data-testid="move-1"]');
  await page.waitForSelector('[data-testid="history"]');
  await pass(page);
  await page.waitForSelector('[data-testid="history"]', { state: 'detached', timeout: 30_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a staged tile leaves a faded place in the hand; a tap on it takes the tile back', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await startBotGame(page, suite.server.url);
  await hydrated(page);
  await myTurn(page);
  const slots = () => page.$$eval('[data-testid="rack"] > *', (all) => all.map((e) => ({
    slot: e.dataset.slot ?? null, staged: e.dataset.stagedSlot ?? null, x: Math.round(e.getBoundingClientRect().x),
  })));
  // Measured once the hand is laid out as a row: on a loaded machine the first read came while
  // the page was still being parsed, with every place at x = 0.
  await page.waitForFunction(() => {
    const xs = [...document.querySelectorAll('[data-testid="rack"] > *')].map((e) => e.getBoundingClientRect().x);
    return xs.length === 7 && xs.every((x, i) => i === 0 || x > xs[i - 1]);
  });
  const before = await slots();
  assert.equal(before.length, 7);
  const tile = before[2];
  await page.tap(`[data-slot="${tile.slot}"]`);
  await page.tap('[data-cell="7,7"]');
  await page.waitForSelector('[data-cell="7,7"] .tile.new');
  const after = await slots();
  assert.equal(after.length, 7, 'the hand keeps seven places');
  assert.equal(after[2].staged, tile.slot, 'the third place is the staged tile\'s, faded');
  assert.equal(after[2].x, tile.x, 'in the same place');
  assert.equal(await page.locator('[data-testid="rack"] .hand-tile').count(), 6);
  await page.screenshot({ path: path.join(artifacts, 'hand-faded-slot-390.png') });
  await page.tap(`[data-staged-slot="${tile.slot}"]`);
  await page.waitForSelector('[data-cell="7,7"] .tile.new', { state: 'detached' });
  assert.deepEqual((await slots()).map((s) => s.slot), before.map((s) => s.slot), 'the tile is back in its place');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the pass warning at two says the opponent can end the game', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await startLocalGame(page, suite.server.url);
  const handOver = async () => {
    await page.click('[data-testid="handover"] button');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  };
  await handOver();
  await page.click('.controls button:has-text("Pass")');
  assert.match(await page.textContent('.controls'), /3 more passes in a row end the game/);
  await page.click('[data-testid="confirm-pass"]');
  await handOver();
  await page.click('.controls button:has-text("Pass")');
  assert.match(await page.textContent('.controls'), /Your opponent can then end the game by passing on their turn/);
  await page.screenshot({ path: path.join(artifacts, 'pass-warning-390.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('chat between two: unread counts arrive live, the report form fits a phone, chat off is said', async () => {
  const annName = uniqueName('ann');
  const { player: ann, link } = await inviteGame(suite.browser, suite.server.url, annName, PHONE);
  const bob = await joinByInvite(suite.browser, link, uniqueName('bob'), LAPTOP);
  const game = new URL(bob.page.url()).pathname;
  // Ann waits on her games list; Bob writes.
  await ann.page.goto(suite.server.url);
  await hydrated(ann.page);
  await ann.page.waitForSelector('[data-testid="my-games"]');
  await bob.page.waitForSelector('[data-testid="chat"]');
  await bob.page.click('[data-testid="chat"] .quick-replies button:has-text("Good game!")');
  const card = ann.page.locator(`[data-game="${game.split('/').pop()}"]`);
  await card.locator('[data-testid="unread"]').waitFor({ timeout: 10_000 });
  assert.equal(await card.locator('[data-testid="unread"]').textContent(), '1 new message');

  // On her phone she reports it: the form stays inside the chat card, its button on one line,
  // and the confirmation reads as a success.
  await ann.page.goto(`${suite.server.url}${game}`);
  await hydrated(ann.page);
  const line = ann.page.locator('[data-testid="chat"] .chat-line', { hasText: 'Good game!' });
  const text = await line.locator('.chat-text').boundingBox();
  const open = await line.locator('.chat-report-open').boundingBox();
  assert.ok(open.x >= text.x + text.width + 4 || open.y > text.y, 'Report stands apart from the message');
  await line.locator('.chat-report-open').tap();
  const chat = await ann.page.locator('[data-testid="chat"]').boundingBox();
  const form = await line.locator('form.chat-report').boundingBox();
  const send = await line.locator('form.chat-report button').boundingBox();
  assert.ok(form.x >= chat.x && form.x + form.width <= chat.x + chat.width + 1, `the form fits the card: ${JSON.stringify({ chat, form })}`);
  assert.ok(send.height < 48, `the send button is one line (${send.height} px)`);
  await ann.page.screenshot({ path: path.join(artifacts, 'chat-report-390.png') });
  await line.locator('input[name="reason"]').fill('just checking');
  await line.locator('form.chat-report button').tap();
  const said = ann.page.locator('[data-testid="chat-said"]');
  await said.waitFor();
  assert.equal(await said.getAttribute('class'), 'ok', 'a success looks like one');

  // Bob turns chat off: Ann's chat says so in its place.
  await bob.page.goto(`${suite.server.url}/settings`);
  await bob.page.click('[data-testid="chat-setting"]');
  await bob.page.waitForURL(/done=/);
  await ann.page.reload();
  await hydrated(ann.page);
  await ann.page.waitForSelector('[data-testid="chat-off"]');
  assert.match(await ann.page.textContent('[data-testid="chat-off"]'), /the other player turned chat off/);
  await bob.page.goto(`${suite.server.url}${game}`);
  await hydrated(bob.page);
  assert.match(await bob.page.textContent('[data-testid="chat-off"]'), /you turned it off in your settings/);
  await ann.page.screenshot({ path: path.join(artifacts, 'chat-off-390.png') });
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});

test('a refusal shows where the player is looking; a wrong current password says so; names in small letters', async () => {
  const { context, page, errors } = await openPage(suite.browser, { ...PHONE, viewport: { width: 390, height: 640 } });
  await page.goto(`${suite.server.url}/signup`);
  await hydrated(page);
  const name = uniqueName('Ria');
  await page.fill('input[name="name"]', name);
  assert.equal(await page.textContent('[data-testid="name-lowered"]'), `You will appear as “${name.toLowerCase()}”: names are kept in small letters.`);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForSelector('[data-testid="welcome-skip"]');
  await page.click('[data-testid="welcome-skip"]');
  await page.waitForURL((url) => url.pathname !== '/welcome');
  // A challenge to nobody: the refusal comes under Start, scrolled into view.
  await page.goto(`${suite.server.url}/?friend=nobody_${Date.now() % 100000}`);
  await hydrated(page);
  await page.locator('.new-game button[type="submit"]').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.click('.new-game button[type="submit"]');
  const refusal = page.locator('.new-game [role="alert"]');
  await refusal.waitFor();
  await page.waitForFunction(() => {
    const r = document.querySelector('.new-game [role="alert"]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  await onScreen(page, refusal, 'the refusal');
  await page.screenshot({ path: path.join(artifacts, 'refusal-in-view-390.png') });
  // Settings: a wrong current password is called that, not a wrong name.
  await page.goto(`${suite.server.url}/settings`);
  await page.fill('input[name="current"]', 'not my password');
  await page.fill('input[name="new"]', 'another good password');
  await page.locator('input[name="new"]').press('Enter');
  await page.waitForURL(/refused=/);
  assert.match(await page.textContent('main'), /That is not your current password\./);
  assert.doesNotMatch(await page.textContent('main'), /Wrong name or password/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the squares\' labels stay legible on a 17-column board at 360 px', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  await page.goto(suite.server.url);
  await openNewGame(page);
  await page.selectOption('select[name="ruleset"]', 'alfapet');
  await page.check('input[name="opponent"][value="bot"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.click('.new-game button[type="submit"]');
  await page.waitForURL(/\/game\//);
  await hydrated(page);
  await page.waitForFunction(() => document.querySelectorAll('.board .cell').length === 17 * 17);
  const labels = await page.$$eval('.board .cell:not(.filled)', (cells) => cells
    .filter((c) => c.textContent.trim() && c.textContent.trim() !== '★')
    .map((c) => ({ text: c.textContent.trim(), size: parseFloat(getComputedStyle(c).fontSize), fits: c.scrollWidth <= c.clientWidth + 1, width: c.clientWidth })));
  assert.ok(labels.length > 0, 'the board has labelled squares');
  for (const label of labels) {
    assert.ok(label.size >= 8.5, `${label.text} is ${label.size} px`);
    assert.ok(label.fits, `${label.text} fits its ${label.width}-px square`);
  }
  await page.screenshot({ path: path.join(artifacts, 'alfapet-board-360.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Blitz match\'s Ready lobby fits a phone: its rule wraps instead of running off', async () => {
  const ann = await openPage(suite.browser, PHONE);
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  await ann.page.goto(suite.server.url);
  await openNewGame(ann.page);
  await ann.page.check('input[name="opponent"][value="invite"]');
  await ann.page.selectOption('select[name="format"]', 'blitz');
  await ann.page.click('.new-game button[type="submit"]');
  const link = new URL(await ann.page.inputValue('[data-testid="invite-link"]'));
  const bob = await joinByInvite(suite.browser, `${suite.server.url}${link.pathname}`, uniqueName('bob'), LAPTOP);
  await ann.page.goto(`${suite.server.url}${new URL(bob.page.url()).pathname}`);
  await hydrated(ann.page);
  await ann.page.waitForSelector('[data-testid="ready-lobby"]');
  const turn = await ann.page.locator('[data-testid="turn"]').boundingBox();
  assert.match(await ann.page.textContent('[data-testid="turn"]'), /Blitz: the match starts/);
  assert.ok(turn.x >= 0 && turn.x + turn.width <= 390, `the rule is on screen: ${JSON.stringify(turn)}`);
  assert.ok(await ann.page.evaluate((width) => document.documentElement.scrollWidth <= width, ann.page.viewportSize().width), 'nothing wider than the screen');
  await ann.page.screenshot({ path: path.join(artifacts, 'blitz-ready-390.png') });
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});

test('inside a Casual move\'s last day the clock ticks as 05:12:44, on the game page and its card', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('cai'));
  await startBotGame(page, suite.server.url);
  const id = new URL(page.url()).pathname.split('/').pop();
  await hydrated(page);
  await myTurn(page);
  // Five hours, twelve minutes and 45 seconds left, as if the move had waited six days and more.
  const left = (5 * 3600 + 12 * 60 + 45) * 1000;
  suite.server.sql('UPDATE games SET deadline_at = ? WHERE id = ?', Date.now() + left, id);
  for (const where of [`/game/${id}`, '/']) {
    await page.goto(`${suite.server.url}${where}`);
    await hydrated(page);
    const clock = where === '/' ? page.locator(`[data-game="${id}"] [data-testid="clock"]`) : page.locator('[data-testid="clock"]').first();
    await clock.waitFor();
    const first = await clock.textContent();
    assert.match(first, /^05:12:[34]\d$/, `${where}: the clock reads ${first}`);
    await page.waitForFunction(([selector, before]) => document.querySelector(selector)?.textContent !== before,
      [where === '/' ? `[data-game="${id}"] [data-testid="clock"]` : '[data-testid="clock"]', first]);
    assert.match(await clock.textContent(), /^05:12:[34]\d$/, `${where}: it ticks`);
  }
  await page.screenshot({ path: path.join(artifacts, 'casual-clock-list-390.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a player kept waiting a day nudges; a vacation pauses the other\'s clock, shown to both', async () => {
  const { player: ann, link } = await inviteGame(suite.browser, suite.server.url, uniqueName('ann'), PHONE);
  const bob = await joinByInvite(suite.browser, link, uniqueName('bob'), PHONE);
  const id = new URL(bob.page.url()).pathname.split('/').pop();
  await ann.page.goto(`${suite.server.url}/game/${id}`);
  await hydrated(ann.page);
  // Classic draws who starts: the mover is whoever reads "Your turn".
  await bob.page.waitForSelector('[data-testid="turn"]');
  const bobMoves = /Your turn/.test(await bob.page.textContent('[data-testid="turn"]'));
  const [mover, waiter] = bobMoves ? [bob, ann] : [ann, bob];

  // Within the first day there is no button yet, only when it comes.
  await waiter.page.reload();
  await hydrated(waiter.page);
  await waiter.page.waitForSelector('[data-testid="nudge-from"]');
  assert.equal(await waiter.page.locator('[data-testid="nudge"]').count(), 0);
  assert.equal(await mover.page.locator('[data-testid="nudge"], [data-testid="nudge-from"]').count(), 0, 'the mover has none');
  // A day and an hour later the waiter nudges, from the first screen of a phone.
  suite.server.sql('UPDATE games SET updated_at = updated_at - ? WHERE id = ?', 25 * 3600 * 1000, id);
  await waiter.page.reload();
  await hydrated(waiter.page);
  const nudge = waiter.page.locator('[data-testid="nudge"]');
  await onScreen(waiter.page, nudge, 'the Nudge button');
  await waiter.page.screenshot({ path: path.join(artifacts, 'nudge-390.png') });
  await nudge.click();
  // Once: the button gives way to when the next one may go.
  await waiter.page.waitForSelector('[data-testid="nudged"], [data-testid="nudge-from"]');
  await waiter.page.reload();
  await hydrated(waiter.page);
  assert.match(await waiter.page.textContent('[data-testid="nudge-from"]'), /You can nudge from \S.*\d:\d\d.*\./);
  assert.equal(await waiter.page.locator('[data-testid="nudge"]').count(), 0);

  // The mover takes three days off in settings.
  await mover.page.goto(`${suite.server.url}/settings`);
  const days = mover.page.locator('[data-testid="vacation-days"]');
  assert.equal(await days.inputValue(), '7');
  assert.match(await mover.page.textContent('[data-testid="vacation-left"]'), /Days left: 14 \(of 14 in any 365 days\)/);
  await mover.page.locator('[data-testid="vacation"]').scrollIntoViewIfNeeded();
  await mover.page.screenshot({ path: path.join(artifacts, 'vacation-form-390.png') });
  await days.fill('3');
  await mover.page.click('[data-testid="vacation-start"]');
  await mover.page.waitForSelector('[data-testid="vacation-until"]');
  assert.match(await mover.page.textContent('[data-testid="vacation-left"]'), /Days left: 11 /);
  const card = mover.page.locator('[data-testid="vacation"]');
  await card.scrollIntoViewIfNeeded();
  await mover.page.screenshot({ path: path.join(artifacts, 'vacation-settings-390.png') });
  const box = await card.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the vacation card fits the phone: ${JSON.stringify(box)}`);
  await noWiderThanTheScreen(mover.page, 'settings');

  // The waiter's open page hears of it: the clock is paused, and there is no one to nudge.
  const paused = waiter.page.locator('[data-testid="vacation"]');
  await paused.waitFor({ timeout: 15_000 });
  const name = bobMoves ? /bob/ : /ann/;
  assert.match(await paused.textContent(), name);
  assert.match(await paused.textContent(), /is on vacation until \S.*\d:\d\d.*: their clock is paused\./);
  assert.equal(await waiter.page.locator('[data-testid="nudge"], [data-testid="nudge-from"]').count(), 0);
  // Ten days left on the clock: the week of the turn and the three days off.
  assert.ok(Math.abs(daysLeft(id) - 10) < 0.01, `${daysLeft(id)} days left`);
  await onScreen(waiter.page, paused, 'the vacation line');
  await noWiderThanTheScreen(waiter.page, 'the game page');
  await waiter.page.screenshot({ path: path.join(artifacts, 'vacation-game-390.png') });
  await waiter.page.setViewportSize(LAPTOP.viewport);
  await onScreen(waiter.page, paused, 'the vacation line on a laptop');
  await waiter.page.screenshot({ path: path.join(artifacts, 'vacation-game-1366.png') });
  await mover.page.setViewportSize(LAPTOP.viewport);
  await mover.page.screenshot({ path: path.join(artifacts, 'vacation-settings-1366.png') });

  // Back early: the clock runs again from where it stopped.
  await mover.page.click('[data-testid="vacation-end"]');
  await mover.page.waitForSelector('[data-testid="vacation-start"]');
  assert.match(await mover.page.textContent('[data-testid="vacation-left"]'), /Days left: 13 /);
  await waiter.page.waitForFunction(() => !document.querySelector('[data-testid="vacation"]'), null, { timeout: 15_000 });
  assert.ok(Math.abs(daysLeft(id) - 7) < 0.01, `${daysLeft(id)} days left`);
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});
