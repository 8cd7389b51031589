// Accounts and invites in the browser: sign up, sign in and out, and an invite link accepted by a
// new player (who signs up on the way) or declined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage, artifacts } from './support/browser.mjs';
import { PASSWORD, hydrated, signUp, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();

/** Creates an invite game as the page's signed-in player, through the API as the page would. */
async function createInvite(page) {
  return page.evaluate(async () => {
    const response = await fetch('/api/games/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ new: {
        variant: { AlfaKraft: { language: 'English' } }, dictionary: 'en', format: 'Casual', opponent: 'Invite',
      } }),
    });
    return (await response.json()).Ok.invite_path;
  });
}

test('a player signs up, signs out, fails a sign-in with a clear message, then signs in', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  const name = uniqueName('ann');
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, name);
  assert.equal(new URL(page.url()).pathname, '/');
  await page.click('button:has-text("Sign out")');
  await page.waitForSelector('a:has-text("Sign in")');
  await page.goto(`${suite.server.url}/signin`);
  await hydrated(page);
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="password"]', 'not the password');
  await page.click('button[type="submit"]');
  assert.match(await page.textContent('[data-testid="form-error"]'), /wrong name or password/i);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
  await page.screenshot({ path: path.join(artifacts, 'signed-in.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the sign-up and sign-in forms work with no script at all, as plain form posts', async () => {
  // Before the page hydrates (or with scripts off) the forms post to the server as they are; the
  // page after hydration sends JSON to the same address. Both must be read.
  const { context, page } = await openPage(suite.browser, { javaScriptEnabled: false });
  const name = uniqueName('nia');
  /** Fills and posts the form at `path`; the page it leads to, and who is signed in then. */
  const post = async (path, password = PASSWORD) => {
    await page.goto(`${suite.server.url}${path}`);
    await page.fill('input[name="name"]', name);
    await page.fill('input[name="password"]', password);
    // The post's answer (its cookie) and the page it leads to, before going on.
    const posted = (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/account/');
    const [answer] = await Promise.all([page.waitForResponse(posted), page.click('button[type="submit"]')]);
    assert.equal(answer.status(), 302, 'a plain post is sent on to a page');
    await page.waitForLoadState();
    // Asked of the server with the browser's cookies (with scripts off the top bar may show the
    // player only once streamed in, which takes a script).
    const me = await context.request.post(`${suite.server.url}/api/account/me`, { data: {} });
    return { url: new URL(page.url()), who: (await me.json())?.name };
  };
  const signedUp = await post('/signup');
  assert.equal(signedUp.who, name, 'signed up and in');
  assert.equal(signedUp.url.pathname, '/', 'and on to the start page');
  // Signed out (the cookie dropped), a wrong password comes back to the form with the reason and
  // the name as typed; the right one then goes on to where the player was headed.
  await context.clearCookies();
  const refused = await post('/signin?next=/help', 'not the password');
  assert.equal(refused.who, undefined, 'not signed in');
  assert.equal(refused.url.pathname, '/signin');
  assert.equal(refused.url.searchParams.get('next'), '/help', 'still headed there');
  assert.equal(await page.textContent('[data-testid="form-error"]'), 'Wrong name or password.');
  assert.equal(await page.inputValue('input[name="name"]'), name, 'the name kept');
  await page.fill('input[name="password"]', PASSWORD);
  const posted = (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/account/sign-in';
  const [answer] = await Promise.all([page.waitForResponse(posted), page.click('button[type="submit"]')]);
  assert.equal(answer.status(), 302);
  await page.waitForURL((url) => url.pathname === '/help');
  const me = await context.request.post(`${suite.server.url}/api/account/me`, { data: {} });
  assert.equal((await me.json())?.name, name, 'signed in');
  await context.close();
});

test('an invite link is accepted by a new player, who signs up on the way and moves first', async () => {
  const ann = await openPage(suite.browser);
  await ann.page.goto(`${suite.server.url}/signup`);
  const annName = uniqueName('ann');
  await signUp(ann.page, annName);
  const invitePath = await createInvite(ann.page);
  assert.match(invitePath, /^\/invite\/[0-9a-f]{64}$/);

  const bob = await openPage(suite.browser, { viewport: { width: 375, height: 740 } });
  await bob.page.goto(`${suite.server.url}${invitePath}`);
  await hydrated(bob.page);
  assert.match(await bob.page.textContent('[data-testid="invite"]'), new RegExp(`${annName} 1200\\? invites you`));
  assert.ok(await bob.page.isDisabled('button:has-text("Accept")'), 'accepting needs an account');
  await bob.page.click('a:has-text("create an account")');
  await signUp(bob.page, uniqueName('bob'));
  assert.equal(new URL(bob.page.url()).pathname, invitePath, 'back on the invite');
  await bob.page.click('button:has-text("Accept")');
  // Accepting lands in the game, Bob to move; the game is in his list too.
  await bob.page.waitForURL(/\/game\//);
  await hydrated(bob.page);
  await bob.page.waitForSelector('[data-testid="turn"]:has-text("Your turn")');
  await bob.page.screenshot({ path: path.join(artifacts, 'invite-accepted-phone.png') });
  await bob.page.goto(suite.server.url);
  const card = await bob.page.waitForSelector('[data-testid="my-games"] li.my-turn');
  assert.match(await card.textContent(), new RegExp(`${annName} 1200\\? 0`));
  assert.match(await card.textContent(), /Your turn/);

  // The link is used up for anyone else.
  const carl = await openPage(suite.browser);
  await carl.page.goto(`${suite.server.url}${invitePath}`);
  await carl.page.waitForSelector('[data-testid="invite-closed"]');

  assert.deepEqual([...ann.errors, ...bob.errors, ...carl.errors], []);
  for (const p of [ann, bob, carl]) await p.context.close();
});

test('a declined invite closes and its game is called off', async () => {
  const ann = await openPage(suite.browser);
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  const invitePath = await createInvite(ann.page);
  const carl = await openPage(suite.browser);
  await carl.page.goto(`${suite.server.url}${invitePath}`);
  await hydrated(carl.page);
  await carl.page.click('button:has-text("Decline")');
  await carl.page.waitForSelector('[data-testid="invite-answer"]:has-text("declined")');
  await carl.page.reload();
  await carl.page.waitForSelector('[data-testid="invite-closed"]');
  assert.deepEqual([...ann.errors, ...carl.errors], []);
  for (const p of [ann, carl]) await p.context.close();
});
