// A tournament as players meet it: a player makes a private Blitz Swiss on a phone and shares its
// link; a friend enters on a laptop; both wait on the page, round 1 begins for both at once
// (their pages change in place, each showing the same game first), a game's end moves the
// standings live and the break before round 2 counts down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { artifacts } from './support/browser.mjs';
import { LAPTOP, PHONE, hydrated, newPlayer as appNewPlayer, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();

/** A new player signed up in a browser context of their own. */
const newPlayer = (name, options) => appNewPlayer(suite.browser, suite.server.url, name, options);

/** Nothing is wider than the window, and `locator` lies whole within the first screen. */
async function onFirstScreen(page, locator, what) {
  assert.ok(await page.evaluate((width) => document.documentElement.scrollWidth <= width, page.viewportSize().width), `${what}: nothing wider than the screen`);
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box && box.x >= 0 && box.x + box.width <= width + 1, `${what} fits across: ${JSON.stringify(box)}`);
  assert.ok(box.y >= 0 && box.y + box.height <= height, `${what} is on the first screen: ${JSON.stringify(box)}`);
}

test('a private Swiss: both players see round 1 begin at once, and a game\'s end live', async () => {
  const annName = uniqueName('ann');
  const ann = await newPlayer(annName, PHONE);
  await ann.page.goto(`${suite.server.url}/`);
  await hydrated(ann.page);
  await ann.page.goto(`${suite.server.url}/tournaments`);
  const form = ann.page.locator('[data-testid="create-tournament"]');
  assert.match(await form.textContent(), /A tournament you make is private/);
  await onFirstScreen(ann.page, ann.page.locator('main h1'), 'the title on a phone');
  await ann.page.screenshot({ path: path.join(artifacts, 'tournaments-list-390.png'), fullPage: true });
  await form.locator('input[name="name"]').fill('Friday Blitz');
  await form.locator('select[name="ruleset"]').selectOption('classic');
  await form.locator('select[name="dictionary"]').selectOption('en');
  await form.locator('select[name="format"]').selectOption('blitz');
  await form.locator('select[name="pairing"]').selectOption('swiss');
  await form.locator('input[name="rounds"]').fill('2');
  await form.locator('input[name="minutes"]').fill('10');
  await ann.page.click('[data-testid="create-tournament-button"]');
  await ann.page.waitForURL(/\/tournaments\/[0-9a-f]{32}$/);
  const link = ann.page.url();
  assert.match(await ann.page.textContent('[data-testid="tournament-kind"]'), /Classic · .+ · Blitz · Swiss, 2 rounds/);
  // Within half an hour of the start, entering checks in.
  await ann.page.click('[data-testid="enter"]');
  await ann.page.waitForSelector('[data-testid="my-entry"]:has-text("You are checked in.")');

  const bobName = uniqueName('bob');
  const bob = await newPlayer(bobName, LAPTOP);
  await bob.page.goto(link);
  assert.match(await bob.page.textContent('[data-testid="tournament-status"]'), /Starts .+ · Check-in is open until the start\. · Players: 1/);
  await bob.page.click('[data-testid="enter"]');
  await bob.page.waitForSelector('[data-testid="my-entry"]:has-text("You are checked in.")');
  // Ann's page counts Bob in without a reload.
  await ann.page.evaluate(() => { window.notReloaded = true; });
  await bob.page.evaluate(() => { window.notReloaded = true; });
  await ann.page.waitForFunction((name) => document.querySelector(`[data-testid="standing-${name}"] [data-testid="check"]`)?.textContent === 'checked in', bobName);
  const countdown = await ann.page.textContent('[data-testid="countdown"]');
  assert.match(countdown, /Round 1 begins in\s+(9|10):\d\d/);
  await onFirstScreen(ann.page, ann.page.locator('[data-testid="countdown"]'), 'the countdown on a phone');
  await ann.page.screenshot({ path: path.join(artifacts, 'tournament-entry-390.png'), fullPage: true });
  await bob.page.screenshot({ path: path.join(artifacts, 'tournament-entry-1366.png') });

  // The start comes; the tournaments' task begins round 1, and both pages show it in place.
  suite.server.sql("UPDATE tournaments SET starts_at = ? WHERE status = 'entry'", Date.now() - 1);
  const games = await Promise.all([ann, bob].map(async (player) => {
    const play = player.page.locator('[data-testid="play-round"]');
    await play.waitFor({ timeout: 20000 });
    return play.getAttribute('href');
  }));
  assert.equal(games[0], games[1], 'one game for both');
  for (const player of [ann, bob]) {
    assert.ok(await player.page.evaluate(() => window.notReloaded), 'the round came to the open page');
    assert.match(await player.page.textContent('[data-testid="tournament-status"]'), /Round 1 of 2 · Players: 2/);
  }
  assert.match(await ann.page.textContent('[data-testid="play-round"]'), new RegExp(`Play against ${bobName}`));
  assert.match(await bob.page.textContent('[data-testid="play-round"]'), new RegExp(`Play against ${annName}`));
  await onFirstScreen(ann.page, ann.page.locator('[data-testid="my-round"]'), 'the round\'s game on a phone');
  await onFirstScreen(bob.page, bob.page.locator('[data-testid="my-round"]'), 'the round\'s game on a laptop');
  await ann.page.screenshot({ path: path.join(artifacts, 'tournament-round-390.png'), fullPage: true });
  await bob.page.screenshot({ path: path.join(artifacts, 'tournament-round-1366.png') });

  // Ann resigns: Bob's page, left open, counts the game and then the break before round 2.
  await ann.page.click('[data-testid="play-round"]');
  await hydrated(ann.page);
  await ann.page.click('button:has-text("Resign")');
  await ann.page.click('.controls button.danger:has-text("Resign")');
  await ann.page.waitForSelector('[data-testid="turn"]:has-text("The game is over.")');
  await bob.page.waitForFunction((name) => document.querySelector(`[data-testid="standing-${name}"] [data-testid="record"]`)?.textContent === '1–0–0', bobName);
  assert.equal(await bob.page.locator('[data-testid="tournament-standings"] tbody tr').first().getAttribute('data-testid'), `standing-${bobName}`);
  await bob.page.waitForSelector('[data-testid="countdown"]:has-text("Round 2 begins in")', { timeout: 20000 });
  assert.ok(await bob.page.evaluate(() => window.notReloaded), 'the standings changed in place');
  await bob.page.screenshot({ path: path.join(artifacts, 'tournament-break-1366.png') });
  await ann.page.goto(link);
  assert.match(await ann.page.textContent('section.round[data-round="1"]'), new RegExp(`${annName} 0 – 0 ${bobName}|${annName}.*–.*${bobName}`));
  await ann.page.screenshot({ path: path.join(artifacts, 'tournament-break-390.png'), fullPage: true });
  // The list shows a private tournament to those in it, under way first.
  await bob.page.goto(`${suite.server.url}/tournaments`);
  const card = bob.page.locator('section.tournament', { hasText: 'Friday Blitz' });
  assert.match(await card.textContent(), /Round 1 of 2 · Players: 2/);
  await onFirstScreen(bob.page, card, 'the tournament on the list');
  await bob.page.screenshot({ path: path.join(artifacts, 'tournaments-list-1366.png') });
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const player of [ann, bob]) await player.context.close();
});
