// Leagues as players meet them: an admin makes one, two players register on a phone and a
// laptop, the season starts when registration closes, both find their division and their two
// games, and a game's end shows in the standings, live on the other player's open page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { artifacts } from './support/browser.mjs';
import { LAPTOP, PHONE, hydrated, newPlayer as appNewPlayer, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();

/** A new player signed up in a browser context of their own. */
const newPlayer = (name, options) => appNewPlayer(suite.browser, suite.server.url, name, options);

/** The page is no wider than its window, and `locator` lies within it across. */
async function fits(page, locator, what) {
  assert.ok(await page.evaluate((width) => document.documentElement.scrollWidth <= width, page.viewportSize().width), `${what}: nothing wider than the screen`);
  const box = await locator.boundingBox();
  const { width } = page.viewportSize();
  assert.ok(box && box.x >= 0 && box.x + box.width <= width + 1, `${what} fits across: ${JSON.stringify(box)}`);
}

test('two players register for a league, meet in its division and see a game\'s end in the standings', async () => {
  const adminName = uniqueName('ada');
  const admin = await newPlayer(adminName, LAPTOP);
  suite.server.makeAdmin(adminName);
  await admin.page.goto(`${suite.server.url}/leagues`);
  await admin.page.fill('[data-testid="create-league"] input[name="name"]', 'Classic Casual');
  await admin.page.selectOption('[data-testid="create-league"] select[name="ruleset"]', 'classic');
  await admin.page.selectOption('[data-testid="create-league"] select[name="dictionary"]', 'en');
  await admin.page.click('[data-testid="create-league-button"]');
  const league = admin.page.locator('section.league', { hasText: 'Classic Casual' });
  await league.waitFor();
  assert.match(await league.textContent(), /Season 1: registration until .+ · Players: 0/);

  const ann = await newPlayer(uniqueName('ann'), PHONE);
  const bob = await newPlayer(uniqueName('bob'), LAPTOP);
  for (const player of [ann, bob]) {
    // The menu leads there.
    await player.page.goto(`${suite.server.url}/`);
    await hydrated(player.page);
    await player.page.goto(`${suite.server.url}/leagues`);
    await player.page.locator('section.league', { hasText: 'Classic Casual' }).locator('a').first().click();
    await player.page.click('[data-testid="register"]');
    await player.page.waitForSelector('[data-testid="registered-me"]');
  }
  assert.match(await bob.page.textContent('[data-testid="registered"]'), /ann_.*bob_/);
  await ann.page.reload();
  await fits(ann.page, ann.page.locator('[data-testid="unregister"]'), 'the registration');
  await ann.page.screenshot({ path: path.join(artifacts, 'league-registration-390.png') });

  // Registration closes; the league's task starts the season within seconds.
  suite.server.sql("UPDATE league_seasons SET starts_at = ? WHERE status = 'registration'", Date.now() - 1);
  for (const player of [ann, bob]) {
    for (let tries = 0; !(await player.page.locator('section.division').count()); tries += 1) {
      assert.ok(tries < 60, `the season started: ${player.page.url()} ${(await player.page.content()).slice(0, 3000)}`);
      await player.page.waitForTimeout(500);
      await player.page.reload();
    }
  }
  assert.match(await ann.page.textContent('[data-testid="season"]'), /Season 1: under way · Players: 2/);
  const games = ann.page.locator('[data-testid="my-league-games"] li');
  assert.equal(await games.count(), 2, 'two games against bob, one each to start');
  assert.match(await games.first().textContent(), /against bob_/);
  assert.match(await ann.page.textContent('[data-testid="bank"]'), /Your time bank: 3 days\./);
  const division = ann.page.locator('section.division[data-division="1"]');
  await fits(ann.page, division, 'the division on a phone');
  await ann.page.screenshot({ path: path.join(artifacts, 'league-division-390.png'), fullPage: true });

  // Bob keeps the league open while Ann resigns the game that waits on her: his standings count
  // it for both without a reload.
  await bob.page.evaluate(() => { window.notReloaded = true; });
  await ann.page.locator('[data-testid="my-league-games"] li.mine a').first().click();
  await hydrated(ann.page);
  await ann.page.click('button:has-text("Resign")');
  await ann.page.click('.controls button.danger:has-text("Resign")');
  await ann.page.waitForSelector('[data-testid="turn"]:has-text("The game is over.")');
  await ann.page.goBack();
  await ann.page.reload();
  const annName = (await ann.page.textContent('[data-testid="who"]')).trim();
  const line = (name) => ann.page.locator(`[data-testid="standing-${name}"]`);
  assert.equal(await line(annName).locator('[data-testid="record"]').textContent(), '0–0–1');
  const bobName = (await bob.page.textContent('[data-testid="who"]')).trim();
  assert.equal(await line(bobName).locator('[data-testid="record"]').textContent(), '1–0–0');
  // Bob, who won, is first.
  assert.equal(await ann.page.locator('section.division tbody tr').first().getAttribute('data-testid'), `standing-${bobName}`);
  await ann.page.screenshot({ path: path.join(artifacts, 'league-standings-390.png'), fullPage: true });
  await bob.page.waitForFunction((name) => document.querySelector(`[data-testid="standing-${name}"] [data-testid="record"]`)?.textContent === '1–0–0', bobName);
  assert.ok(await bob.page.evaluate(() => window.notReloaded), 'the standings changed live, in place');
  await fits(bob.page, bob.page.locator('section.division[data-division="1"]'), 'the division on a laptop');
  await bob.page.screenshot({ path: path.join(artifacts, 'league-standings-1366.png') });
  assert.deepEqual([...admin.errors, ...ann.errors, ...bob.errors], []);
  for (const player of [admin, ann, bob]) await player.context.close();
});
