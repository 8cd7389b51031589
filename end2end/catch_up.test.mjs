// Pages catch up with what changed before their live stream opened: a move committed between a
// game page's fetch and the opening of its stream (the stream is held back here to make the race
// certain), and a game created on the start page, which shows in "Your games" at once, and then
// with the last move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { hydrated, inviteGame, joinByInvite, uniqueName } from './support/app.mjs';
import { waitForText, pass } from './support/play.mjs';

const suite = serverAndBrowser();

test('a move made before the live stream opens reaches the page, and a new game lists at once', async () => {
  const { player: ann, link } = await inviteGame(suite.browser, suite.server.url, uniqueName('ann'));
  assert.ok(link.startsWith(suite.server.url), link);
  // The whole link, with a Copy button beside it, also on the waiting game's page.
  const card = ann.page.locator('[data-testid="my-games"] li[data-game]');
  await card.waitFor({ timeout: 5_000 });
  const waitingUrl = `${suite.server.url}/game/${await card.getAttribute('data-game')}`;
  // The new game shows in the list beside the form without leaving the page.
  assert.match(await ann.page.textContent('[data-testid="my-games"]'), /Waiting for an opponent/);
  await ann.page.goto(waitingUrl);
  await hydrated(ann.page);
  await ann.page.waitForFunction((l) => document.querySelector('[data-testid="invite-path"]')?.textContent === l, link);
  assert.equal(await ann.page.locator('.invite-link [data-testid="copy"]').count(), 1);

  const bobName = uniqueName('bob');
  const bob = await joinByInvite(suite.browser, link, bobName);
  const gameUrl = bob.page.url();
  // Ann's page opens with its stream held back for three seconds; Bob passes meanwhile.
  let held = 0;
  await ann.page.route('**/api/live?game=*', async (route) => {
    held += 1;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await ann.page.goto(gameUrl);
  await hydrated(ann.page);
  await waitForText(ann.page, 'turn', /Waiting for/);
  await waitForText(bob.page, 'turn', /Your turn/);
  await pass(bob.page);
  await waitForText(bob.page, 'turn', /Waiting for/);
  // Once the stream opens, the page catches up: the turn is Ann's.
  await waitForText(ann.page, 'turn', /Your turn/, 15_000);
  // The tab says so too.
  await ann.page.waitForFunction(() => document.title.startsWith('(1) Your turn'));
  assert.ok(held >= 1, 'the stream was held back');
  // Her games list says whose turn it is and what Bob last did.
  await ann.page.goto(suite.server.url);
  const listed = ann.page.locator('[data-testid="my-games"] li.my-turn');
  await listed.locator('[data-testid="last-play"]').waitFor();
  assert.equal(await listed.locator('[data-testid="last-play"]').textContent(), `${bobName} passed`);
  assert.match(await listed.textContent(), /Your turn/);
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
