// The interface in the player's language: a Swedish browser gets Swedish pages from the server
// (no English first), switching mid-game keeps the move being built, a refusal from the server
// reads in the page's language, and an account's choice follows it to a new browser.
// Screenshots of the game page in each language on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, signUp, uniqueName, PASSWORD } from './support/app.mjs';
import { rack } from './support/play.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

function speaking(lang) {
  return { ...PHONE, locale: lang, extraHTTPHeaders: { 'Accept-Language': `${lang},en;q=0.5` } };
}

async function lang(page) {
  return page.evaluate(() => document.documentElement.lang);
}

/** Chooses a language in the top bar's menu (opened and closed again) and waits until the page speaks it. */
async function choose(page, code, playLabel) {
  await page.tap('[data-testid="menu"]');
  await page.selectOption('[data-testid="language"]', code);
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
  await page.tap('[data-testid="menu"]');
  await page.waitForSelector('[data-testid="language"]', { state: 'hidden' });
  if (playLabel) await page.waitForSelector(`[data-testid="play"]:text-is("${playLabel}")`);
}

/** Stages two rack tiles at the centre that the preview says are not a word. */
async function stageANonWord(page, recallLabel) {
  const tiles = await rack(page);
  for (let i = 0; i < tiles.length; i++) {
    for (let j = 0; j < tiles.length; j++) {
      if (i === j || tiles[i].label === 'blank' || tiles[j].label === 'blank') continue;
      await page.click(`[data-slot="${tiles[i].slot}"]`);
      await page.click('[data-cell="7,7"]');
      await page.click(`[data-slot="${tiles[j].slot}"]`);
      await page.click('[data-cell="7,8"]');
      const el = await page.waitForSelector('[data-testid="preview-total"], [data-testid="preview"] .word.invalid');
      if ((await el.getAttribute('data-testid')) !== 'preview-total') return `${tiles[i].label}${tiles[j].label}`;
      await page.click(`button:text-is("${recallLabel}")`);
    }
  }
  throw new Error('every pair of tiles made a word');
}

test('a Swedish browser plays in Swedish, switches to Danish mid-move, and is refused in Swedish', async () => {
  const { page, errors, context } = await openPage(suite.browser, speaking('sv-SE'));
  // The server's page is Swedish before any script runs: no flicker from English.
  const first = await page.goto(suite.server.url);
  const html = await first.text();
  assert.match(html, /<html lang="sv"/);
  assert.match(html, /Nytt parti/);
  assert.doesNotMatch(html, />New game</);
  await hydrated(page);
  assert.equal(await page.textContent('#new-game-title'), 'Nytt parti');
  assert.equal(await page.textContent('#calc-title'), 'Är det ett ord, och vad är det värt?');
  assert.equal(await page.inputValue('[data-testid="language"]'), 'sv');
  // A new game offers the language's own dictionary (it offered English).
  assert.equal(await page.inputValue('.new-game select[name="dictionary"]'), 'sv');
  await page.screenshot({ path: path.join(artifacts, 'languages-home-sv.png') });

  // Feud refuses a word the dictionary lacks.
  await page.selectOption('select[name="ruleset"]', 'feud');
  await page.selectOption('select[name="bot"]', 'beginner');
  // A game on the server, whose refusals come from it (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.click('.new-game button[type="submit"]');
  await page.waitForURL(/\/game\//);
  await hydrated(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="turn"]')?.textContent === 'Din tur.',
    null, { timeout: 60_000 });
  assert.equal(await page.textContent('[data-testid="play"]'), 'Lägg');
  // The squares in Swedish: TO (trippelord), DB (dubbelbokstav), never TW or DL.
  const squares = new Set(await page.$$eval('.board .cell .premium', (labels) => labels.map((l) => l.textContent.trim()).filter(Boolean)));
  assert.ok(squares.has('TO') && squares.has('DB'), `Swedish squares: ${[...squares]}`);
  assert.ok(!squares.has('TW') && !squares.has('DL'), `no English squares: ${[...squares]}`);
  await page.screenshot({ path: path.join(artifacts, 'languages-game-sv.png') });

  const word = await stageANonWord(page, 'Ta tillbaka');
  assert.match(await page.textContent('[data-testid="preview"]'), /finns inte i ordlistan/);

  // Danish mid-move: the words change in place, the staged tiles stay where they were.
  await choose(page, 'da', 'Læg');
  assert.equal(await page.locator('.board .tile.new').count(), 2, 'both staged tiles are still on the board');
  assert.match(await page.textContent('[data-testid="preview"]'), /ikke i ordlisten/);
  assert.equal(await page.textContent('[data-testid="turn"]'), 'Din tur.');
  await page.screenshot({ path: path.join(artifacts, 'languages-game-da.png') });
  await choose(page, 'nb', 'Legg');
  assert.equal(await page.locator('.board .tile.new').count(), 2);
  await page.screenshot({ path: path.join(artifacts, 'languages-game-nb.png') });
  await choose(page, 'en', 'Play');
  await page.screenshot({ path: path.join(artifacts, 'languages-game-en.png') });
  await choose(page, 'sv', 'Lägg');
  assert.equal(await page.locator('.board .tile.new').count(), 2);

  // The server refuses the play; the page words the refusal from its type, in Swedish.
  await page.click('[data-testid="play"]');
  await page.waitForFunction(() => /Finns inte i ordlistan/.test(document.querySelector('[data-testid="message"]')?.textContent ?? ''));
  assert.match(await page.textContent('[data-testid="message"]'), new RegExp(word, 'i'));

  // The choice is remembered for this browser: a reload comes back in Swedish, and so do the
  // pages the server renders alone.
  await page.reload();
  await hydrated(page);
  assert.equal(await lang(page), 'sv');
  await page.goto(`${suite.server.url}/help`);
  assert.equal(await page.textContent('h1'), 'Så spelar du');
  assert.equal(await lang(page), 'sv');
  await page.goto(`${suite.server.url}/leaderboard?d=sv`);
  assert.equal(await page.textContent('h1'), 'Topplista');
  assert.match(await page.textContent('nav.tabs'), /Svenska \(strikt\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a signed-in player's choice follows them to a new browser", async () => {
  const name = uniqueName('lang');
  const first = await openPage(suite.browser, PHONE);
  await first.page.goto(`${suite.server.url}/signup`);
  await signUp(first.page, name);
  assert.equal(await lang(first.page), 'en');
  await choose(first.page, 'nb');
  // In the menu, closed on a phone.
  await first.page.waitForSelector('nav.top-bar button:text-is("Logg ut")', { state: 'attached' });
  await first.context.close();

  // Another browser, English by default: signing in brings Norwegian with the account.
  const second = await openPage(suite.browser, PHONE);
  await second.page.goto(`${suite.server.url}/signin`);
  await hydrated(second.page);
  assert.equal(await lang(second.page), 'en');
  await second.page.fill('input[name="name"]', name);
  await second.page.fill('input[name="password"]', PASSWORD);
  await second.page.click('button[type="submit"]');
  await second.page.waitForSelector('nav.top-bar button:text-is("Logg ut")', { state: 'attached' });
  assert.equal(await lang(second.page), 'nb');
  await second.page.reload();
  await hydrated(second.page);
  assert.equal(await second.page.textContent('#new-game-title'), 'Nytt spill');
  assert.deepEqual(second.errors, []);
  await second.context.close();
});

test('Norwegian and Danish browsers are greeted in their languages', async () => {
  for (const [header, code, title] of [['nn-NO', 'nb', 'Nytt spill'], ['da-DK', 'da', 'Nyt spil'], ['de-DE', 'en', 'New game']]) {
    const { page, context } = await openPage(suite.browser, speaking(header));
    await page.goto(suite.server.url);
    assert.equal(await lang(page), code, header);
    assert.equal(await page.textContent('#new-game-title'), title, header);
    await hydrated(page);
    assert.equal(await page.inputValue('.new-game select[name="dictionary"]'), code, header);
    await context.close();
  }
});
