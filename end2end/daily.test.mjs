// The Daily Challenge in the browser: two new players each play today's English puzzle to the end
// with different moves, see their places, the Expert bot's total, the review and the share text,
// and the day's standings list them in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';
import { typeAWord, waitForText, pass } from './support/play.mjs';

const suite = serverAndBrowser();

/** Signs a new player up and opens today's English puzzle from the start page. */
async function startToday(name, viewport) {
  const player = await openPage(suite.browser, { viewport });
  // A phone's share sheet, recording what it is handed (most desktops have none).
  await player.context.addInitScript(() => {
    window.shared = [];
    navigator.share = async (data) => { window.shared.push(data); };
  });
  await player.page.goto(`${suite.server.url}/signup`);
  await signUp(player.page, name);
  await player.page.goto(suite.server.url);
  await hydrated(player.page);
  await waitForText(player.page, 'daily-en', /Not started/);
  await player.page.click('[data-testid="daily-start-en"]');
  await player.page.waitForURL(/\/game\//);
  await hydrated(player.page);
  await player.page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  return player;
}

/** Plays the ten turns: a word where `words` allows and one fits, else a pass. The points made. */
async function playOut(page, words) {
  let points = 0;
  for (let turn = 1; turn <= 10; turn += 1) {
    await waitForText(page, 'turn', /Your turn/);
    const played = words ? await typeAWord(page) : null;
    if (played) {
      await page.keyboard.press('Enter');
      points += played.total;
    } else {
      await pass(page);
    }
    if (turn < 10) await page.waitForFunction((n) => document.querySelector('.game-title')?.textContent.includes(`turn ${n} of 10`), turn + 1);
  }
  await page.waitForSelector('[data-testid="daily-summary"]');
  return points;
}

test('two players play today\'s puzzle to the end and see places, the bot, the review and the share text', async () => {
  const [annName, bobName] = [uniqueName('ann'), uniqueName('bob')];
  const ann = await startToday(annName, { width: 390, height: 844 });
  assert.match(await ann.page.textContent('.game-title'), /Daily Challenge · English · turn 1 of 10/);
  // Ann passes every turn: 0 points, first to finish.
  assert.equal(await playOut(ann.page, false), 0);
  assert.match(await ann.page.textContent('[data-testid="daily-place"]'), /#1 of 1 today/);
  // The result with a link to the site, which the share sheet gets as its link.
  const site = `${suite.server.url}/`;
  assert.match(await ann.page.inputValue('[data-testid="daily-share"]'),
    new RegExp(`^Alfa Kraft Daily \\d{4}-\\d\\d-\\d\\d · English · 0 pts · #1 of 1 ${site}$`));
  await ann.page.click('[data-testid="daily-summary"] [data-testid="share"]');
  await ann.page.waitForFunction(() => window.shared.length === 1);
  const shared = await ann.page.evaluate(() => window.shared[0]);
  assert.equal(shared.url, site);
  assert.match(shared.text, /· 0 pts · #1 of 1$/);
  // The review and the bot's total arrive from the server's worker without a reload.
  await ann.page.waitForSelector('[data-testid="daily-review"] li', { timeout: 60_000 });
  assert.equal(await ann.page.locator('[data-testid="daily-review"] li').count(), 10);
  await waitForText(ann.page, 'daily-bot', /The Expert bot made \d+/, 60_000);
  await ann.page.screenshot({ path: path.join(artifacts, 'daily-end-phone.png'), fullPage: true });

  // Bob plays words where he can: a different game from the same puzzle.
  const bob = await startToday(bobName, { width: 1366, height: 768 });
  const bobPoints = await playOut(bob.page, true);
  const bobFirst = bobPoints > 0;
  assert.match(await bob.page.textContent('[data-testid="daily-place"]'), bobFirst ? /#1 of 2 today/ : /#2 of 2 today/);
  assert.match(await bob.page.inputValue('[data-testid="daily-share"]'), new RegExp(`· ${bobPoints} pts · #${bobFirst ? 1 : 2} of 2 ${suite.server.url}/$`));
  await bob.page.waitForSelector('[data-testid="daily-review"] li', { timeout: 60_000 });

  // The day's standings, reached from the end card.
  await bob.page.click('a:has-text("Today\'s standings")');
  await bob.page.waitForSelector('[data-testid="daily-board"]');
  const rows = await bob.page.locator('[data-testid="daily-board"] tbody tr').allTextContents();
  assert.equal(rows.length, 2);
  assert.ok(rows[bobFirst ? 0 : 1].includes(bobName) && rows[bobFirst ? 1 : 0].includes(annName), rows.join('\n'));
  assert.match(await bob.page.textContent('[data-testid="daily-bot-score"]'), /The Expert bot made \d+/);
  await bob.page.screenshot({ path: path.join(artifacts, 'daily-standings.png') });

  // Ann's start page shows her result and her streak.
  await ann.page.goto(suite.server.url);
  await hydrated(ann.page);
  await waitForText(ann.page, 'daily-en', new RegExp(`Done: 0 points, #${bobFirst ? 2 : 1} of 2`));
  assert.match(await ann.page.textContent('[data-testid="daily"]'), /Your streak: 1 day in a row \(best 1 day\)/);

  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});

test('a visitor plays the Daily Challenge at once, as a guest', async () => {
  const visitor = await openPage(suite.browser, { viewport: { width: 390, height: 844 } });
  await visitor.page.goto(suite.server.url);
  await hydrated(visitor.page);
  await waitForText(visitor.page, 'daily-sv', /Not started/);
  await visitor.page.click('[data-testid="daily-start-sv"]');
  await visitor.page.waitForURL(/\/game\//);
  await visitor.page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  // The top bar knows the visitor is now a guest, who may sign up to keep the result.
  await waitForText(visitor.page, 'who', /Guest/);
  assert.match(await visitor.page.textContent('.game-title'), /Daily Challenge · Swedish · turn 1 of 10/);
  assert.deepEqual(visitor.errors, []);
  await visitor.context.close();
});
