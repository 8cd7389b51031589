// Alfa Kraft's Alfa Power Tile in the browser: placing six tiles earns one, and it is then placed
// away from every other tile. The server deals a known game (ALFAKRAFT_FIXED_SEED, tests only):
// with seed 8 the first rack of an English Alfa Kraft game spells OOMPAH.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';
import { TWO, rack, verdict, waitForText } from './support/play.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_FIXED_SEED: '8' } });

test('six tiles earn an Alfa Power Tile, which is then placed away from the other tiles', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 1000 } });
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('ann'));
  await page.check('input[name="opponent"][value="bot"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.selectOption('select[name="bot"]', 'beginner');
  await page.click('button:has-text("Start")');
  await page.waitForURL(/\/game\//);
  await hydrated(page);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);

  // Six tiles across the start cell: a placement bonus and an Alfa Power Tile.
  await page.click('[data-cell="7,2"]');
  await page.keyboard.type('oompah');
  const total = await verdict(page);
  assert.ok(total !== null, 'OOMPAH is a word');
  assert.match(await page.textContent('[data-testid="preview"]'), /Placement bonus/);
  await page.keyboard.press('Enter');
  await waitForText(page, 'score-0', new RegExp(`^${total}$`));
  await waitForText(page, 'rewards', /You earned an Alfa Power Tile/);
  await page.waitForSelector('[data-testid="power-bar"] [data-power="Alfa Power Tile"]');

  // After the bot's answer: the Alfa Power Tile in a far corner, with a hand letter beside it;
  // neither touches the tiles already on the board.
  await waitForText(page, 'turn', /Your turn/);
  let placed = null;
  for (const tile of await rack(page)) {
    if (tile.label.length !== 1) continue;
    for (const word of TWO.filter((w) => w[1] === tile.label)) {
      await page.locator('[data-testid="power-bar"] [data-power="Alfa Power Tile"]').dragTo(page.locator('[data-cell="0,0"]'));
      await page.click(`.picker button:text-is("${word[0]}")`);
      await page.click(`[data-slot="${tile.slot}"]`);
      await page.click('[data-cell="0,1"]');
      const points = await verdict(page);
      if (points !== null) {
        placed = { word, points };
        break;
      }
      await page.click('button:has-text("Recall")');
    }
    if (placed) break;
  }
  assert.ok(placed, 'some two-letter word starts with a letter the Alfa Power Tile can name');
  await page.click('[data-testid="play"]');
  // Committed as previewed: the score grows by exactly the preview's points.
  await waitForText(page, 'score-0', new RegExp(`^${total + placed.points}$`));
  await page.waitForSelector('[data-cell="0,0"] .tile');
  assert.equal(await page.locator('[data-testid="power-bar"] [data-power="Alfa Power Tile"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
