// Statistics: after a rated friend game, each player's statistics page (from the profile) shows
// every figure beside its label, where the player stands among four players ranked near them
// (written to the database as an operator could), and the average score by month, on a phone
// and a laptop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { artifacts } from './support/browser.mjs';
import { inviteGame, joinByInvite, uniqueName, PHONE, LAPTOP } from './support/app.mjs';

const suite = serverAndBrowser();

/** Each figure of a statistics card: its label, its value, and whether they share a row. */
async function figures(page, card) {
  // The screen's width as set, not the page's: a phone's layout widens to what overflows it.
  const screen = page.viewportSize().width;
  return page.$$eval(`${card} dl.facts dt`, (terms, screen) => terms.map((dt) => {
    const dd = dt.nextElementSibling;
    const [a, b] = [dt.getBoundingClientRect(), dd.getBoundingClientRect()];
    return {
      label: dt.textContent.trim(),
      value: dd.textContent.trim(),
      beside: Math.abs(a.top - b.top) < 6 && b.left >= a.right - 1,
      inside: b.right <= screen + 0.5 && a.left >= 0,
    };
  }), screen);
}

test('a player\'s statistics read right beside their labels, against players near their rank, on a phone and a laptop', async () => {
  const annName = uniqueName('ann');
  const bobName = uniqueName('bob');
  const { player: ann, link } = await inviteGame(suite.browser, suite.server.url, annName, LAPTOP);
  const bob = await joinByInvite(suite.browser, link, bobName, PHONE);
  await bob.page.click('button:has-text("Resign")');
  await bob.page.click('.controls button.danger:has-text("Resign")');
  await bob.page.waitForSelector('[data-testid="summary"]');

  // Four players ranked within 100 of Ann (1220 after her win), with ten games each in her
  // ruleset and dictionary, and one of Ann's games from two months ago.
  const sql = suite.server.sql.bind(suite.server);
  for (const [i, wins] of [[1, 2], [2, 4], [3, 6], [4, 8]]) {
    const peer = `${annName}_p${i}`;
    sql('INSERT INTO users (name, password_hash, created_at, guest) VALUES (?, ?, ?, 0)', peer, 'x', Date.now());
    sql(`INSERT INTO ranks (user_id, dictionary, rank, games, updated_at)
         SELECT u.id, s.dictionary, ?, 10, ? FROM users u, player_statistics s
         WHERE u.name = ? AND s.user_id = (SELECT id FROM users WHERE name = ?)`, 1180 + 20 * i, Date.now(), peer, annName);
    sql(`INSERT INTO player_statistics (user_id, ruleset, dictionary, games, wins, draws, points,
           opponent_points, bingos, exchanges, timeouts, best_play, best_game)
         SELECT u.id, s.ruleset, s.dictionary, 10, ?, 0, ?, 3000, ?, 1, 0, 60, 400
         FROM users u, player_statistics s
         WHERE u.name = ? AND s.user_id = (SELECT id FROM users WHERE name = ?)`, wins, 2500 + 250 * i, i, peer, annName);
  }
  sql(`INSERT INTO game_results (game_id, user_id, seat, ruleset, dictionary, result, score,
         opponent_score, bingos, ended_at)
       SELECT 'earlier-' || user_id, user_id, 0, ruleset, dictionary, 'loss', 310, 350, 1, ?
       FROM player_statistics WHERE user_id = (SELECT id FROM users WHERE name = ?)`, Date.now() - 62 * 86_400_000, annName);

  for (const [who, name, size] of [[ann, annName, 'laptop'], [bob, bobName, 'phone']]) {
    const { page } = who;
    await page.goto(`${suite.server.url}/u/${name}`);
    await page.click('[data-testid="statistics-link"]');
    await page.waitForURL(new RegExp(`/u/${name}/statistics$`));
    const card = '[data-testid^="stats-"]';
    assert.equal(await page.locator(card).count(), 1, name);
    const shown = await figures(page, card);
    for (const figure of shown) {
      assert.ok(figure.beside, `${size}: ${figure.label} sits beside its value ${figure.value}`);
      assert.ok(figure.inside, `${size}: ${figure.label}'s value fits the screen`);
    }
    const value = (label) => shown.find((f) => f.label === label)?.value;
    assert.equal(value('Games'), '1', size);
    const won = name === annName;
    assert.equal(value('Won · drawn · lost'), won ? '1 · 0 · 0' : '0 · 0 · 1', size);
    assert.equal(value('Lost on time'), '0', size);
    assert.equal(value('Exchanges'), '0', size);
    // Nothing is wider than the screen; the card starts on the first screen.
    const inner = page.viewportSize().width;
    const { width, top, height } = await page.evaluate((selector) => ({
      width: document.documentElement.scrollWidth,
      top: document.querySelector(selector).getBoundingClientRect().top,
      height: window.innerHeight,
    }), card);
    assert.ok(width <= inner, `${size}: ${width} > ${inner}`);
    assert.ok(top < height / 2, `${size}: the card starts at ${top}`);
    await page.screenshot({ path: path.join(artifacts, `statistics-${size}.png`), fullPage: true });
    if (won) {
      // Ann's 100 % is ahead of all four; her average score (no play made) behind all of them.
      assert.match(value('Win rate'), /^100%ahead of 100% near this rank$/, size);
      assert.match(value('Average score'), /ahead of 0% near this rank$/, size);
      assert.equal(await page.textContent('[data-testid="compared"]'),
        'Compared with 4 players ranked within 100 of 1220 with 5 games or more here.');
      // Two months: the chart draws both.
      assert.equal(await page.locator(`${card} svg circle.point`).count(), 2, size);
    } else {
      // Bob, at 1180, has the same four within 100; one month, so no chart.
      assert.equal(value('Win rate'), '0%ahead of 0% near this rank', size);
      assert.equal(await page.textContent('[data-testid="compared"]'),
        'Compared with 4 players ranked within 100 of 1180 with 5 games or more here.');
      assert.equal(await page.locator(`${card} svg`).count(), 0, size);
    }
  }
  // A name nobody has is a 404 with a page.
  const missing = await ann.page.goto(`${suite.server.url}/u/${annName}_nobody/statistics`);
  assert.equal(missing.status(), 404);
  await ann.context.close();
  await bob.context.close();
});
