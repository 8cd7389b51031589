// What a returning player meets every day, read as a person reads it (positions and sizes, what is
// on the first screen): the end card's values on their labels' rows, the start page opening on
// the player's games with a challenge beside them, and the pages without scripts fitting a phone
// with the same one-row bar and menu. Screenshots at 390, 360 and 1366 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, openNewGame, signUp, startBotGame, uniqueName } from './support/app.mjs';
import { pass } from './support/play.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const SMALL_PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };

/** Waits until the game page says it is the player's turn. */
function myTurn(page) {
  return page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
    null, { timeout: 30_000 });
}

/** Resigns the open game and waits for the end card. */
async function resign(page) {
  await page.click('button:has-text("Resign")');
  await page.click('.controls button.danger:has-text("Resign")');
  await page.waitForSelector('[data-testid="summary"]');
}

/** Nothing under `root` is wider than the screen (what scrolls inside its own box aside). */
async function fitsWidth(page, what, root = 'body') {
  // The screen as set: a phone's page widens to whatever overflows it, and innerWidth with it.
  const { scroll, width, wide } = await page.evaluate(([root, width]) => {
    const scrollsInside = (e) => {
      for (let up = e.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') return true;
      }
      return false;
    };
    return {
      scroll: document.documentElement.scrollWidth,
      width,
      wide: [...document.querySelectorAll(`${root} *`)]
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > width + 1 && !scrollsInside(e))
        .slice(0, 3).map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}`),
    };
  }, [root, page.viewportSize().width]);
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide on a ${width}-px screen`);
  assert.deepEqual(wide, [], `${what}: nothing runs off the right edge`);
}

/** The end card's rows as a person reads them: each label with the value in each player's column. */
function endCardRows(page) {
  return page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, right: r.right, bottom: r.bottom, h: r.height }; };
    // How many lines a cell's first word takes: more than one means it broke inside the word.
    const wordLines = (cell) => {
      const text = cell.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return 1;
      const word = text.textContent.split(' ')[0];
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, word.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    const table = document.querySelector('[data-testid="summary"] table');
    const columns = [...table.querySelectorAll('thead th')].map(box);
    return {
      columns,
      rows: [...table.querySelectorAll('tbody tr')].map((row) => {
        const label = row.querySelector('th');
        return {
          label: label.textContent.trim(),
          labelBox: box(label),
          cells: [...row.querySelectorAll('td')].map((cell) => ({ text: cell.textContent.trim(), box: box(cell), lines: wordLines(cell) })),
        };
      }),
    };
  });
}

/** What each label's value must read like. */
const VALUE = {
  'Final score': /^-?\d+$/,
  'Made of': /^(-?\d+ from plays.*)?$/,
  'Best word': /^(—|\p{Lu}+ \(\d+\))$/u,
  'Longest word': /^(—|\p{Lu}+)$/u,
  'Words played': /^\d+$/,
  'Turns played': /^\d+$/,
  'Tiles placed': /^\d+$/,
  Coins: /^\d+$/,
};

for (const [name, device] of [['390', PHONE], ['360', SMALL_PHONE], ['1366', LAPTOP]]) {
  test(`the end card at ${name} px: each value on its label's row, the players side by side`, async () => {
    const { context, page, errors } = await openPage(suite.browser, device);
    // An Alfa Kraft game (coins: the "from plays" line) in which the bot has played a word.
    await startBotGame(page, suite.server.url);
    await hydrated(page);
    await myTurn(page);
    const turns = () => page.evaluate(() => document.querySelectorAll('[data-testid="move-list"] li').length);
    const before = await turns();
    await pass(page);
    // The pass, then the bot's answer.
    await page.waitForFunction((before) => document.querySelectorAll('[data-testid="move-list"] li').length >= before + 2
      && /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''), before, { timeout: 30_000 });
    await resign(page);
    await page.locator('[data-testid="summary"]').scrollIntoViewIfNeeded();
    const { columns, rows } = await endCardRows(page);
    const labels = rows.map((r) => r.label);
    for (const label of ['Final score', 'Made of', 'Best word', 'Longest word', 'Words played', 'Turns played', 'Tiles placed', 'Coins']) {
      assert.ok(labels.includes(label), `the card has "${label}": ${labels.join(', ')}`);
    }
    assert.equal(columns.length, 2, 'a column for each player');
    // Side by side: the second player's column starts right of the first's, on the same line.
    assert.ok(columns[1].x >= columns[0].right - 1 && Math.abs(columns[1].y - columns[0].y) < 4,
      `the players' names side by side: ${JSON.stringify(columns)}`);
    for (const { label, labelBox, cells } of rows) {
      assert.equal(cells.length, 2, `"${label}" has a value for each player`);
      for (const [seat, cell] of cells.entries()) {
        assert.match(cell.text, VALUE[label], `"${label}" reads "${cell.text}" for seat ${seat}`);
        // On the label's row: level with it (a laptop) or right under it (a phone), never past
        // the next row's label, and in its player's column.
        const sameLine = Math.abs(cell.box.y - labelBox.y) < 6;
        const justUnder = cell.box.y >= labelBox.bottom - 2 && cell.box.y < labelBox.bottom + 8;
        assert.ok(sameLine || justUnder, `"${label}": seat ${seat}'s value is on its row: ${JSON.stringify({ labelBox, cell: cell.box })}`);
        const column = columns[seat];
        assert.ok(cell.box.x < column.right && cell.box.right > column.x, `"${label}": seat ${seat}'s value is under its name`);
        assert.equal(cell.lines, 1, `"${label}": "${cell.text}" breaks inside its first word`);
      }
      assert.ok(Math.abs(cells[0].box.y - cells[1].box.y) < 4, `"${label}": both players' values on one line`);
    }
    // Each column is one player's: a best word exactly where words were played.
    const value = (label, seat) => rows.find((r) => r.label === label).cells[seat].text;
    for (const seat of [0, 1]) {
      assert.equal(value('Best word', seat) === '—', value('Words played', seat) === '0', `seat ${seat}'s best word and words played agree`);
    }
    await fitsWidth(page, 'the end card', '[data-testid="summary"]');
    // The guest's way to keep their games reads whole in the bar.
    await page.reload();
    await hydrated(page);
    const keep = page.locator('.top-bar .account a[href="/signup"]');
    assert.ok(await keep.isVisible(), 'the guest is offered to sign up');
    assert.ok(await keep.evaluate((a) => a.scrollWidth <= a.clientWidth + 1), `its words are not cut: ${await keep.textContent()}`);
    await page.screenshot({ path: path.join(artifacts, `end-card-${name}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the start page opens on a player\'s games: their turn first, a challenge, New game a tap away', async () => {
  const pia = await openPage(suite.browser, PHONE);
  const piaName = uniqueName('pia');
  await pia.page.goto(`${suite.server.url}/signup`);
  await signUp(pia.page, piaName);
  // Her turn in a bot game, a finished game, then one waiting for an opponent (the newest): the
  // list puts her turn before the waiting one, and the finished one last.
  await startBotGame(pia.page, suite.server.url);
  const mine = new URL(pia.page.url()).pathname.split('/').pop();
  await hydrated(pia.page);
  await myTurn(pia.page);
  await startBotGame(pia.page, suite.server.url);
  const over = new URL(pia.page.url()).pathname.split('/').pop();
  await hydrated(pia.page);
  await myTurn(pia.page);
  await resign(pia.page);
  await pia.page.goto(suite.server.url);
  await openNewGame(pia.page);
  await pia.page.check('input[name="opponent"][value="invite"]');
  await pia.page.click('.new-game button[type="submit"]');
  await pia.page.waitForSelector('[data-testid="invite-link"]');
  // Cid challenges her by name.
  const cid = await openPage(suite.browser, LAPTOP);
  const cidName = uniqueName('cid');
  await cid.page.goto(`${suite.server.url}/signup`);
  await signUp(cid.page, cidName);
  await cid.page.goto(`${suite.server.url}/?friend=${piaName}`);
  await hydrated(cid.page);
  await cid.page.click('.new-game button[type="submit"]');
  await cid.page.waitForURL(/\/game\/[0-9a-f]{32}$/);

  for (const [name, device] of [['390', PHONE], ['360', SMALL_PHONE], ['1366', LAPTOP]]) {
    await pia.page.setViewportSize(device.viewport);
    await pia.page.goto(suite.server.url);
    await hydrated(pia.page);
    await pia.page.screenshot({ path: path.join(artifacts, `start-page-games-${name}.png`) });
    const seen = await pia.page.evaluate(() => {
      const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return { y: r.y, bottom: r.bottom, h: r.height }; };
      const cards = [...document.querySelectorAll('[data-testid="my-games"] li')];
      return {
        order: cards.map((c) => c.dataset.game),
        first: box(cards[0]),
        firstIsMine: cards[0]?.classList.contains('my-turn'),
        challenge: box(document.querySelector('[data-testid="challenges"]')),
        challengeText: document.querySelector('[data-testid="challenges"]')?.textContent ?? '',
        button: box(document.querySelector('[data-testid="new-game-open"]')),
        formShown: !!document.querySelector('.new-game')?.getClientRects().length,
        intro: !!document.querySelector('.hero'),
        height: window.innerHeight,
        scrollY: window.scrollY,
      };
    });
    assert.equal(seen.scrollY, 0, `${name}: the page opens at its top`);
    assert.equal(seen.order[0], mine, `${name}: her turn first: ${seen.order}`);
    assert.ok(seen.firstIsMine, `${name}: the first card is marked as her turn`);
    assert.equal(seen.order.at(-1), over, `${name}: the finished game last`);
    for (const [what, box] of [['the first game', seen.first], ['the challenge', seen.challenge], ['New game', seen.button]]) {
      assert.ok(box && box.y >= 0 && box.bottom <= seen.height, `${name}: ${what} is wholly on the first screen: ${JSON.stringify(box)}`);
    }
    assert.match(seen.challengeText, new RegExp(`${cidName} challenges you: Alfa Kraft · English[^·]* · Casual · (rated|unrated)`),
      `${name}: the challenge says what it offers: ${seen.challengeText}`);
    assert.ok(!seen.formShown, `${name}: the form waits behind New game`);
    assert.ok(!seen.intro, `${name}: no introduction above a player's games`);
    await fitsWidth(pia.page, `the start page at ${name} px`);
  }

  // One tap opens the form, its first choice focused and on screen.
  await pia.page.setViewportSize(PHONE.viewport);
  await pia.page.goto(suite.server.url);
  await hydrated(pia.page);
  await pia.page.tap('[data-testid="new-game-open"]');
  await pia.page.waitForSelector('.new-game', { state: 'visible' });
  const focused = await pia.page.evaluate(() => {
    const e = document.activeElement;
    const r = e.getBoundingClientRect();
    return { name: e.getAttribute('name'), y: r.y, bottom: r.bottom, height: window.innerHeight };
  });
  assert.equal(focused.name, 'ruleset', 'the form\'s first choice has the focus');
  assert.ok(focused.y >= 0 && focused.bottom <= focused.height, `the form is on screen: ${JSON.stringify(focused)}`);
  await pia.page.screenshot({ path: path.join(artifacts, 'start-page-new-game-390.png') });

  // A visitor still meets the introduction and the form.
  const visitor = await openPage(suite.browser, PHONE);
  await visitor.page.goto(suite.server.url);
  await hydrated(visitor.page);
  assert.ok(await visitor.page.locator('.hero h1').isVisible(), 'the introduction');
  assert.ok(await visitor.page.locator('.new-game select[name="ruleset"]').isVisible(), 'the form');
  assert.equal(await visitor.page.locator('[data-testid="new-game-open"]').count(), 0);
  // On a laptop every choice reads whole: no select is narrower than its chosen words.
  await visitor.page.setViewportSize(LAPTOP.viewport);
  const cut = await visitor.page.$$eval('.new-game select', (selects) => selects.map((s) => {
    const style = getComputedStyle(s);
    const context = document.createElement('canvas').getContext('2d');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const words = s.options[s.selectedIndex].text;
    // The padding on both sides and the arrow take about 3 rem.
    return { words, room: s.clientWidth - 48, needs: context.measureText(words).width };
  }).filter((s) => s.needs > s.room));
  assert.deepEqual(cut, [], 'no choice is cut');

  assert.deepEqual([...pia.errors, ...cid.errors, ...visitor.errors], []);
  for (const who of [pia, cid, visitor]) await who.context.close();
});

test('pages without scripts fit a phone: one-row bar, the ☰ menu, signing out', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  const name = uniqueName('sol');
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, name);
  const pages = ['/welcome', '/friends', '/settings', `/u/${name}`, '/leaderboard', '/help'];
  for (const [size, device] of [['390', PHONE], ['360', SMALL_PHONE]]) {
    await page.setViewportSize(device.viewport);
    for (const address of pages) {
      await page.goto(`${suite.server.url}${address}`);
      const what = `${address} at ${size} px`;
      await fitsWidth(page, what);
      // One row: the name, the account and the menu button level in a bar of one line's height.
      const bar = await page.evaluate(() => {
        const box = (s) => { const e = document.querySelector(s); if (!e || !e.getClientRects().length) return null; const r = e.getBoundingClientRect(); return { y: r.y + r.height / 2, h: r.height, right: r.right }; };
        return { bar: box('nav.top-bar'), brand: box('.top-bar .brand'), who: box('.top-bar [data-testid="who"]'), menu: box('.top-bar .menu-button'), list: box('#main-menu') };
      });
      assert.ok(bar.bar.h <= 56, `${what}: the bar is one row (${bar.bar.h} px)`);
      for (const part of ['brand', 'who', 'menu']) {
        assert.ok(bar[part] && Math.abs(bar[part].y - bar.bar.y) < 8, `${what}: ${part} sits in the bar's row: ${JSON.stringify(bar)}`);
      }
      assert.equal(bar.list, null, `${what}: the menu is closed`);
      await page.screenshot({ path: path.join(artifacts, `plain${address.replace(/\//g, '-').replace(name, 'profile')}-${size}.png`) });
    }
  }
  // The notification choices: each box beside its words, on their first line, not above them.
  await page.goto(`${suite.server.url}/settings`);
  const boxes = await page.$$eval('label.check', (labels) => labels.map((label) => {
    const box = label.querySelector('input').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(label);
    const first = [...range.getClientRects()].filter((r) => r.width > 0 && r.x > box.right - 1)[0];
    return { box: [box.x, box.y, box.right, box.bottom], text: first && [first.x, first.y, first.bottom] };
  }));
  assert.ok(boxes.length >= 2, 'the settings offer check boxes');
  for (const { box, text } of boxes) {
    assert.ok(text && text[0] >= box[2] - 1, `the words follow the box: ${JSON.stringify({ box, text })}`);
    const middle = (box[1] + box[3]) / 2;
    assert.ok(middle > text[1] - 4 && middle < text[2] + 4, `the box sits on the words' first line: ${JSON.stringify({ box, text })}`);
  }

  // The menu opens under the bar, within the screen, and signs out.
  await page.setViewportSize(PHONE.viewport);
  await page.goto(`${suite.server.url}/settings`);
  await page.tap('.top-bar .menu-button');
  const menu = page.locator('#main-menu');
  await menu.waitFor({ state: 'visible' });
  const box = await menu.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, `the menu is on screen: ${JSON.stringify(box)}`);
  for (const entry of ['Lobby', 'Friends', 'Settings', 'Sign out']) {
    assert.ok(await menu.getByText(entry, { exact: true }).isVisible(), `the menu offers ${entry}`);
  }
  await page.screenshot({ path: path.join(artifacts, 'plain-menu-open-390.png') });
  await menu.getByText('Sign out', { exact: true }).tap();
  await page.waitForURL((url) => url.pathname === '/');
  await hydrated(page);
  assert.ok(await page.locator('.top-bar a[href="/signin"]').isVisible(), 'signed out');
  // Signed out, a page without scripts offers signing in, and no sign-out.
  await page.goto(`${suite.server.url}/leaderboard`);
  await fitsWidth(page, '/leaderboard signed out');
  assert.equal(await page.locator('[data-testid="sign-out"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
