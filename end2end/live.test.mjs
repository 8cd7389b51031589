// Live play across instances: two server instances share one Postgres; Ann plays on one, Bob on
// the other. Each sees the other come online and go away, they start a friend Blitz match from
// the Ready lobby, the Blitz clock runs on both pages, a move made on one instance shows on the
// other without a reload, and a page whose instance restarts reconnects and catches up. Behind a
// balancer, a rolling restart under load loses no acknowledged move and no page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './support/server.mjs';
import { startBalancer } from './support/balancer.mjs';
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

/**
 * Resolves with the ms it took until `testid` on `page` reads `pattern`. The wait allows for a
 * loaded machine; how fast it is is logged, and measured in docs/performance.md, not asserted.
 */
async function seenAfter(page, testid, pattern) {
  const start = Date.now();
  await waitForText(page, testid, pattern, 10_000);
  return Date.now() - start;
}

/** Resolves once `done()` holds; fails after `seconds`, saying what it waited for. */
async function until(done, what, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (!done()) {
    assert.ok(Date.now() < deadline, `waited ${seconds} s for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a move on one instance shows on the other without a reload, and presence and the Ready lobby cross instances', { skip: !postgres && 'needs ALFAKRAFT_TEST_POSTGRES_URL' }, async () => {
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
  await waitForText(bob.page, 'ready-0', /: ready/, 10_000);
  await bob.page.click('[data-testid="ready"]');
  await ann.page.waitForSelector('[data-testid="ready-lobby"] .countdown');
  await ann.page.click('[data-testid="ready"]:has-text("Not ready")');
  await waitForText(bob.page, 'ready-1', /not ready/, 10_000);
  assert.match(await bob.page.textContent('[data-testid="ready-0"]'), /not ready/);
  assert.equal(await bob.page.locator('[data-testid="ready-lobby"] .countdown').count(), 0);
  await ann.page.click('[data-testid="ready"]');
  await waitForText(bob.page, 'ready-0', /: ready/, 10_000);
  await bob.page.click('[data-testid="ready"]');
  await bob.page.waitForSelector('[data-testid="ready-lobby"] .countdown');
  await waitForText(bob.page, 'turn', /Your turn/, 15_000);
  await waitForText(ann.page, 'turn', /Waiting for bob/, 10_000);
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
    latency = await seenAfter(ann.page, 'turn', /Your turn/);
    assert.equal(await ann.page.textContent('[data-testid="score-1"]'), String(played.total));
    assert.match(await ann.page.textContent('[data-testid="last-play"]'), new RegExp(`played ${played.word}`));
  } else {
    // A rack without a two-letter word (a few percent): a pass is a move too.
    await pass(bob.page);
    latency = await seenAfter(ann.page, 'turn', /Your turn/);
  }
  // And back: Ann passes on instance one, Bob sees it on instance two.
  await pass(ann.page);
  const back = await seenAfter(bob.page, 'turn', /Your turn/);
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

  // Bob leaves: Ann sees him go away once the grace for a reload (3 s) is over.
  await bob.page.goto('about:blank');
  await ann.page.waitForSelector('[data-testid="presence-1"].away', { timeout: 10_000 });

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

/**
 * A player of pass-and-play games through the API who passes as fast as the server answers,
 * starting a new game when one ends, and retries through errors (an instance going away) until
 * `stop.now`. Records every acknowledged move as the version its game reached in `acknowledged`;
 * resolves to a check, made with the player's session, that every such game is stored at least
 * at that version. A request the balancer could not complete (an instance going away) is tried
 * again; anything else fails the test, and so do 30 s without a request that went through.
 */
async function passer(base, acknowledged, stop) {
  let cookie = '';
  const call = async (path, body, form = false) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        accept: 'application/json',
        cookie,
      },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    });
    const set = response.headers.getSetCookie()[0];
    if (set) cookie = set.split(';')[0];
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const signedUp = await call('/api/account/sign-up', { name: uniqueName('load'), password: 'a good password' }, true);
  assert.equal(signedUp.status, 200);
  let game = null;
  const games = [];
  let lastSuccess = Date.now();
  while (!stop.now) {
    assert.ok(Date.now() - lastSuccess < 30_000, 'no request went through for 30 s');
    try {
      if (!game) {
        const created = await call('/api/games/create', { new: { variant: 'Classic', dictionary: 'en',
          format: 'Casual', opponent: { PassAndPlay: { players: 2 } } } });
        game = created.body?.Ok?.id ?? null;
        if (game) games.push(game);
        continue;
      }
      const page = await call('/api/games/get', { id: game });
      const view = page.body?.Ok?.view;
      if (!view || page.body.Ok.card.phase !== 'Playing') {
        game = null;
        continue;
      }
      const acted = await call('/api/games/act', { id: game, expected_version: view.version,
        action: { Pass: { seat: view.to_move } } });
      if (acted.status === 200 && acted.body?.Ok) {
        acknowledged.set(game, Math.max(acknowledged.get(game) ?? 0, view.version + 1));
        lastSuccess = Date.now();
      }
    } catch (error) {
      // Only a connection the balancer lost (an instance went away mid-request) is expected:
      // nothing was acknowledged, so try again.
      if (!(error instanceof TypeError && /fetch failed/.test(error.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const mine = new Set(games);
  return async () => {
    for (const [id, version] of acknowledged) {
      if (!mine.has(id)) continue;
      const stored = (await call('/api/games/get', { id })).body?.Ok?.view?.version;
      assert.ok(stored >= version, `${id}: stored version ${stored} < acknowledged ${version}`);
    }
  };
}

test('a rolling restart behind a balancer loses no acknowledged move and every page reconnects', { skip: !postgres && 'needs ALFAKRAFT_TEST_POSTGRES_URL' }, async () => {
  const balancer = await startBalancer(servers.map((s) => s.url));
  const ann = await openPage(browser);
  await ann.page.goto(`${balancer.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  await ann.page.check('input[name="opponent"][value="invite"]');
  await ann.page.click('button:has-text("Start")');
  const link = new URL(await ann.page.inputValue('[data-testid="invite-link"]'));
  const bob = await joinByInvite(browser, `${balancer.url}${link.pathname}`, uniqueName('bob'));
  const path = new URL(bob.page.url()).pathname;
  await ann.page.goto(`${balancer.url}${path}`);
  await hydrated(ann.page);
  await ann.page.waitForSelector('[data-testid="presence-1"].online');

  const acknowledged = new Map();
  const stop = { now: false };
  // A pass-and-play game's version counts its moves.
  const moves = () => [...acknowledged.values()].reduce((a, b) => a + b, 0);
  const load = Promise.all([1, 2, 3, 4].map(() => passer(balancer.url, acknowledged, stop)));
  // A load that failed fails the wait at once, with its own reason.
  let failure;
  load.catch((error) => { failure = error; });
  const movesAtLeast = (n) => [() => {
    if (failure) throw failure;
    return moves() >= n;
  }, () => `${n} moves (${moves()} acknowledged)`];
  await until(...movesAtLeast(30));

  // Each instance in turn: SIGTERM, then back on its port, while the load goes on.
  const exits = [];
  for (const i of [0, 1]) {
    const port = Number(new URL(servers[i].url).port);
    const before = moves();
    const asked = Date.now();
    await servers[i].stop();
    exits.push(Date.now() - asked);
    await until(...movesAtLeast(before + 20)); // the other instance carries the load meanwhile
    servers[i] = await startServer({ databaseUrl: postgres, port });
  }
  const after = moves();
  await until(...movesAtLeast(after + 20));
  stop.now = true;
  const checks = await load;
  console.log(`rolling restart: SIGTERM to exit ${exits.join(' ms and ')} ms; ${moves()} moves acknowledged in ${acknowledged.size} games`);
  for (const ms of exits) assert.ok(ms < 10_000, `an instance took ${ms} ms to stop`);

  // Every acknowledged move is stored: each game is at least at the version its last one made.
  for (const check of checks) await check();

  // Both pages found their way back by themselves: a move on one shows on the other.
  for (const p of [ann.page, bob.page]) {
    await p.waitForSelector('[data-testid="connection-lost"]', { state: 'detached', timeout: 10_000 });
  }
  const mover = (await ann.page.textContent('[data-testid="turn"]')).includes('Your turn') ? ann : bob;
  const watcher = mover === ann ? bob : ann;
  await pass(mover.page);
  await waitForText(watcher.page, 'turn', /Your turn/, 10_000);
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
  await balancer.close();
});
