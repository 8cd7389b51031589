// The start page: rendered on the server, hydrated in Chromium, with a server function round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { signUp, startBotGame, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();

test('healthz answers 200 with the version', async () => {
  const response = await fetch(`${suite.server.url}/healthz`);
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.status, 'ok');
  assert.match(body.version, /^\d+\.\d+\.\d+$/);
});

test('the page is rendered on the server before any script runs', async () => {
  const html = await (await fetch(suite.server.url)).text();
  // `<!>` marks a text node's end for hydration.
  assert.match(html.replaceAll('<!>', ''), /<h1>Alfa Kraft<\/h1>/);
  assert.match(html, /data-hydrated="false"/);
});

test('an unknown path answers 404 with a page', async () => {
  const response = await fetch(`${suite.server.url}/no/such/page`);
  assert.equal(response.status, 404);
  assert.match(await response.text(), /Page not found/);
});

test('the page hydrates, judges in the browser with the dictionary, and the server agrees', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 800 } });
  const dictionaryFetches = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/dict/')) dictionaryFetches.push(response);
  });
  await page.goto(suite.server.url);
  await page.locator('main[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  const word = page.getByRole('textbox', { name: 'Word' });
  const dictionary = page.locator('.calculator').getByRole('combobox', { name: 'Dictionary' });
  const verdict = (text) => page.getByTestId('word-check').filter({ hasText: text }).waitFor({ timeout: 10_000 });

  // Typing updates the value and the verdict with no request: only the hydrated wasm and the
  // fetched dictionary can do that.
  await verdict('The English dictionary is ready.');
  await word.fill('why');
  await page.getByTestId('local-value').filter({ hasText: '12 points on plain squares' }).waitFor({ timeout: 5_000 });
  await verdict('“why” is a word in English.');
  assert.equal(await page.locator('.tiles .tile').count(), 3);
  await word.fill('whyy');
  await verdict('“whyy” is not in English.');
  await word.fill('why');
  await page.getByRole('button', { name: 'Ask the server' }).click();
  await page.getByTestId('server-value').filter({ hasText: 'The server agrees: 12 points, a word in English' }).waitFor({ timeout: 5_000 });

  // A letter the Swedish set lacks: the browser names it, and the server refuses with a clear reason.
  await dictionary.selectOption('sv');
  await word.fill('quiz');
  await page.getByTestId('local-value').filter({ hasText: "'q' is not a letter of this tile set" }).waitFor({ timeout: 5_000 });
  // The earlier answer was about another word, so it is gone.
  assert.equal((await page.getByTestId('server-value').textContent()).trim(), '');
  await page.getByRole('button', { name: 'Ask the server' }).click();
  await page
    .getByTestId('server-value')
    .filter({ hasText: "The server says: 'q' is not a letter of this tile set" })
    .waitFor({ timeout: 5_000 });
  await word.fill('bilarnas');
  await verdict('“bilarnas” is a word in Swedish.');

  // The seeded bag draws the same tiles in wasm as on the server.
  const drawCheck = page.getByTestId('draw-check');
  const serverDraw = await drawCheck.getAttribute('data-server');
  // It ends with the first rack of the 2026-12-01 English Daily Challenge, pinned in rules/tests/daily.rs.
  assert.match(serverDraw, /^[A-Z?]{20}\|CENYVOS$/);
  assert.equal(await drawCheck.getAttribute('data-browser'), serverDraw);

  // Back to English: the dictionary is already in the page, so nothing is fetched again.
  await dictionary.selectOption('en');
  await word.fill('kraft');
  await verdict('“kraft” is a word in English.');
  const fetched = dictionaryFetches.map((r) => new URL(r.url()).pathname.split('.')[0]);
  assert.deepEqual(fetched.sort(), ['/dict/en', '/dict/sv']);
  for (const response of dictionaryFetches) {
    assert.equal(response.headers()['cache-control'], 'public, max-age=31536000, immutable');
  }

  await page.screenshot({ path: path.join(artifacts, 'home-desktop.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the start page leads to the rules of every game', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.goto(suite.server.url);
  await page.click('[data-testid="help-link"]');
  await page.waitForURL(/\/help$/);
  const headings = (await page.locator('main h2').allTextContents()).join(' | ');
  for (const name of ['Alfa Kraft', 'Classic', 'Feud', 'Alfapet', 'Long words']) {
    assert.match(headings, new RegExp(name), `the rules of ${name}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the About page lists every dictionary with its licence', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await page.goto(`${suite.server.url}/about/dictionaries`);
  await page.getByRole('heading', { name: 'About the dictionaries' }).waitFor();
  for (const name of ['English', 'Swedish', 'Swedish (strict)', 'Danish', 'Norwegian']) {
    await page.getByRole('heading', { name, exact: true }).waitFor();
  }
  await page.locator('#en summary').first().click();
  await page.locator('#en pre').filter({ hasText: 'Kevin Atkinson' }).waitFor();
  assert.match(await page.locator('#sv-strict').textContent(), /Svenska Akademien/);
  await page.screenshot({ path: path.join(artifacts, 'about-dictionaries.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page fits a 375 px phone', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 375, height: 740 }, isMobile: true });
  await page.goto(suite.server.url);
  await page.locator('main[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  const overflow = await page.evaluate((width) => document.documentElement.scrollWidth - width, page.viewportSize().width);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: path.join(artifacts, 'home-phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game page hydrates with its own bundle, and a link out of it loads the app bundle', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1280, height: 800 } });
  const modules = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith('.wasm') && pathname.startsWith('/pkg/')) modules.push(pathname);
  });
  // The module a page starts (its preload, beside the start-up script that imports it).
  const module = () => page.evaluate(() => new URL(document.querySelector('link[rel="preload"][as="fetch"]').href).pathname);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('out'));
  await startBotGame(page, suite.server.url);
  // Reached from the start page, the game is drawn by the app's bundle, in place.
  assert.equal(await module(), '/pkg/alfakraft_bg.wasm');
  assert.ok(!modules.includes('/pkg/game_bg.wasm'));
  const game = page.url();
  // Opened directly, the page starts the game page's bundle, and plays.
  await page.goto(game);
  await page.locator('nav.top-bar[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  assert.equal(await module(), '/pkg/game_bg.wasm');
  assert.equal(modules.at(-1), '/pkg/game_bg.wasm');
  await page.locator('[data-testid="rack"] [aria-pressed]').first().click();
  await page.waitForSelector('[data-testid="rack"] [aria-pressed="true"]', { timeout: 5_000 });
  // The top bar's link to the lobby: a page the game's bundle does not have, so it loads whole
  // and the app's bundle takes it over; Back returns to the game.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lobby' }).click();
  await page.waitForURL(`${suite.server.url}/lobby`);
  await page.locator('nav.top-bar[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  assert.equal(await module(), '/pkg/alfakraft_bg.wasm');
  await page.goBack();
  await page.waitForURL(game);
  await page.locator('nav.top-bar[data-hydrated="true"]').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="rack"]').waitFor({ timeout: 15_000 });
  assert.deepEqual(errors, []);
  await context.close();
});
