// Accounts and invites in the browser: sign up, sign in and out, and an invite link accepted by a
// new player (who signs up on the way) or declined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
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
  assert.equal(signedUp.url.pathname, '/welcome', 'offered recovery codes first');
  assert.equal(signedUp.url.searchParams.get('next'), '/', 'then on to the start page');
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

test('a new password signs out the other device; a recovery code sets a new one, once', async () => {
  const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
  const name = uniqueName('sam');
  const laptop = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  const phone = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, userAgent: PHONE_UA });
  await laptop.page.goto(`${suite.server.url}/signup`);
  await signUp(laptop.page, name);
  await phone.page.goto(`${suite.server.url}/signin`);
  await hydrated(phone.page);
  await phone.page.fill('input[name="name"]', name);
  await phone.page.fill('input[name="password"]', PASSWORD);
  await phone.page.click('button[type="submit"]');
  await phone.page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);

  // The laptop lists both sessions, the phone by its browser and system.
  await laptop.page.goto(`${suite.server.url}/settings`);
  const sessions = laptop.page.locator('[data-testid="sessions"] li');
  assert.equal(await sessions.count(), 2);
  assert.match(await laptop.page.textContent('[data-testid="sessions"]'), /Chrome on Android/);
  assert.match(await laptop.page.textContent('[data-testid="sessions"] li[data-current="true"]'), /this one/);

  // A new password, from the laptop: the phone is signed out, the laptop is not.
  await laptop.page.fill('input[name="current"]', PASSWORD);
  await laptop.page.fill('input[name="new"]', 'another good password');
  await laptop.page.click('[data-testid="change-password"]');
  await laptop.page.waitForSelector('[data-testid="said"]:has-text("Done.")');
  assert.equal(await sessions.count(), 1);
  await phone.page.goto(suite.server.url);
  await hydrated(phone.page);
  assert.equal(await phone.page.locator(`[data-testid="who"]:has-text("${name}")`).count(), 0);

  // Everything kept about her, as a file.
  const [download] = await Promise.all([
    laptop.page.waitForEvent('download'),
    laptop.page.click('[data-testid="export"]'),
  ]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.account.name, name);
  assert.ok(Array.isArray(exported.games) && Array.isArray(exported.chats));

  // Recovery codes, shown once, for the password (a session alone makes none); then a
  // forgotten password.
  const codesForm = laptop.page.locator('form:has([data-testid="new-codes"])');
  await codesForm.locator('input[name="password"]').fill('not the password');
  await laptop.page.click('[data-testid="new-codes"]');
  await laptop.page.waitForSelector('[data-testid="said"]');
  assert.match(await laptop.page.textContent('[data-testid="said"]'), /not your current password/);
  await codesForm.locator('input[name="password"]').fill('another good password');
  await laptop.page.click('[data-testid="new-codes"]');
  const codes = await laptop.page.locator('[data-testid="recovery-codes"] code').allTextContents();
  assert.equal(codes.length, 10);
  await phone.page.goto(`${suite.server.url}/signin`);
  await hydrated(phone.page);
  await phone.page.tap('[data-testid="forgot"]');
  await phone.page.waitForSelector('[data-testid="reset"]');
  const reset = async (code) => {
    await phone.page.fill('input[name="name"]', name);
    await phone.page.fill('input[name="code"]', code);
    await phone.page.fill('input[name="password"]', 'a third good password');
    await phone.page.tap('button[type="submit"]');
  };
  await reset(codes[3]);
  await phone.page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
  // The laptop's session went with the old password; the same code does not work twice.
  await laptop.page.goto(`${suite.server.url}/settings`);
  assert.match(new URL(laptop.page.url()).pathname, /^\/signin/);
  await phone.page.goto(`${suite.server.url}/reset`);
  await reset(codes[3]);
  await phone.page.waitForSelector('[data-testid="reset"] [role="alert"]');
  assert.match(await phone.page.textContent('[data-testid="reset"] [role="alert"]'), /name and recovery code do not match/);
  for (const handle of [laptop, phone]) {
    assert.deepEqual(handle.errors, []);
    await handle.context.close();
  }
});

/** The code an authenticator app shows for a base32 `secret`, `steps` periods from now (RFC 6238). */
function totp(secret, steps = 0) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/=+$/, '')].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from(bits.match(/.{8}/g).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30000) + steps));
  const mac = createHmac('sha1', key).update(counter).digest();
  const at = mac[mac.length - 1] & 15;
  const number = ((mac[at] & 127) << 24 | mac[at + 1] << 16 | mac[at + 2] << 8 | mac[at + 3]) % 1e6;
  return String(number).padStart(6, '0');
}

test('a new player is offered recovery codes at sign-up, then goes on where they were headed', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const name = uniqueName('wen');
  await page.goto(`${suite.server.url}/signup?next=/help`);
  await hydrated(page);
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="password"]', PASSWORD);
  await page.tap('button[type="submit"]');
  await page.waitForSelector('[data-testid="welcome"]');
  await page.fill('[data-testid="welcome"] input[name="password"]', PASSWORD);
  await page.screenshot({ path: path.join(artifacts, 'welcome-390.png') });
  const button = await page.locator('[data-testid="welcome-codes"]').boundingBox();
  assert.ok(button.y + button.height <= 844 && button.x + button.width <= 390, 'the offer is on the first screen');
  await page.tap('[data-testid="welcome-codes"]');
  await page.waitForSelector('[data-testid="recovery-codes"] code');
  const codes = await page.locator('[data-testid="recovery-codes"] code').allTextContents();
  assert.equal(codes.length, 10);
  assert.ok(codes.every((code) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(code)), codes.join(' '));
  await page.screenshot({ path: path.join(artifacts, 'welcome-codes-390.png') });
  // To keep them: a file to download, holding exactly the codes, and a Copy button.
  const download = page.locator('[data-testid="codes-download"]');
  assert.equal(await download.getAttribute('download'), 'alfakraft-recovery-codes.txt');
  assert.equal(decodeURIComponent((await download.getAttribute('href')).replace(/^data:text\/plain;charset=utf-8,/, '')), codes.join('\n'));
  assert.equal(await page.locator('[data-testid="codes-copy"]').getAttribute('data-codes'), codes.join('\n'));
  await page.tap('[data-testid="codes-done"]');
  await page.waitForURL((url) => url.pathname === '/help');
  await page.goto(`${suite.server.url}/settings`);
  assert.match(await page.textContent('[data-testid="codes-left"]'), /10 unused codes/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('two-factor sign-in is set up from settings and asked for at sign-in', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  const name = uniqueName('tof');
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, name);
  // A code made in one 30-second step and checked in the next is still right (one step either
  // side passes), so the test need not race the clock; it only waits out a step's last seconds.
  const second = (Date.now() / 1000) % 30;
  if (second > 20) await new Promise((done) => setTimeout(done, (30.5 - second) * 1000));
  await page.goto(`${suite.server.url}/settings`);
  await page.click('[data-testid="two-factor-begin"]');
  // The page comes back at the QR code to scan, not at its top.
  await page.waitForURL((url) => url.hash === '#two-factor');
  const qr = await page.locator('[data-testid="two-factor"] a.qr').boundingBox();
  assert.ok(qr.y >= 0 && qr.y < page.viewportSize().height, `the QR code is on screen: ${JSON.stringify(qr)}`);
  const secret = await page.textContent('[data-testid="two-factor-secret"]');
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(await page.locator('[data-testid="two-factor"] svg').count(), 1, 'a QR code to scan');
  assert.match(await page.getAttribute('[data-testid="two-factor"] a.qr', 'href'), new RegExp(`^otpauth://totp/Alfa%20Kraft:${name}\\?secret=${secret}&`));
  await page.locator('[data-testid="two-factor"]').screenshot({ path: path.join(artifacts, 'two-factor-setup.png') });
  await page.fill('[data-testid="two-factor-code"]', totp(secret));
  await page.click('[data-testid="two-factor-confirm"]');
  await page.waitForSelector('[data-testid="two-factor-on"]');

  // Signed out, the password alone asks for the code; a wrong one is refused, the app's passes.
  await context.clearCookies();
  await page.goto(`${suite.server.url}/signin?next=/help`);
  await hydrated(page);
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForSelector('[data-testid="code"]');
  assert.match(await page.textContent('[data-testid="form-error"]'), /code from your authenticator app/);
  await page.fill('[data-testid="code"]', totp(secret) === '000000' ? '111111' : '000000');
  await page.click('button[type="submit"]');
  await page.waitForSelector('[data-testid="form-error"]:has-text("not right")');
  await page.fill('[data-testid="code"]', totp(secret, 1));
  await page.click('button[type="submit"]');
  await page.waitForURL((url) => url.pathname === '/help');
  await page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a closed account leaves its games to the opponent as a deleted player', async () => {
  const ann = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const annName = uniqueName('cla');
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, annName);
  const invitePath = await createInvite(ann.page);
  const bob = await openPage(suite.browser, { viewport: { width: 1366, height: 768 } });
  await bob.page.goto(`${suite.server.url}/signup?next=${invitePath}`);
  await signUp(bob.page, uniqueName('clb'));
  await bob.page.click('button:has-text("Accept")');
  await bob.page.waitForURL(/\/game\//);
  const gamePath = new URL(bob.page.url()).pathname;
  await hydrated(bob.page);
  assert.match(await bob.page.textContent('[data-testid="scoreboard"]'), new RegExp(annName));

  // Ann closes her account: a wrong password first, then hers.
  await ann.page.goto(`${suite.server.url}/settings`);
  const close = async (password) => {
    await ann.page.fill('[data-testid="close-account"] input[name="password"]', password);
    await ann.page.tap('[data-testid="close-account"] button');
  };
  await close('not my password');
  await ann.page.waitForSelector('[data-testid="said"]');
  assert.match(await ann.page.textContent('[data-testid="said"]'), /That is not your current password\./);
  await close(PASSWORD);
  await ann.page.waitForSelector('[data-testid="goodbye"]');
  await ann.page.screenshot({ path: path.join(artifacts, 'account-closed-390.png') });
  const me = await ann.context.request.post(`${suite.server.url}/api/account/me`, { data: {} });
  assert.equal(await me.json(), null, 'signed out');
  const profile = await ann.context.request.get(`${suite.server.url}/player/${annName}`);
  assert.equal(profile.status(), 404, 'no profile left');

  // Bob's game: Ann resigned it on closing, and her seat reads "deleted player".
  await bob.page.goto(`${suite.server.url}${gamePath}`);
  await hydrated(bob.page);
  const board = await bob.page.textContent('[data-testid="scoreboard"]');
  assert.match(board, /deleted player/);
  assert.doesNotMatch(board, new RegExp(annName));
  await bob.page.waitForSelector('[data-testid="summary"]');
  await bob.page.screenshot({ path: path.join(artifacts, 'deleted-player.png') });
  const [download] = await Promise.all([
    bob.page.waitForEvent('download'),
    bob.page.goto(`${suite.server.url}/settings`).then(() => bob.page.click('[data-testid="export"]')),
  ]);
  const exported = readFileSync(await download.path(), 'utf8');
  assert.match(exported, /deleted player/);
  assert.doesNotMatch(exported, new RegExp(annName));
  for (const handle of [ann, bob]) {
    assert.deepEqual(handle.errors, []);
    await handle.context.close();
  }
});

test('the forms that guard an account ask for the password and fit a phone and a laptop', async () => {
  const name = uniqueName('key');
  for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 768 }]) {
    const phone = viewport.width < 500;
    const { context, page, errors } = await openPage(suite.browser, { viewport, hasTouch: phone, isMobile: phone });
    if (phone) {
      await page.goto(`${suite.server.url}/signup`);
      await signUp(page, name);
    } else {
      await page.goto(`${suite.server.url}/signin`);
      await hydrated(page);
      await page.fill('input[name="name"]', name);
      await page.fill('input[name="password"]', PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
    }
    await page.goto(`${suite.server.url}/settings`);
    // New recovery codes: the password beside the button, both inside the card and the screen.
    const form = page.locator('form:has([data-testid="new-codes"])');
    await form.scrollIntoViewIfNeeded();
    const card = await page.locator('section:has([data-testid="new-codes"])').boundingBox();
    const field = await form.locator('input[name="password"]').boundingBox();
    const button = await page.locator('[data-testid="new-codes"]').boundingBox();
    for (const box of [field, button]) {
      assert.ok(box.x >= card.x && box.x + box.width <= card.x + card.width + 1, `${viewport.width}: inside its card`);
    }
    assert.ok(field.y < button.y, 'the password comes before the button');
    assert.ok(await page.evaluate((width) => document.documentElement.scrollWidth <= width, page.viewportSize().width), 'nothing wider than the screen');
    await page.locator('section:has([data-testid="new-codes"])').screenshot({ path: path.join(artifacts, `codes-form-${viewport.width}.png`) });
    // After a reset of an account with a second factor, sign-in says the password is set and
    // asks for both, on the first screen.
    await page.goto(`${suite.server.url}/signin?refused=password-set`);
    await hydrated(page);
    const said = page.locator('[data-testid="form-error"]');
    assert.match(await said.textContent(), /new password is set.*authenticator/);
    const box = await said.boundingBox();
    assert.ok(box.y + box.height <= viewport.height && box.x + box.width <= viewport.width, `${viewport.width}: the message on the first screen`);
    await page.screenshot({ path: path.join(artifacts, `password-set-${viewport.width}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
