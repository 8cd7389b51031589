// Push notifications in the browser. Chromium here cannot subscribe (no network, and Playwright's
// contexts are incognito, where Chromium has no Push API): `PushManager.subscribe` fails, and the
// page must say so plainly. What this covers: the
// permission is asked only after the player presses the button; the service worker registers at
// the site's root; a push event in it shows a system notification with the notice's title, body
// and game (the event is dispatched inside the worker, since no push service can send it here). Delivery from the server,
// encryption and the VAPID signature are covered by server/tests/push.rs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage } from './support/browser.mjs';
import { signUp, uniqueName } from './support/app.mjs';

const suite = serverAndBrowser();

test('notifications are turned on from settings: permission on request, a service worker, a notification shown', async () => {
  const { context, page, errors } = await openPage(suite.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${suite.server.url}/signup`);
  await signUp(page, uniqueName('noa'));
  await page.goto(`${suite.server.url}/settings`);
  const asked = [];
  await page.exposeFunction('permissionAsked', () => asked.push(Date.now()));
  await page.evaluate(() => {
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => { window.permissionAsked(); return ask(...args); };
  });
  // Nothing is asked before the player chooses to.
  const button = page.locator('[data-testid="push-on"]');
  await button.waitFor({ state: 'visible' });
  assert.equal(asked.length, 0);
  assert.equal(await page.evaluate(() => Notification.permission), 'default');
  await context.grantPermissions(['notifications'], { origin: suite.server.url });
  await button.tap();
  await page.waitForFunction(() => document.querySelector('[data-testid="push-said"]').textContent !== '');
  assert.equal(asked.length, 1, 'asked once the button was pressed');
  const said = await page.textContent('[data-testid="push-said"]');
  assert.match(said, /could not reach its push service|on for this device/, said);
  const registered = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return registration && { scope: registration.scope, script: (registration.active || registration.installing || registration.waiting).scriptURL };
  });
  assert.equal(registered.scope, `${suite.server.url}/`);
  assert.equal(registered.script, `${suite.server.url}/sw.js`);

  // A push as the worker receives it (dispatched inside the service worker: headless Chromium
  // has no push service to subscribe with) shows a system notification with the notice's words;
  // a tap on it opens the game it names.
  const worker = context.serviceWorkers().find((w) => w.url() === `${suite.server.url}/sw.js`)
    || await context.waitForEvent('serviceworker');
  const notice = { title: 'Your turn', body: 'bob played QUIZ for 42.', url: '/game/0123', tag: '/game/0123' };
  const shown = await worker.evaluate(async (data) => {
    try {
      self.dispatchEvent(new PushEvent('push', { data }));
    } catch {
      // An event the browser did not send cannot be waited on: the notification shows anyway.
    }
    for (let i = 0; i < 50; i++) {
      const [first] = await self.registration.getNotifications();
      if (first) return { title: first.title, body: first.body, url: first.data.url };
      await new Promise((done) => setTimeout(done, 100));
    }
    return null;
  }, JSON.stringify(notice));
  assert.deepEqual(shown, { title: 'Your turn', body: 'bob played QUIZ for 42.', url: '/game/0123' });
  // Playwright's contexts are incognito, where Chromium itself logs that it has no Push API.
  assert.deepEqual(errors.filter((e) => !e.includes('Push API in incognito mode')), []);
  await context.close();
});
