// Analysis of a finished game: the engine's wasm module is fetched only when the player asks,
// runs in a Web Worker with a progress bar, and lists for each of the player's turns the same
// best moves as the server's analysis; the game record downloads as GCG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, startBotGame, uniqueName } from './support/app.mjs';
import { pass, tapAWord, waitForText } from './support/play.mjs';

const suite = serverAndBrowser();
const analysisFiles = (paths) => paths.filter((p) => /analysis/.test(p));

test('a finished game is analysed in a worker fetched on demand, as the server analyses it; the record downloads', async () => {
  const { page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 900 } });
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('ana'));
  await startBotGame(page, suite.server.url);
  await hydrated(page);
  // Three turns of ours: a word if the rack has one, else a pass; then a resignation.
  for (let turn = 0; turn < 3; turn++) {
    await waitForText(page, 'turn', /Your turn/);
    const found = turn === 0 && await page.locator('[data-cell="7,7"] .tile').count() === 0 ? await tapAWord(page) : null;
    if (found) await page.click('[data-testid="play"]');
    else await pass(page);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] li').length > n, turn);
  }
  await waitForText(page, 'turn', /Your turn/);
  await page.click('button:has-text("Resign")');
  await page.click('.controls button.danger:has-text("Resign")');
  await page.waitForSelector('[data-testid="summary"]');
  await page.waitForSelector('[data-testid="analyse"]');
  assert.deepEqual(analysisFiles(requested), [], 'the game page has not fetched the analysis module');

  const started = Date.now();
  await page.click('[data-testid="analyse"]');
  await waitForText(page, 'analysis-source', /browser/);
  console.log(`# analysis of ${await page.locator('[data-testid="analysis-turn"]').count()} turns in the browser: ${Date.now() - started} ms`);
  assert.ok(requested.includes('/analysis-worker.js'), 'the worker is fetched when asked');
  assert.ok(requested.includes('/pkg/analysis_bg.wasm'), 'the engine module is fetched when asked');
  const inBrowser = await page.locator('.analysis-turns').innerText();
  assert.equal(await page.locator('[data-testid="analysis-turn"]').count(), 3, 'each of our three turns (the resignation is no move)');
  for (const turn of await page.locator('[data-testid="analysis-turn"]').all()) {
    // One to five moves, or (a rack with no word anywhere, which a pass may have been) a note.
    const count = await turn.locator('tbody tr').count();
    const none = await turn.locator('[data-testid="no-move"]').count();
    assert.ok((count >= 1 && count <= 5 && none === 0) || (count === 0 && none === 1),
      `one to five moves a turn, or the note that none was possible: ${await turn.innerText()}`);
  }
  assert.match(await page.textContent('[data-testid="analysis-total-0"]'), /points left on the table/);
  await page.screenshot({ path: path.join(artifacts, 'analysis-desktop.png'), fullPage: true });

  // The server's analysis of the same turns reads the same, move for move.
  await page.click('[data-testid="analyse-on-server"]');
  await waitForText(page, 'analysis-source', /server/);
  assert.equal(await page.locator('.analysis-turns').innerText(), inBrowser);

  // A turn of the analysis opens that turn in the history, where its position downloads.
  await page.locator('[data-testid="analysis-turn"] button.link').first().click();
  await page.waitForSelector('[data-testid="history"]');
  assert.match(await page.textContent('[data-testid="history-turn"]'), /^Turn 1 of/);
  assert.match(await page.getAttribute('[data-testid="download-cgp"]', 'href'), /\/turn\/1\/cgp$/);
  await page.click('[data-testid="history"] button:has-text("Close")');

  // The game record, as GCG: every turn of the move list.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-gcg"]')]);
  const record = fs.readFileSync(await download.path(), 'utf8');
  assert.match(record, /^#character-encoding UTF-8/);
  const turns = record.split('\n').filter((line) => line.startsWith('>p')).length;
  assert.equal(turns, await page.locator('[data-testid="move-list"] li').count(), record);

  // On a phone the analysis reads in one column.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid="analysis"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, 'analysis-phone.png') });
  const box = await page.locator('[data-testid="analysis"]').boundingBox();
  assert.ok(box.width <= 390, `the analysis fits the phone: ${box.width}`);
  assert.deepEqual(errors, []);
});
