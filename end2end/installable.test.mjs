// The installable app: the manifest and its icons, the service worker (registered once the page
// is idle, keeping this release's files), the install offer in the menu (once, only while the
// browser offers it), and offline: every page says so above itself, and a page that needs the
// network is answered with the offline page instead of the browser's error. On a 390×844 touch
// phone, and the offline page on a 1366×768 laptop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, controlled } from './support/app.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test('the app installs from its manifest, keeps its files, and says when it is offline', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  const base = suite.server.url;
  await page.goto(`${base}/`);
  await hydrated(page);

  // The manifest: what a browser needs to offer installing the app.
  const href = await page.getAttribute('link[rel="manifest"]', 'href');
  assert.equal(href, '/manifest.webmanifest');
  const manifest = await page.evaluate(async (href) => {
    const answer = await fetch(href);
    return { type: answer.headers.get('content-type'), body: await answer.json() };
  }, href);
  assert.match(manifest.type, /manifest\+json|json/);
  assert.equal(manifest.body.name, 'Alfa Kraft');
  assert.equal(manifest.body.display, 'standalone');
  assert.equal(manifest.body.start_url, '/');
  assert.equal(await page.getAttribute('meta[name="theme-color"]', 'content'), manifest.body.theme_color);
  // Each raster icon is there, at the size it says.
  for (const icon of manifest.body.icons.filter((i) => i.type === 'image/png')) {
    const size = await page.evaluate((src) => new Promise((done) => {
      const image = new Image();
      image.onload = () => done(`${image.naturalWidth}x${image.naturalHeight}`);
      image.onerror = () => done('missing');
      image.src = src;
    }), icon.src);
    assert.equal(size, icon.sizes, icon.src);
  }
  const purposes = manifest.body.icons.map((i) => `${i.sizes} ${i.purpose}`);
  for (const wanted of ['192x192 any', '512x512 any', '512x512 maskable']) assert.ok(purposes.includes(wanted), wanted);

  // The worker registers at the site's root and keeps this release's files.
  await controlled(page);
  const kept = await page.evaluate(async () => {
    const names = await caches.keys();
    const shell = names.find((n) => n.startsWith('shell-'));
    const cache = await caches.open(shell);
    const paths = (await cache.keys()).map((r) => new URL(r.url).pathname).sort();
    return { names, paths };
  });
  for (const file of ['/offline', '/pkg/game_bg.wasm', '/pkg/alfakraft_bg.wasm', '/pkg/alfakraft.css']) {
    assert.ok(kept.paths.includes(file), `${file} kept: ${kept.paths}`);
  }
  assert.equal(kept.names.filter((n) => n.startsWith('shell-')).length, 1, 'one release kept');

  // Installing is offered from the menu only while the browser offers it, and once.
  const install = page.locator('nav.top-bar [data-install]');
  assert.equal(await install.isHidden(), true, 'not offered before the browser does');
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    offer.prompt = () => { window.__prompted = (window.__prompted || 0) + 1; return Promise.resolve(); };
    window.dispatchEvent(offer);
  });
  await page.tap('[data-testid="menu"]');
  await install.waitFor({ state: 'visible' });
  const menu = await page.locator('#main-menu').boundingBox();
  const button = await install.boundingBox();
  assert.ok(button.x >= menu.x - 1 && button.x + button.width <= 391 && button.y + button.height <= 844,
    `the offer is inside the open menu on the screen: ${JSON.stringify({ menu, button })}`);
  await page.screenshot({ path: path.join(artifacts, 'install-offer-390.png') });
  await install.tap();
  assert.equal(await page.evaluate(() => window.__prompted), 1, 'the browser was asked to install');
  assert.equal(await install.isHidden(), true, 'offered once');
  await page.reload();
  await hydrated(page);
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true });
    offer.prompt = () => Promise.resolve();
    window.dispatchEvent(offer);
  });
  assert.equal(await page.locator('nav.top-bar [data-install]').isHidden(), true, 'not offered again on this device');

  // Offline: the page says so above itself, in its flow, and the screen stays whole.
  await context.setOffline(true);
  await page.waitForFunction(() => document.body.hasAttribute('data-offline'));
  const banner = await page.evaluate(() => {
    const style = getComputedStyle(document.body, '::before');
    return { content: style.content, position: style.position, width: document.documentElement.scrollWidth };
  });
  assert.match(banner.content, /You are offline: games with people, the lobby, the Daily Challenge, friends and chat need the network/);
  assert.equal(banner.position, 'static', 'in the flow: it scrolls away with the top and covers nothing');
  assert.ok(banner.width <= 390, `nothing wider than the screen: ${banner.width}`);
  const bar = await page.locator('nav.top-bar').boundingBox();
  assert.ok(bar.y >= 20 && bar.y < 120, `the bar below the banner, on the first screen: ${bar.y}`);
  await page.screenshot({ path: path.join(artifacts, 'offline-banner-390.png') });

  // A page that needs the network is the offline page, with the banner, not the browser's error.
  await page.goto(`${base}/lobby`);
  await page.waitForSelector('.offline-page h1');
  assert.equal(await page.textContent('.offline-page h1'), 'You are offline');
  assert.equal(await page.evaluate(() => document.body.hasAttribute('data-offline')), true);
  const heading = await page.locator('.offline-page h1').boundingBox();
  assert.ok(heading.y + heading.height < 844 && heading.x >= 0 && heading.x + heading.width <= 390, JSON.stringify(heading));
  await page.screenshot({ path: path.join(artifacts, 'offline-page-390.png') });

  // Back online, the banner goes and the page is the lobby again.
  await context.setOffline(false);
  await page.waitForFunction(() => !document.body.hasAttribute('data-offline'));
  await page.goto(`${base}/lobby`);
  await hydrated(page);
  assert.equal(await page.locator('.offline-page').count(), 0);
  assert.deepEqual(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e)), []);
  await context.close();

  // The offline page on a laptop.
  const laptop = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  await laptop.page.goto(`${base}/`);
  await hydrated(laptop.page);
  await controlled(laptop.page);
  await laptop.context.setOffline(true);
  await laptop.page.goto(`${base}/leaderboard`);
  await laptop.page.waitForSelector('.offline-page h1');
  const wide = await laptop.page.locator('.offline-page h1').boundingBox();
  assert.ok(wide.y < 300, `the heading on the first screen: ${wide.y}`);
  await laptop.page.screenshot({ path: path.join(artifacts, 'offline-page-1366.png') });
  await laptop.context.close();
});
