// A phone, 390×844 with touch: the whole game fits the screen on every board size, the hand and
// Play stay on screen through a game, the move list and the unseen tiles agree with the game
// after every move; screenshots at 360, 390 and 1366 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, inviteGame, joinByInvite, signUp, startBotGame, uniqueName, openNewGame } from './support/app.mjs';
import { pass, spellings, rack, tapAWord, verdict, waitForText } from './support/play.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Asserts that the element is wholly inside the viewport. */
async function onScreen(page, selector, what) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${what} is rendered`);
  const { height } = page.viewportSize();
  assert.ok(box.y >= 0 && box.y + box.height <= height, `${what} is on screen: ${JSON.stringify(box)}`);
}

/** The move list and the unseen count against the scoreboard, read at one moment. */
async function listAgrees(page) {
  const seen = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid="move-list"] li')];
    const last = rows.at(-1);
    return {
      count: rows.length,
      who: last?.querySelector('.who')?.textContent.trim(),
      total: Number(last?.querySelector('.total')?.textContent),
      scores: [...document.querySelectorAll('[data-testid="scoreboard"] .player')].map((p) => ({
        name: p.querySelector('.name')?.textContent ?? '', score: Number(p.querySelector('.score')?.textContent),
      })),
      bag: Number(document.querySelector('[data-testid="scoreboard"] .bag')?.textContent.replace(/\D/g, '')),
      unseen: Number(document.querySelector('[data-testid="unseen-count"]')?.textContent),
      counts: [...document.querySelectorAll('[data-testid="unseen"] .unseen-tiles .count')].map((c) => c.textContent),
    };
  });
  assert.ok(seen.count > 0, 'the move list has the turns');
  // The scoreboard shows the same total for whoever moved last.
  const mover = seen.scores.find((s) => s.name.includes(seen.who.split(' (')[0]));
  assert.ok(mover, `${seen.who} is on the scoreboard`);
  assert.equal(seen.total, mover.score, 'the running total is the score');
  // Unseen: the bag and the bot's hand of 7 (the bag is far from empty after five moves).
  assert.equal(seen.unseen, seen.bag + 7, 'unseen tiles are the bag and the other hand');
  // Each letter's count reads as a count ("×2"), not as a tile's points ("Q1"), and they add up.
  assert.ok(seen.counts.every((c) => /^×\d+$/.test(c)), `counts: ${seen.counts.join(' ')}`);
  assert.equal(seen.counts.reduce((sum, c) => sum + Number(c.slice(1)), 0), seen.unseen);
  return seen.count;
}

/** Waits for two animation frames: a zoom's restyle and its scroll have happened. */
async function settled(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Drags with a finger (touch events through the DevTools protocol, as a touch screen sends them). */
async function fingerDrag(page, cdp, from, to, hold = 0) {
  // As a player pans the zoomed board to the cell first, and lets it come to rest.
  await page.locator(to).scrollIntoViewIfNeeded();
  await page.locator(from).scrollIntoViewIfNeeded();
  await settled(page);
  const centre = async (selector) => {
    const box = await page.locator(selector).boundingBox();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  const a = await centre(from);
  const b = await centre(to);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
  // A finger may rest on the tile before it moves (past a long press): the drag still holds.
  if (hold) await new Promise((rest) => setTimeout(rest, hold));
  for (let step = 1; step <= 8; step++) {
    const point = { x: a.x + ((b.x - a.x) * step) / 8, y: a.y + ((b.y - a.y) * step) / 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  return { a, b };
}

/** What of the game screen is not wholly inside the viewport: every cell, the hand, the scores, Play. */
async function outOfView(page) {
  // The screen as set: a phone's page widens (and innerWidth with it) to whatever overflows it.
  return page.evaluate(({ width, height }) => {
    const inside = (r) => r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= width && r.bottom <= height;
    const missing = [];
    for (const selector of ['.board-frame [data-cell]', '[data-testid="rack"] .hand-tile', '[data-testid="scoreboard"] .score', '[data-testid="play"]']) {
      const found = [...document.querySelectorAll(selector)];
      if (found.length === 0) missing.push(`${selector}: none`);
      for (const element of found) {
        const box = element.getBoundingClientRect();
        if (!inside(box)) missing.push(`${selector} ${element.dataset.cell ?? element.textContent} at ${Math.round(box.top)}–${Math.round(box.bottom)}`);
      }
    }
    return missing;
  }, page.viewportSize());
}

for (const [width, height] of [[390, 844], [360, 740]]) {
  test(`at ${width}×${height} the whole board, the scores, the hand and Play are on screen at once, on each board size`, async () => {
    for (const who of ['visitor', 'player']) {
      const { context, page, errors } = await openPage(suite.browser, { ...PHONE, viewport: { width, height } });
      if (who === 'player') {
        await page.goto(`${suite.server.url}/signup`);
        await signUp(page, uniqueName('fit'));
      }
      for (const [ruleset, size] of [['alfakraft', 15], ['classic', 15], ['feud', 15], ['alfapet', 17]]) {
        await page.goto(suite.server.url);
        await openNewGame(page);
        await page.selectOption('select[name="ruleset"]', ruleset);
        await page.check('input[name="opponent"][value="bot"]');
        // A game on the server (the form's default is one on this device).
        await page.uncheck('input[name="device"]');
        await page.tap('button:has-text("Start")');
        await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
        await hydrated(page);
        await page.waitForSelector('[data-testid="rack"] .hand-tile');
        await page.waitForSelector('[data-testid="play"]');
        assert.equal(await page.locator('.board-frame [data-cell]').count(), size * size);
        // Where a draw of tiles decides who starts (a bot may move first), the page says who drew it.
        const drawn = ruleset === 'classic' || ruleset === 'alfapet';
        assert.equal(await page.locator('[data-testid="first-draw"]').count(), drawn ? 1 : 0);
        if (drawn) assert.match(await page.textContent('[data-testid="first-draw"]'), /^Drawn to start: .+ \(whoever draws the/);
        // The top bar is one row.
        assert.ok((await page.locator('nav.top-bar').boundingBox()).height <= 48, 'a one-row top bar');
        assert.deepEqual(await outOfView(page), [], `${ruleset}, ${who}: everything in view without scrolling`);
        assert.equal(await page.evaluate(() => window.scrollY), 0);
        await page.screenshot({ path: path.join(artifacts, `fit-${ruleset}-${who}-${width}.png`) });
      }
      // The rest of the bar is behind one button: the lobby, the leaderboard, the rules, the language.
      await page.tap('[data-testid="menu"]');
      assert.equal(await page.getAttribute('[data-testid="menu"]', 'aria-expanded'), 'true');
      assert.equal(await page.getAttribute('#main-menu a:has-text("Rules")', 'href'), '/help');
      await page.waitForSelector('[data-testid="language"]', { state: 'visible' });
      await whollyInView(page, '#main-menu');
      await page.screenshot({ path: path.join(artifacts, `menu-${who}-${width}.png`) });
      await page.tap('[data-testid="menu"]');
      await page.waitForSelector('#main-menu', { state: 'hidden' });
      assert.deepEqual(errors, []);
      await context.close();
    }
  });
}

/** Asserts the element is wholly inside the viewport, left and right too. */
async function whollyInView(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height, `${selector} in view: ${JSON.stringify(box)}`);
}

test('on a phone the hand and Play stay in view through five moves; the move list and unseen tiles keep up', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('pia'));
  await page.goto(suite.server.url);
  await hydrated(page);
  await page.check('input[name="opponent"][value="bot"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.selectOption('select[name="bot"]', 'beginner');
  await page.tap('button:has-text("Start")');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  await hydrated(page);
  let seen = 0;
  for (let move = 1; move <= 5; move++) {
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
      null, { timeout: 30_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await onScreen(page, '[data-testid="rack"]', 'the hand');
    await onScreen(page, '[data-testid="play"]', 'Play');
    if (seen > 0) {
      const count = await listAgrees(page);
      assert.ok(count > seen, 'the list grew');
      seen = count;
    }
    const empty = await page.locator('[data-cell="7,7"] .tile').count() === 0;
    let played = false;
    if (empty) {
      // The first move: a word tapped onto the centre, with a finger.
      const cellWidth = async () => (await page.locator('[data-cell="7,7"]').boundingBox()).width;
      assert.ok(await cellWidth() < 40, 'the whole board fits the phone');
      for (const { spelled } of spellings(await rack(page))) {
        for (const [i, tile] of spelled.entries()) {
          await page.tap(`[data-slot="${tile.slot}"]`);
          // A tile held: the board zooms to cells a finger can hit.
          await page.waitForFunction(() => document.querySelector('[data-cell="7,7"]').getBoundingClientRect().width >= 40);
          await page.tap(`[data-cell="7,${7 + i}"]`);
          if (tile.blank) await page.tap(`.picker button:text-is("${tile.letter}")`);
        }
        const total = await verdict(page);
        if (total !== null) {
          // The same word again, dragged by a finger: it lands and previews the same score.
          await page.tap('button:has-text("Recall")');
          const cdp = await context.newCDPSession(page);
          for (const [i, tile] of spelled.entries()) {
            const landed = `[data-cell="7,${7 + i}"] .tile.new`;
            await fingerDrag(page, cdp, `[data-slot="${tile.slot}"]`, `[data-cell="7,${7 + i}"]`, i === 0 ? 800 : 0);
            // A blank lands as a tapped one does: the picker asks for its letter first (clicked:
            // see Play below on taps after touches sent this way).
            if (tile.blank) await page.click(`.picker button:text-is("${tile.letter}")`);
            // The tile moved, not the page: it is on the cell the finger lifted over.
            await page.waitForSelector(landed, { timeout: 5_000 });
          }
          assert.equal(await page.locator('.board .tile.new').count(), spelled.length, 'every dragged tile landed');
          assert.equal(await verdict(page), total);
          played = true;
          break;
        }
        await page.tap('button:has-text("Recall")');
      }
      await onScreen(page, '[data-testid="play"]', 'Play with tiles staged');
      await onScreen(page, '[data-testid="preview"]', 'the preview with tiles staged');
    }
    const before = await page.locator('[data-testid="move-list"] li').count();
    // After touches sent through the DevTools protocol, headless Chromium turns no later emulated
    // tap into a click (seen with Playwright's own tap too), so Play is clicked here.
    if (played) await page.click('[data-testid="play"]');
    else await pass(page);
    // The move is in the list before the next turn is waited for.
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] li').length > n, before);
    // Played (or passed): the board zooms out again.
    await page.waitForFunction(() => document.querySelector('[data-cell="7,7"]').getBoundingClientRect().width < 40);
    seen = before + 1;
    if (move === 3) {
      await page.screenshot({ path: path.join(artifacts, 'phone-game-390.png') });
      await page.locator('[data-testid="unseen"] summary').tap();
      await page.locator('[data-testid="move-list"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(artifacts, 'phone-moves-390.png'), fullPage: true });
      // Tapping a move opens that turn in the history.
      await page.locator('[data-testid="move-1"]').tap();
      assert.match(await page.textContent('[data-testid="history-turn"]'), /^Turn 1 of/);
      await page.tap('[data-testid="history"] button:has-text("Close")');
    }
  }
  await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''));
  await listAgrees(page);
  // The same game on a laptop.
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.screenshot({ path: path.join(artifacts, 'laptop-game-1366.png') });
  await onScreen(page, '[data-testid="play"]', 'Play on a laptop');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone a tile dragged to the zoomed board\'s edge pans it, and Explore opens zoomed on the words', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('pan'));
  await startBotGame(page, suite.server.url);
  await hydrated(page);
  await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
    null, { timeout: 30_000 });
  // A tile tapped onto the centre: the board zooms in its frame.
  const [first, second] = await rack(page);
  await page.tap(`[data-slot="${first.slot}"]`);
  await page.tap('[data-cell="7,7"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="7,7"]').getBoundingClientRect().width >= 40);
  await settled(page);
  // Another tile dragged by a finger to the frame's lower edge, resting there: the board scrolls.
  const frame = await page.locator('.board-frame').boundingBox();
  const tile = await page.locator(`[data-slot="${second.slot}"]`).boundingBox();
  const scrolled = () => page.evaluate(() => document.querySelector('.board-frame').scrollTop);
  const before = await scrolled();
  const cdp = await context.newCDPSession(page);
  // Each move waits two frames: the browser coalesces the moves of one frame into one event.
  const frames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const at = async (x, y) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
    await frames();
  };
  const x = frame.x + frame.width / 2;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: tile.x + tile.width / 2, y: tile.y + tile.height / 2 }] });
  // Coming up from the hand, it crosses the lower edge and rests there a moment: the board stays.
  await at(x, frame.y + frame.height - 12);
  await frames();
  assert.equal(await scrolled(), before, 'crossing the edge on the way in does not scroll');
  // From the middle back to the lower edge, resting: the board scrolls down under the finger.
  await at(x, frame.y + frame.height / 2);
  await at(x, frame.y + frame.height - 12);
  const panned = await page.waitForFunction((least) => document.querySelector('.board-frame').scrollTop >= least
    ? document.querySelector('.board-frame').scrollTop : null, before + 48, { timeout: 5_000 })
    .then((handle) => handle.jsonValue(), () => scrolled());
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.ok(panned >= before + 48, `the board scrolled down under the finger: ${before} → ${panned}`);
  await page.click('button:has-text("Recall")');
  await page.waitForFunction(() => document.querySelector('[data-cell="7,7"]').getBoundingClientRect().width < 40);
  // A word played, the bot's answer, then the end: Explore opens zoomed on the words.
  const found = await tapAWord(page);
  if (found) {
    await page.click('[data-testid="play"]');
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
      null, { timeout: 30_000 });
  }
  await page.click('button:has-text("Resign")');
  await page.click('.controls button.danger:has-text("Resign")');
  await page.click('[data-testid="summary"] button:has-text("Explore board")');
  await page.waitForFunction(() => document.querySelector('[data-cell="7,7"]').getBoundingClientRect().width >= 36);
  await settled(page);
  const view = await page.evaluate(() => {
    const frame = document.querySelector('.board-frame').getBoundingClientRect();
    const tiles = [...document.querySelectorAll('.board-frame .cell .tile')].map((t) => t.getBoundingClientRect());
    const middle = (lo, hi) => (Math.min(...lo) + Math.max(...hi)) / 2;
    return {
      frame: [frame.left, frame.top, frame.right, frame.bottom],
      tiles: tiles.length,
      middle: tiles.length ? [middle(tiles.map((t) => t.left), tiles.map((t) => t.right)), middle(tiles.map((t) => t.top), tiles.map((t) => t.bottom))] : null,
    };
  });
  if (view.tiles > 0) {
    const [left, top, right, bottom] = view.frame;
    const [mx, my] = view.middle;
    assert.ok(mx > left && mx < right && my > top && my < bottom, `the words' middle is in view: ${JSON.stringify(view)}`);
  }
  await page.screenshot({ path: path.join(artifacts, 'phone-explore-390.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone the opponent\'s reply brings the page back to the scores and the last play', async () => {
  const { player: ann, link } = await inviteGame(suite.browser, suite.server.url, uniqueName('ann'), { viewport: { width: 1366, height: 768 } });
  const bob = await joinByInvite(suite.browser, link, uniqueName('bob'), PHONE);
  await ann.page.goto(bob.page.url());
  await hydrated(ann.page);
  // Bob, who joined, moves first: he passes, then reads down to the move list.
  await waitForText(bob.page, 'turn', /Your turn/);
  await pass(bob.page);
  await waitForText(bob.page, 'turn', /Waiting for/);
  await bob.page.locator('[data-testid="move-list"]').scrollIntoViewIfNeeded();
  assert.ok(await bob.page.evaluate(() => window.scrollY) > 0, 'Bob has scrolled down');
  // Ann passes: Bob's page goes back to its top, the scores and Ann's pass in view.
  await waitForText(ann.page, 'turn', /Your turn/);
  await pass(ann.page);
  await waitForText(bob.page, 'turn', /Your turn/);
  await bob.page.waitForFunction(() => window.scrollY === 0);
  await onScreen(bob.page, '[data-testid="scoreboard"]', 'the scores');
  await onScreen(bob.page, '[data-testid="last-play"]', 'the last play');
  assert.match(await bob.page.textContent('[data-testid="last-play"]'), /passed/);
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  await ann.context.close();
  await bob.context.close();
});

test('on a phone the invite link goes out through the share sheet, beside Copy', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  // The phone's share sheet belongs to the system: the page is given one that records what it
  // was handed, as a phone's would receive it. Without one (most desktops) there is no button.
  await context.addInitScript(() => {
    window.shared = [];
    navigator.share = async (data) => { window.shared.push(data); };
  });
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('sia'));
  await page.goto(suite.server.url);
  await hydrated(page);
  await page.check('input[name="opponent"][value="invite"]');
  await page.click('button:has-text("Start")');
  const link = await page.inputValue('[data-testid="invite-link"]');
  assert.match(link, /\/invite\/[0-9a-f]+$/);
  await page.tap('[data-testid="share"]');
  await page.waitForFunction(() => window.shared.length === 1);
  const shared = await page.evaluate(() => window.shared[0]);
  assert.equal(shared.url, link, 'the whole invite link is shared');
  await onScreen(page, '[data-testid="copy"]', 'Copy beside it');
  // A browser without a share sheet shows Copy alone.
  const plain = await openPage(suite.browser, { viewport: { width: 1366, height: 900 } });
  await plain.context.addInitScript(() => { delete Navigator.prototype.share; });
  await plain.page.goto(`${suite.server.url}/signup`);
  await signUp(plain.page, uniqueName('sid'));
  await plain.page.goto(suite.server.url);
  await hydrated(plain.page);
  await plain.page.check('input[name="opponent"][value="invite"]');
  await plain.page.click('button:has-text("Start")');
  await plain.page.waitForSelector('[data-testid="invite-link"]');
  await plain.page.waitForSelector('[data-testid="copy"]');
  assert.equal(await plain.page.locator('[data-testid="share"]').count(), 0, 'no Share without a share sheet');
  assert.deepEqual([...errors, ...plain.errors], []);
  await plain.context.close();
  await context.close();
});

test('on a phone a tap on a cell zooms the board around it, and the zoom-out button brings the whole board back', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('tap'));
  await startBotGame(page, suite.server.url);
  await hydrated(page);
  await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="turn"]')?.textContent ?? ''),
    null, { timeout: 30_000 });
  const width = (cell) => page.evaluate((cell) => document.querySelector(`[data-cell="${cell}"]`).getBoundingClientRect().width, cell);
  assert.ok(await width('2,12') < 40, 'the whole board shows at first');
  // A corner cell, far from the middle: the board zooms and the cell stays in view.
  await page.tap('[data-cell="2,12"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="2,12"]').getBoundingClientRect().width >= 40);
  await settled(page);
  const frame = await page.locator('.board-frame').boundingBox();
  const cell = await page.locator('[data-cell="2,12"]').boundingBox();
  assert.ok(cell.x >= frame.x && cell.x + cell.width <= frame.x + frame.width
    && cell.y >= frame.y && cell.y + cell.height <= frame.y + frame.height,
  `the tapped cell is in the zoomed frame: ${JSON.stringify({ frame, cell })}`);
  await onScreen(page, '[data-testid="zoom-out"]', 'the zoom-out button');
  await page.screenshot({ path: path.join(artifacts, 'tap-zoomed-390.png') });
  // Out again: the whole board.
  await page.tap('[data-testid="zoom-out"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="2,12"]').getBoundingClientRect().width < 40);
  assert.equal(await page.locator('[data-testid="zoom-out"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a phone on its side and a tablet in landscape put the board on the left and the hand on the right', async () => {
  for (const viewport of [{ width: 844, height: 390 }, { width: 1024, height: 768 }]) {
    const { context, page, errors } = await openPage(suite.browser, { viewport, hasTouch: true, isMobile: viewport.width < 1000 });
    await page.goto(`${suite.server.url}/signup`);
    await signUp(page, uniqueName('side'));
    await startBotGame(page, suite.server.url);
    await hydrated(page);
    await page.waitForSelector('[data-testid="rack"] [data-slot]');
    await page.screenshot({ path: path.join(artifacts, `landscape-${viewport.width}.png`) });
    const board = await page.locator('.board-frame .board').boundingBox();
    const hand = await page.locator('[data-testid="rack"]').boundingBox();
    const play = await page.locator('button:has-text("Play")').first().boundingBox();
    assert.ok(board.x + board.width <= hand.x + 1, `${viewport.width}: the hand is right of the board: ${JSON.stringify({ board, hand })}`);
    for (const box of [board, hand, play]) {
      assert.ok(box.y >= 0 && box.y + box.height <= viewport.height + 1 && box.x + box.width <= viewport.width + 1,
        `${viewport.width}×${viewport.height}: in view: ${JSON.stringify(box)}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});
