// The start page: rendered on the server, hydrated in Chromium, with a server function round trip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer } from './support/server.mjs';
import { launchBrowser, openPage, artifacts } from './support/browser.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('healthz answers 200 with the version', async () => {
  const response = await fetch(`${server.url}/healthz`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.status, 'ok');
  assert.match(body.version, /^\d+\.\d+\.\d+$/);
});

test('the page is rendered on the server before any script runs', async () => {
  const html = await (await fetch(server.url)).text();
  assert.match(html, /<h1>Alfa Kraft<\/h1>/);
  assert.match(html, /data-hydrated="false"/);
});

test('an unknown path answers 404 with a page', async () => {
  const response = await fetch(`${server.url}/no/such/page`);
  assert.equal(response.status, 404);
  assert.match(await response.text(), /Page not found/);
});

test('the page hydrates, scores in the browser and the server agrees', async () => {
  const { context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(server.url);
  await page.locator('main[data-hydrated="true"]').waitFor({ timeout: 15_000 });

  // Typing updates the value with no request: only the hydrated wasm can do that.
  await page.getByRole('textbox', { name: 'Word' }).fill('why');
  await assert.doesNotReject(
    page.getByTestId('local-value').filter({ hasText: '12 points on plain squares' }).waitFor({ timeout: 5_000 }),
  );
  assert.equal(await page.locator('.tiles .tile').count(), 3);

  await page.getByRole('button', { name: 'Ask the server' }).click();
  await page.getByTestId('server-value').filter({ hasText: 'The server agrees: 12 points' }).waitFor({ timeout: 5_000 });

  // A letter the Swedish set lacks: the browser names it, and the server refuses with a clear reason.
  await page.getByRole('combobox', { name: 'Tile set' }).selectOption('feud_sv');
  await page.getByRole('textbox', { name: 'Word' }).fill('quiz');
  await page.getByTestId('local-value').filter({ hasText: "'q' is not a letter of this tile set" }).waitFor({ timeout: 5_000 });
  // The earlier answer was about another word, so it is gone.
  assert.equal((await page.getByTestId('server-value').textContent()).trim(), '');
  await page.getByRole('button', { name: 'Ask the server' }).click();
  await page
    .getByTestId('server-value')
    .filter({ hasText: "The server says: 'q' is not a letter of this tile set" })
    .waitFor({ timeout: 5_000 });

  await page.getByRole('textbox', { name: 'Word' }).fill('kraft');
  await page.screenshot({ path: path.join(artifacts, 'home-desktop.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page fits a 375 px phone', async () => {
  const { context, page, errors } = await openPage(browser, { viewport: { width: 375, height: 740 }, isMobile: true });
  await page.goto(server.url);
  await page.locator('main[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(artifacts, 'home-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
