// Accessibility, checked by axe-core in Chromium: no serious or critical violation on the start
// page, a game page (mid-game, legend open) and the help page, at phone and laptop widths.
// Screenshots of the legend and the help page go to the artifacts folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical violations axe finds on the page as it is now. */
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

for (const [width, height] of [[390, 844], [1366, 768]]) {
  test(`no serious accessibility violation on the start, game and help pages at ${width} px`, async () => {
    const { context, page, errors } = await openPage(suite.browser, { viewport: { width, height } });
    await page.goto(`${suite.server.url}/signup`);
    await signUp(page, uniqueName('axe'));
    await page.goto(suite.server.url);
    await hydrated(page);
    assert.deepEqual(await violations(page), [], 'start page');

    await page.check('input[name="opponent"][value="bot"]');
    // A game on the server (the form's default is one on this device).
    await page.uncheck('input[name="device"]');
    await page.click('button:has-text("Start")');
    await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
    await hydrated(page);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
    await page.click('[data-testid="legend"] summary');
    assert.deepEqual(await violations(page), [], 'game page');
    await page.locator('[data-testid="legend"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, `legend-${width}.png`) });

    // The ruleset line links to that ruleset's rules.
    const href = await page.getAttribute('[data-testid="rules-link"]', 'href');
    assert.match(href, /^\/help#[a-z-]+$/);
    await page.goto(`${suite.server.url}${href}`);
    await page.waitForSelector('h1:has-text("How to play")');
    assert.equal(await page.locator(href.slice('/help'.length)).count(), 1, 'the section exists');
    assert.match(await page.textContent('#powers'), /Charge.*8 coins/s);
    assert.deepEqual(await violations(page), [], 'help page');
    await page.screenshot({ path: path.join(artifacts, `help-${width}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the theme switch turns the pages dark and back, and the server-rendered pages follow it', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1366, height: 768 }, colorScheme: 'light' });
  await page.goto(suite.server.url);
  await hydrated(page);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.click('[data-testid="theme"]'); // Auto → Light
  await page.click('[data-testid="theme"]'); // Light → Dark
  assert.match(await page.getAttribute('[data-testid="theme"]', 'aria-label'), /Dark/);
  assert.notEqual(await background(), light);
  // Remembered: a server-rendered page is dark from the start.
  await page.goto(`${suite.server.url}/help`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await page.goto(suite.server.url);
  await hydrated(page);
  assert.match(await page.getAttribute('[data-testid="theme"]', 'aria-label'), /Dark/);
  await page.click('[data-testid="theme"]'); // Dark → Auto: the system's light again.
  assert.equal(await background(), light);
  assert.deepEqual(errors, []);
  await context.close();
});
