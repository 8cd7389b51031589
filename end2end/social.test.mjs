// Friends, chat, blocks and moderation in the browser. Ann is on a phone (390×844, touch), Bob on
// a laptop. They follow each other from their profiles and see each other online on the Friends
// page; Ann challenges Bob from there, the challenge appears on Bob's start page live and he
// accepts; they chat during the game (quick replies, a typed message); Ann reports one of Bob's
// messages and an admin mutes him from the moderation queue, which Bob then sees. Last, Ann
// blocks Bob, and every way Bob could reach her is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage } from './support/browser.mjs';
import { hydrated, signUp, uniqueName } from './support/app.mjs';

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };
const suite = serverAndBrowser();

/** A new player in a context of their own, signed up, on the start page. */
async function player(name, options) {
  const handle = await openPage(suite.browser, options);
  await handle.page.goto(`${suite.server.url}/signup`);
  await signUp(handle.page, name);
  return handle;
}

/** Calls a server function from `page` as a script on it would; resolves to the JSON answer. */
async function call(page, path, args) {
  return page.evaluate(async ([path, args]) => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(args),
    });
    return { status: response.status, body: await response.json() };
  }, [path, args]);
}

function newGame(opponent) {
  return { new: { variant: 'Classic', dictionary: 'en', format: 'Casual', opponent, rated: true } };
}

test('friends follow, challenge and chat; an admin mutes a reported player; a block closes every way', async () => {
  const [annName, bobName, adminName] = [uniqueName('ann'), uniqueName('bob'), uniqueName('mod')];
  const ann = await player(annName, PHONE);
  const bob = await player(bobName, LAPTOP);

  // Each follows the other from their profile (a page without scripts: plain forms).
  for (const [who, other] of [[ann, bobName], [bob, annName]]) {
    await who.page.goto(`${suite.server.url}/u/${other}`);
    await who.page.click('[data-testid="follow"]');
    await who.page.waitForSelector('[data-testid="unfollow"]');
  }

  // Both on their start pages (a live page each): each sees the other online.
  for (const who of [ann, bob]) {
    await who.page.goto(suite.server.url);
    await hydrated(who.page);
  }
  for (const [who, other] of [[ann, bobName], [bob, annName]]) {
    const page = await who.context.newPage();
    await page.goto(`${suite.server.url}/friends`);
    await page.waitForSelector(`[data-testid="following"] [data-friend="${other}"][data-online="true"]`);
    await page.close();
  }

  // Ann challenges Bob from the Friends page; the form opens with Bob's name.
  await ann.page.goto(`${suite.server.url}/friends`);
  await ann.page.click(`[data-friend="${bobName}"] [data-testid="challenge"]`);
  await hydrated(ann.page);
  assert.equal(await ann.page.inputValue('[data-testid="friend-name"]'), bobName);
  await ann.page.click('button:has-text("Start")');
  await ann.page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  // Bob's start page shows it without a reload; he accepts and lands in the game.
  await bob.page.waitForSelector('[data-testid="challenges"]');
  assert.match(await bob.page.textContent('[data-testid="challenges"]'), new RegExp(annName));
  await bob.page.click('[data-testid="challenges"] button:has-text("Accept")');
  await bob.page.waitForURL(/\/game\/[0-9a-f]{32}$/);
  assert.equal(new URL(bob.page.url()).pathname, new URL(ann.page.url()).pathname);
  await hydrated(bob.page);
  await ann.page.waitForSelector('[data-testid="chat"]');

  // Chat: Ann types on the phone; Bob sees it live. Bob answers with a quick reply.
  const started = Date.now();
  await ann.page.fill('[data-testid="chat"] input[name="text"]', 'Good luck <b>Bob</b>!');
  await ann.page.tap('[data-testid="chat"] button[type="submit"]');
  await bob.page.waitForSelector('[data-testid="chat"] .chat-line:has-text("Good luck <b>Bob</b>!")', { timeout: 10_000 });
  console.log(`chat: a message reached the other page in ${Date.now() - started} ms`);
  await bob.page.click('[data-testid="chat"] .quick-replies button:has-text("Thanks!")');
  await ann.page.waitForSelector('[data-testid="chat"] .chat-line:has-text("Thanks!")');
  // Escaped: the markup is text, not an element.
  assert.equal(await bob.page.locator('[data-testid="chat"] .chat-text b').count(), 0);

  // Ann reports Bob's message, with a reason.
  const line = ann.page.locator('[data-testid="chat"] .chat-line', { hasText: 'Thanks!' });
  await line.locator('button:has-text("Report")').tap();
  await line.locator('input[name="reason"]').fill('sarcastic thanks');
  await line.locator('button:has-text("Send the report")').tap();
  await ann.page.waitForSelector('[data-testid="chat"] :text("Reported")');

  // An admin mutes Bob from the queue, where the message stands in its context.
  const admin = await player(adminName, LAPTOP);
  suite.server.makeAdmin(adminName);
  await admin.page.goto(`${suite.server.url}/admin/moderation`);
  const report = admin.page.locator('[data-testid="queue"] li[data-report]', { hasText: bobName });
  assert.match(await report.locator('[data-testid="context"]').textContent(), /Good luck.*Thanks!/s);
  // The reported line stands out from its context: bolder, and the context fainter.
  const weights = await report.locator('[data-testid="context"] li').evaluateAll((lines) => lines.map((l) => ({
    reported: l.classList.contains('reported'), weight: Number(getComputedStyle(l).fontWeight), color: getComputedStyle(l).color,
  })));
  const reportedLine = weights.find((w) => w.reported);
  assert.ok(reportedLine && weights.filter((w) => !w.reported).every((w) => w.weight < reportedLine.weight && w.color !== reportedLine.color),
    `the reported line stands out: ${JSON.stringify(weights)}`);
  await report.locator('select[name="action"]').selectOption('mute');
  await report.locator('input[name="amount"]').fill('24');
  await report.locator('input[name="reason"]').fill('be kind');
  await report.locator('button:has-text("Decide")').click();
  await admin.page.waitForSelector('[data-testid="sanctioned"] li:has-text("be kind")');
  // Times read in the admin's own time, not in UTC.
  assert.doesNotMatch(await admin.page.textContent('[data-testid="sanctioned"]'), /UTC/);
  // A player is answered 404 there, as for the dictionary panel.
  assert.equal((await bob.page.request.get(`${suite.server.url}/admin/moderation`)).status(), 404);

  // Bob sees what was done, why and until when, and cannot write.
  await bob.page.reload();
  await hydrated(bob.page);
  assert.match(await bob.page.textContent('[data-testid="standing"]'), /muted until .*be kind/s);
  assert.doesNotMatch(await bob.page.textContent('[data-testid="standing"]'), /UTC/, 'in his own time');
  await bob.page.waitForSelector('[data-testid="chat"] [data-testid="silenced"]');
  assert.equal((await call(bob.page, '/api/chat/send', { game: gameId(bob), text: 'hi' })).body.Err.Social.Muted !== undefined, true);

  // Ann blocks Bob, from his profile.
  await ann.page.goto(`${suite.server.url}/u/${bobName}`);
  await ann.page.tap('[data-testid="block"]');
  await ann.page.waitForSelector('[data-testid="unblock"]');
  // Where she could unblock, she is told what the block took for good.
  assert.match(await ann.page.textContent('[data-testid="unblock-note"]'), /follows.*not bring them back/);
  await ann.page.goto(suite.server.url);
  await hydrated(ann.page);
  // Ann opens a lobby game and an invite link; neither reaches Bob.
  const lobby = (await call(ann.page, '/api/games/create', newGame('Lobby'))).body.Ok.id;
  const invite = (await call(ann.page, '/api/games/create', newGame('Invite'))).body.Ok.invite_path.slice(8);
  // Bob hears what any name that is nobody's gets: nothing tells him of the block.
  const nobody = (name) => ({ Err: { Social: { NoSuchPlayer: name } } });
  assert.deepEqual((await call(bob.page, '/api/games/create', newGame({ Friend: { name: annName } }))).body, nobody(annName));
  assert.deepEqual((await call(bob.page, '/api/friends/follow', { name: annName })).body, nobody(annName));
  assert.deepEqual((await call(bob.page, '/api/friends/follow', { name: 'zz_nobody_zz' })).body, nobody('zz_nobody_zz'));
  const listed = (await call(bob.page, '/api/lobby/list', {})).body.map((g) => g.id);
  assert.ok(!listed.includes(lobby), 'a blocked player sees the lobby game');
  assert.deepEqual((await call(bob.page, '/api/lobby/join', { id: lobby })).body, { Err: 'NoSuchGame' });
  assert.deepEqual((await call(bob.page, '/api/invites/answer', { token: invite, accept: true })).body, { Err: 'InviteClosed' });
  // And the follows between them are gone.
  const annFriends = (await call(ann.page, '/api/friends/list', {})).body.Ok;
  assert.deepEqual(annFriends.following, []);

  for (const handle of [ann, bob, admin]) {
    assert.deepEqual(handle.errors, []);
    await handle.context.close();
  }
});

/** The game a player's page shows. */
function gameId(handle) {
  return new URL(handle.page.url()).pathname.split('/')[2];
}
