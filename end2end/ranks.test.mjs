// Ranks in the browser: two new players finish a rated friend game by resignation; both end
// cards show the rank change, both profiles the new rank, the game and a chart with one point,
// and the leaderboard lists them (its bar lowered to one game by the test-only setting).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { hydrated, joinByInvite, signUp, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_TEST_LEADERBOARD_GAMES: '1' } });

test('a rated friend game moves both ranks by 20, shown on end cards, profiles and the leaderboard', async () => {
  const annName = uniqueName('ann');
  const bobName = uniqueName('bob');
  const ann = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, annName);
  await ann.page.goto(suite.server.url);
  await hydrated(ann.page);
  await ann.page.check('input[name="opponent"][value="invite"]');
  // Rated is the default for a game against a person.
  assert.ok(await ann.page.isChecked('[data-testid="rated"]'));
  await ann.page.click('button:has-text("Start")');
  const link = await ann.page.inputValue('[data-testid="invite-link"]');

  const bob = await joinByInvite(suite.browser, link, bobName, { viewport: { width: 390, height: 844 } });
  const gameUrl = bob.page.url();
  // Both names carry their provisional rank.
  assert.match(await bob.page.textContent('[data-testid="scoreboard"]'), new RegExp(`${annName} 1200\\?`));

  await ann.page.goto(gameUrl);
  await hydrated(ann.page);
  // Bob, to move, resigns.
  await bob.page.click('button:has-text("Resign")');
  await bob.page.click('.controls button.danger:has-text("Resign")');
  for (const page of [bob.page, ann.page]) {
    await page.waitForSelector('[data-testid="summary"]');
    await page.waitForSelector('[data-testid="rank-change-0"]');
    assert.equal(await page.textContent('[data-testid="rank-change-0"]'), '+20');
    assert.equal(await page.textContent('[data-testid="rank-change-1"]'), '-20');
    assert.match(await page.textContent('[data-testid="head-to-head"]'), /You against/);
  }
  assert.match(await ann.page.textContent('[data-testid="head-to-head"]'), /1 won · 0 drawn · 0 lost/);
  assert.match(await bob.page.textContent('[data-testid="head-to-head"]'), /0 won · 0 drawn · 1 lost/);
  await bob.page.screenshot({ path: path.join(artifacts, 'rank-change-phone.png') });

  // Each profile, reached from the name in the top bar: the new rank, the game, one point.
  for (const [player, name, rank, result] of [[ann, annName, '1220?', 'Won'], [bob, bobName, '1180?', 'Lost']]) {
    await player.page.click('[data-testid="who"]');
    await player.page.waitForURL(new RegExp(`/u/${name}$`));
    assert.equal(await player.page.textContent('[data-testid="profile-name"]'), name);
    assert.equal(await player.page.textContent('[data-testid="rank-en"] .rank-now'), rank);
    assert.equal(await player.page.locator('[data-testid="rank-chart"] circle.point').count(), 1);
    const games = player.page.locator('[data-testid="recent-games"] tbody tr');
    assert.equal(await games.count(), 1);
    assert.match(await games.first().textContent(), new RegExp(result));
    assert.equal(await player.page.textContent('[data-testid="games-played"]'), '1');
  }
  // Regression: on Bob's 390 px phone the Result and Rank columns were cut off the table.
  const cut = await bob.page.$$eval('[data-testid="recent-games"] tr > *', (cells, width) =>
    cells.filter((c) => getComputedStyle(c).display !== 'none' && c.getBoundingClientRect().right > width)
      .map((c) => c.textContent), bob.page.viewportSize().width);
  assert.deepEqual(cut, [], 'every shown column of the last games fits the phone');
  assert.match(await bob.page.textContent('[data-testid="recent-games"] tbody tr'), /Lost/);
  await bob.page.screenshot({ path: path.join(artifacts, 'profile-phone.png'), fullPage: true });
  // From a profile, the opponent's name leads to theirs.
  await ann.page.click(`[data-testid="recent-games"] a:has-text("${bobName}")`);
  await ann.page.waitForURL(new RegExp(`/u/${bobName}$`));
  assert.match(await ann.page.textContent('[data-testid="profile-head-to-head"]'), /1 won/);

  // The leaderboard lists both, ann above bob.
  await ann.page.click('nav.top-bar a:has-text("Leaderboard")');
  await ann.page.waitForSelector('[data-testid="leaderboard"]');
  const rows = await ann.page.locator('[data-testid="leaderboard"] tbody tr').allTextContents();
  const place = (name) => rows.findIndex((row) => row.includes(name));
  assert.ok(place(annName) >= 0 && place(bobName) > place(annName), rows.join('\n'));
  await ann.page.screenshot({ path: path.join(artifacts, 'leaderboard.png') });

  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
