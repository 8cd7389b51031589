// Alfapet in the browser: the New Game form's hand size and player count, and an arrow that
// bends a word. The server deals a known game (ALFAKRAFT_FIXED_SEED, tests only): with seed 17, in
// an 8-tile, three-player Alfapet game with arrows and stops, the draw for the first move picks the
// second seat, whose hand holds E A B A R R F and an arrow: FARBAR bends at the start cell, FARBA
// across, then R down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';
import { rack, verdict, waitForText } from './support/play.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_FIXED_SEED: '17' } });

/** Taps the first hand tile called `label`, then the cell at `cell`. */
async function place(page, label, cell) {
  const tile = (await rack(page)).find((t) => t.label === label);
  assert.ok(tile, `a ${label} in the hand: ${JSON.stringify(await rack(page))}`);
  await page.click(`[data-testid="rack"] [data-slot="${tile.slot}"]`);
  await page.click(`[data-cell="${cell}"]`);
}

test('an arrow bends a word in an 8-tile, three-player Alfapet game', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 1200 } });
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('ann'));
  await page.selectOption('select[name="ruleset"]', 'alfapet-special');
  await page.selectOption('select[name="dictionary"]', 'sv');
  await page.selectOption('select[name="hand"]', '8');
  await page.check('input[name="opponent"][value="local"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.selectOption('select[name="players"]', '3');
  await page.click('button:has-text("Start")');
  await page.waitForURL(/\/game\//);
  await hydrated(page);
  await page.waitForSelector('[data-testid="score-2"]');
  assert.match(await page.textContent('main'), /Alfapet, 8 tiles, arrows and stops/);
  await page.click('[data-testid="handover"] button');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 8);

  // FARBA across to the start cell and R below it: not one line, so refused...
  for (const [label, cell] of [['F', '8,4'], ['A', '8,5'], ['R', '8,6'], ['B', '8,7'], ['A', '8,8'], ['R', '9,8']]) {
    await place(page, label, cell);
  }
  assert.equal(await verdict(page), null, 'without the arrow the tiles are not in one line');
  // ...until the arrow goes under the last A, where the word turns.
  await place(page, 'arrow', '8,8');
  await page.waitForSelector('[data-cell="8,8"] .arrow-mark');
  const total = await verdict(page);
  assert.ok(total > 0, 'FARBAR, bent, is a word');
  assert.match(await page.textContent('[data-testid="preview"]'), /FARBAR/);
  await page.click('[data-testid="play"]');
  // Committed as previewed, and the device goes to the next of the three players.
  await waitForText(page, 'score-1', new RegExp(`^${total}$`));
  await page.waitForSelector('[data-testid="handover"]');
  for (const cell of ['8,4', '8,5', '8,6', '8,7', '8,8', '9,8']) {
    await page.waitForSelector(`[data-cell="${cell}"] .tile`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
