// The admins' dictionary panel in the browser, with a player beside it. The server deals a known
// game (ALFAKRAFT_FIXED_SEED, tests only): with seed 8 every English Alfa Kraft game starts with
// the same rack (OOMPAH and one more), so two letters of it that English lacks can be made a
// word and then played in a new game, while a game started before keeps refusing them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';
import { rack, verdict, waitForText } from './support/play.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_FIXED_SEED: '8' } });

/** A two-seat pass-and-play game in English, made through the API as the page would; its path. */
async function newGame(page) {
  const id = await page.evaluate(async () => {
    const response = await fetch('/api/games/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ new: {
        variant: { AlfaKraft: { language: 'English' } }, dictionary: 'en', format: 'Casual',
        opponent: { PassAndPlay: { players: 2 } },
      } }),
    });
    return (await response.json()).Ok.id;
  });
  return `/game/${id}`;
}

async function openGame(page, gamePath) {
  await page.goto(`${suite.server.url}${gamePath}`);
  await hydrated(page);
  // Pass-and-play covers the hand until the seat to move says it holds the device.
  await page.waitForSelector('[data-testid="handover"] button, [data-testid="rack"] .hand-tile');
  const handover = page.locator('[data-testid="handover"] button');
  if (await handover.count()) await handover.click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
}

/** Types `word` across the start cell; the preview's verdict (points, or null when refused). */
async function tryWord(page, word) {
  await page.click('[data-cell="7,7"]');
  await page.keyboard.type(word.toLowerCase());
  return verdict(page);
}

async function recall(page) {
  await page.click('button:has-text("Recall")');
  await page.waitForSelector('[data-testid="preview"] .words', { state: 'detached' });
}

test('an admin checks an upload, adds a word and publishes it; new games take it, started ones do not; a player report is accepted', async () => {
  const player = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const admin = await openPage(suite.browser, { viewport: { width: 1280, height: 900 } });

  // The player's game from before the publish, and two letters of its rack English lacks.
  await player.page.goto(`${suite.server.url}/signup`);
  await signUp(player.page, uniqueName('ann'));
  const older = await newGame(player.page);
  await openGame(player.page, older);
  const letters = (await rack(player.page)).map((t) => t.label).filter((l) => l.length === 1);
  const refused = [];
  for (const a of letters) {
    for (const b of letters) {
      if (refused.length === 2) break;
      const word = a + b;
      if (a === b && letters.filter((l) => l === a).length < 2) continue;
      if (refused.includes(word)) continue;
      if ((await tryWord(player.page, word)) === null) refused.push(word);
      await recall(player.page);
    }
  }
  assert.equal(refused.length, 2, `two non-words in ${letters}`);
  const [added, reported] = refused;

  // The admin: signs up, is made admin by the operator, and finds the panel in the top bar.
  const adminName = uniqueName('admin');
  await admin.page.goto(`${suite.server.url}/signup`);
  await signUp(admin.page, adminName);
  suite.server.makeAdmin(adminName);
  await admin.page.goto(`${suite.server.url}/`);
  await hydrated(admin.page);
  // The panel is rendered on the server, plain forms without wasm: a full page load.
  await admin.page.click('[data-testid="admin-link"]');
  await admin.page.waitForSelector('[data-testid="admin"]');
  // No bundle: the one script it loads is the installable app's (its service worker, offline).
  assert.deepEqual(await admin.page.evaluate(() => [...document.querySelectorAll('script[src], link[href$=".wasm"]')]
    .map((e) => e.getAttribute('src') ?? e.getAttribute('href'))), ['/app.js']);
  assert.match(await admin.page.textContent('[data-dictionary="en"] [data-testid="active-version"]'), /^version 1 · 245105 words/);

  // An upload with two bad lines: the report names them, and the draft changes nothing yet.
  const dir = mkdtempSync(path.join(tmpdir(), 'alfakraft-upload-'));
  const file = path.join(dir, 'words.txt');
  writeFileSync(file, '# a small list\nhello\nw0rld\nworld\nhello\n');
  await admin.page.selectOption('[data-testid="upload-form"] select[name="dictionary"]', 'en');
  await admin.page.setInputFiles('[data-testid="upload-form"] input[name="file"]', file);
  await admin.page.fill('[data-testid="upload-form"] input[name="note"]', 'a small list');
  await admin.page.click('[data-testid="upload-form"] button[type="submit"]');
  // The build runs in the background; its progress page sends the browser on to the draft.
  await admin.page.waitForURL(/\/admin\/en\/2\?ok=/);
  rmSync(dir, { recursive: true, force: true });
  await admin.page.waitForSelector('[data-testid="report"]');
  assert.equal(await admin.page.textContent('[data-testid="accepted"]'), '2');
  assert.equal(await admin.page.textContent('[data-testid="rejected-total"]'), '2 lines rejected');
  const rows = await admin.page.$$eval('[data-testid="rejected"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(rows, [['3', 'w0rld', "'0' is not in the alphabet"], ['5', 'hello', 'duplicate of line 2']]);
  assert.match(await admin.page.textContent('[data-testid="warnings"]'), /more than half/);
  await admin.page.screenshot({ path: path.join(artifacts, 'admin-report.png'), fullPage: true });

  // Add a word: a draft on top of the active version, then publish it.
  await admin.page.goto(`${suite.server.url}/admin`);
  await admin.page.selectOption('[data-testid="edit-form"] select[name="dictionary"]', 'en');
  await admin.page.fill('[data-testid="edit-form"] textarea[name="add"]', added.toLowerCase());
  await admin.page.fill('[data-testid="edit-form"] input[name="reason"]', 'the browser test');
  await admin.page.click('[data-testid="edit-form"] button[type="submit"]');
  await admin.page.waitForURL(/\/admin\/en\/3\?ok=/);
  await waitForText(admin.page, 'form-ok', /Draft en@3 made/);
  await waitForText(admin.page, 'diff', /1 added, 0 removed/);
  await admin.page.fill('[data-testid="lookup-form"] input[name="word"]', added.toLowerCase());
  await admin.page.click('[data-testid="lookup-form"] button');
  await admin.page.waitForURL(/word=/);
  await waitForText(admin.page, 'lookup', new RegExp(`${added}: yes in version 3, no in the active version 1`));
  await admin.page.fill('[data-testid="activate-form"] input[name="reason"]', 'players asked');
  await admin.page.click('[data-testid="activate-form"] button[type="submit"]');
  await waitForText(admin.page, 'form-ok', /en@3 is active \(publish\)/);
  await waitForText(admin.page, 'version-state', /active/);

  // The player's new game takes the word, in the preview and in the commit...
  const newer = await newGame(player.page);
  await openGame(player.page, newer);
  const points = await tryWord(player.page, added);
  assert.ok(points !== null, `${added} is a word in the new game`);
  await player.page.click('[data-testid="play"]');
  await waitForText(player.page, 'score-0', new RegExp(`^${points}$`));
  // ...while the older game keeps version 1 and refuses it.
  await openGame(player.page, older);
  assert.equal(await tryWord(player.page, added), null, `${added} is still refused in the older game`);
  await recall(player.page);

  // The player reports another refused word from the preview.
  assert.equal(await tryWord(player.page, reported), null);
  await player.page.click('[data-testid="report-word"]');
  await player.page.waitForSelector('[data-testid="reported"]');

  // The admin sees it in the queue and accepts it into a draft; the player sees the outcome.
  await admin.page.goto(`${suite.server.url}/admin`);
  const item = admin.page.locator(`[data-testid="report-queue"] li[data-word="${reported.toLowerCase()}"]`);
  assert.match(await item.textContent(), /is a word \(refused\).*1 reporter/);
  await admin.page.screenshot({ path: path.join(artifacts, 'admin-panel.png'), fullPage: true });
  await item.locator('button:has-text("Accept")').click();
  await admin.page.waitForURL(/\/admin\?ok=/);
  await waitForText(admin.page, 'form-ok', /Accepted into draft en@4/);
  assert.equal(await admin.page.locator('[data-testid="report-queue"] li').count(), 0);
  await player.page.goto(`${suite.server.url}/`);
  await hydrated(player.page);
  await waitForText(player.page, 'my-reports', new RegExp(`${reported}.*accepted`));

  assert.deepEqual(player.errors, []);
  assert.deepEqual(admin.errors, []);
  await player.context.close();
  await admin.context.close();
});

test('a player and a signed-out visitor get "Page not found" at /admin', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  let response = await page.goto(`${suite.server.url}/admin`);
  assert.equal(response.status(), 404);
  await page.waitForSelector('h1:has-text("Page not found")');
  await page.goto(`${suite.server.url}/signup`);
  const eve = uniqueName('eve');
  await signUp(page, eve);
  // Any other unknown address is the app's own 404 page, which knows who is signed in.
  response = await page.goto(`${suite.server.url}/no/such/page`);
  assert.equal(response.status(), 404);
  await page.getByTestId('who').filter({ hasText: eve }).waitFor({ timeout: 10_000 });
  response = await page.goto(`${suite.server.url}/admin/en/1`);
  assert.equal(response.status(), 404);
  await page.waitForSelector('h1:has-text("Page not found")');
  assert.equal(await page.locator('[data-testid="admin-link"]').count(), 0);
  // The browser logs each 404 document as a failed load; nothing else may go wrong.
  assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  await context.close();
});
