// Live play across instances: two server instances share one Postgres; Ann plays on one, Bob on
// the other. Each sees the other come online and go away, they start a friend Blitz match from
// the Ready lobby, the Blitz clock runs on both pages, a move made on one instance shows on the
// other without a reload, and a page whose instance restarts reconnects and catches up.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { launchBrowser, openPage } from './support/browser.mjs';
import { hydrated, joinByInvite, signUp, uniqueName } from './support/app.mjs';
import { typeAWord, waitForText, pass } from './support/play.mjs';

const postgres = process.env.ALFAKRAFT_TEST_POSTGRES_URL;
let servers = [];
let browser;

before(async () => {
  if (!postgres) return;
  servers = [await startServer({ databaseUrl: postgres }), await startServer({ databaseUrl: postgres })];
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  for (const server of servers) await server.stop();
});

/** Resolves with the ms it took until `testid` on `page` reads `pattern` (at most one second). */
async function seenWithin(page, testid, pattern) {
  const start = Date.now();
  await waitForText(page, testid, pattern, 1_000);
  return Date.now() - start;
}

test('a move on one instance shows on the other within a second', { skip: !postgres && 'needs ALFAKRAFT_TEST_POSTGRES_URL' }, async () => {
  const [one, two] = servers;
  const ann = await openPage(browser);
  await ann.page.goto(`${one.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  await ann.page.check('input[name="opponent"][value="invite"]');
  await ann.page.selectOption('select[name="format"]', 'blitz');
  await ann.page.click('button:has-text("Start")');
  const link = new URL(await ann.page.inputValue('[data-testid="invite-link"]'));

  // Bob takes the link to the other instance.
  const bob = await joinByInvite(browser, `${two.url}${link.pathname}`, uniqueName('bob'));
  const path = new URL(bob.page.url()).pathname;

  await ann.page.goto(`${one.url}${path}`);
  await hydrated(ann.page);
  // Presence crosses instances: each sees the other online.
  await ann.page.waitForSelector('[data-testid="presence-1"].online');
  await bob.page.waitForSelector('[data-testid="presence-0"].online');

  // The Ready lobby: a friend Blitz match starts 3 s after both are ready. Un-readying during
  // the countdown stops it and clears both flags.
  await ann.page.click('[data-testid="ready"]');
  await waitForText(bob.page, 'ready-0', /: ready/, 1_000);
  await bob.page.click('[data-testid="ready"]');
  await ann.page.waitForSelector('[data-testid="ready-lobby"] .countdown');
  await ann.page.click('[data-testid="ready"]:has-text("Not ready")');
  await waitForText(bob.page, 'ready-1', /not ready/, 1_000);
  assert.match(await bob.page.textContent('[data-testid="ready-0"]'), /not ready/);
  assert.equal(await bob.page.locator('[data-testid="ready-lobby"] .countdown').count(), 0);
  await ann.page.click('[data-testid="ready"]');
  await waitForText(bob.page, 'ready-0', /: ready/, 1_000);
  await bob.page.click('[data-testid="ready"]');
  await bob.page.waitForSelector('[data-testid="ready-lobby"] .countdown');
  await waitForText(bob.page, 'turn', /Your turn/, 6_000);
  await waitForText(ann.page, 'turn', /Waiting for bob/, 1_000);
  await bob.page.waitForFunction(() => document.querySelectorAll('[data-testid="rack"] .hand-tile').length === 7);
  // The Blitz clock runs for the player to move, on both pages.
  for (const page of [ann.page, bob.page]) {
    assert.match(await page.textContent('[data-testid="clock"]'), /^[12]:\d\d$/);
  }

  // Bob moves on instance two; Ann, on instance one, sees it without a reload.
  let played = await typeAWord(bob.page);
  let latency;
  if (played) {
    await bob.page.keyboard.press('Enter');
    latency = await seenWithin(ann.page, 'turn', /Your turn/);
    assert.equal(await ann.page.textContent('[data-testid="score-1"]'), String(played.total));
    assert.match(await ann.page.textContent('[data-testid="last-play"]'), new RegExp(`played ${played.word}`));
  } else {
    // A rack without a two-letter word (a few percent): a pass is a move too.
    await pass(bob.page);
    latency = await seenWithin(ann.page, 'turn', /Your turn/);
  }
  // And back: Ann passes on instance one, Bob sees it on instance two.
  await pass(ann.page);
  const back = await seenWithin(bob.page, 'turn', /Your turn/);
  console.log(`live latency across instances: ${latency} ms and ${back} ms`);

  // Instance two goes down and comes back: Bob's page reconnects by itself and catches up with
  // what Ann did meanwhile (she resigned).
  const port = Number(new URL(two.url).port);
  await two.stop();
  // The page says so while it retries...
  await bob.page.waitForSelector('[data-testid="connection-lost"]', { timeout: 10_000 });
  await ann.page.click('button:has-text("Resign")');
  await ann.page.click('.controls button.danger:has-text("Resign")');
  await ann.page.waitForSelector('[data-testid="summary"]');
  servers[1] = await startServer({ databaseUrl: postgres, port });
  await bob.page.waitForSelector('[data-testid="summary"]', { timeout: 10_000 });
  // ...and no more once it is back.
  await bob.page.waitForSelector('[data-testid="connection-lost"]', { state: 'detached', timeout: 10_000 });
  await ann.page.waitForSelector('[data-testid="presence-1"].online');

  // Bob leaves: Ann sees him go away.
  await bob.page.goto('about:blank');
  await ann.page.waitForSelector('[data-testid="presence-1"].away', { timeout: 5_000 });

  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});

test('the lobby shows a game opened on the other instance without a reload', { skip: !postgres && 'needs ALFAKRAFT_TEST_POSTGRES_URL' }, async () => {
  const [one, two] = servers;
  const bob = await openPage(browser);
  await bob.page.goto(`${two.url}/signup`);
  await signUp(bob.page, uniqueName('bob'));
  await bob.page.goto(`${two.url}/lobby`);
  await hydrated(bob.page);
  const ann = await openPage(browser);
  await ann.page.goto(`${one.url}/signup`);
  const name = uniqueName('ann');
  await signUp(ann.page, name);
  await ann.page.check('input[name="opponent"][value="lobby"]');
  await ann.page.click('button:has-text("Start")');
  await bob.page.waitForSelector(`[data-testid="lobby"] :text("${name}")`, { timeout: 5_000 });
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
