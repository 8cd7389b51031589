// The first load of a game page in a fresh browser on a slow phone link: how many bytes go over
// the wire (the wasm module, and the page, which carries the start-up script and the stylesheet
// inline), how they are compressed, and how long until the page answers a tap. Logs the figures
// (docs/performance.md keeps them); asserts what must hold whatever they are (precompressed
// bundle, no script or stylesheet fetched beside the module, the "Loading…" mark until
// hydration, a tap that works once it is gone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import path from 'node:path';
import { openPage, artifacts } from './support/browser.mjs';
import { signUp, startBotGame, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
// A slow phone link: 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip.
const SLOW = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };

/** A signed-up player's new game against a bot: its address and the player's cookies. */
async function aGame() {
  const { context, page } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('lena'));
  await startBotGame(page, suite.server.url);
  // The player's session, but not the cookie that says the browser has the stylesheet and the
  // script: a fresh browser has neither in its cache.
  const state = await context.storageState();
  state.cookies = state.cookies.filter((c) => c.name !== 'bundle');
  const url = page.url();
  await context.close();
  return { url, state };
}

/**
 * Opens `url` in a fresh context (no cache) over the slow link, with `acceptEncoding` forced when
 * given. Resolves to the wasm and JS responses (bytes over the wire, encoding) and the time from
 * navigation to hydration.
 */
async function firstLoad(url, state, acceptEncoding, screenshot) {
  const { context, page, errors } = await openPage(suite.browser, { ...PHONE, storageState: state });
  if (acceptEncoding) await context.setExtraHTTPHeaders({ 'Accept-Encoding': acceptEncoding });
  // When the top bar says the page is hydrated (its "Loading…" mark goes), on the page's own
  // clock (0 = navigation start).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('nav.top-bar[data-hydrated="true"]')) {
        window.__hydratedAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  const responses = new Map();
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    responses.set(requestId, { url: response.url, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'none' });
  });
  const done = [];
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = responses.get(requestId);
    if (r) done.push({ ...r, bytes: encodedDataLength });
  });
  await page.goto(url, { waitUntil: 'commit' });
  // The rendered page arrives before the bundle: it says it is loading.
  await page.waitForSelector('nav.top-bar[data-hydrated="false"] ~ main [data-testid="rack"]', { timeout: 30_000 });
  // The stylesheet may still be on its way when the markup is parsed (the browser paints nothing
  // until it has it): once it is in, and still before the bundle has hydrated the page, the mark
  // shows.
  await page.waitForFunction(() => [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet), null, { timeout: 30_000 });
  const mark = await page.evaluate(() => ({
    content: getComputedStyle(document.querySelector('nav.top-bar'), '::after').content,
    hydrated: document.querySelector('nav.top-bar').dataset.hydrated,
  }));
  assert.deepEqual(mark, { content: '"Loading…"', hydrated: 'false' });
  if (screenshot) await page.screenshot({ path: path.join(artifacts, screenshot) });
  await page.waitForSelector('nav.top-bar[data-hydrated="true"]', { timeout: 60_000 });
  const hydratedAt = await page.evaluate(() => window.__hydratedAt);
  // Interactive: a tap on a tile of the hand holds it.
  const tile = page.locator('[data-testid="rack"] [aria-pressed]').first();
  await tile.tap();
  await page.waitForSelector('[data-testid="rack"] [aria-pressed="true"]', { timeout: 5_000 });
  assert.deepEqual(errors, []);
  await context.close();
  const bundle = done.filter((r) => /\/pkg\/.*\.(wasm|js|css)$/.test(new URL(r.url).pathname));
  const document = done.find((r) => r.url === url);
  return { bundle, document, hydratedAt };
}

test('a game page in a fresh browser on a 1.6 Mbit/s link gets its one module compressed, its script and styles inline, and answers a tap once hydrated (logs the bytes and the time)', async () => {
  const { url, state } = await aGame();
  for (const [label, acceptEncoding] of [['as Chromium asks', undefined], ['gzip only', 'gzip'], ['brotli', 'br, gzip']]) {
    const shot = acceptEncoding ? undefined : 'first-load-390-loading.png';
    const { bundle, document, hydratedAt } = await firstLoad(url, state, acceptEncoding, shot);
    const bytes = bundle.reduce((sum, r) => sum + r.bytes, 0) + document.bytes;
    const parts = [...bundle, { ...document, url: `${url.split('/').slice(0, 3).join('/')}/page` }]
      .map((r) => `${new URL(r.url).pathname.split('/').pop()} ${r.bytes} B ${r.encoding}`).join(', ');
    console.log(`first load (${label}): wasm + page (with its script and CSS) ${bytes} bytes over the wire (${parts}); interactive ${Math.round(hydratedAt)} ms after navigation`);
    // The script and the stylesheet come inside the page: the module, the game page's own, is the
    // only other file.
    assert.deepEqual(bundle.map((r) => new URL(r.url).pathname), ['/pkg/game_bg.wasm']);
    assert.notEqual(document.encoding, 'none', 'the page is compressed');
    // The bundle is never sent uncompressed.
    for (const r of bundle) assert.notEqual(r.encoding, 'none', `${r.url} is compressed`);
    if (acceptEncoding === 'gzip') for (const r of bundle) assert.equal(r.encoding, 'gzip');
    if (acceptEncoding?.startsWith('br')) for (const r of bundle) assert.equal(r.encoding, 'br');
  }
});
