// What the browser tests do again and again: wait for hydration, sign up, make unique names,
// join a friend's game through an invite link.
import { openPage } from './browser.mjs';

export const PASSWORD = 'a good password';

/** Waits until the page has hydrated (the top bar marks it). */
export async function hydrated(page) {
  await page.waitForSelector('nav.top-bar[data-hydrated="true"]');
}

/** Fills in the sign-up form on the current page and waits until the top bar shows the name. */
export async function signUp(page, name) {
  await hydrated(page);
  await page.fill('input[name="name"]', name);
  await page.fill('input[name="password"]', PASSWORD);
  await page.click('button[type="submit"]');
  // A new account is first offered its recovery codes; "Not now" goes on where it was headed.
  await page.waitForSelector('[data-testid="welcome-skip"]');
  await page.click('[data-testid="welcome-skip"]');
  await page.waitForURL((url) => url.pathname !== '/welcome');
  await page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
}

/** The two screens the tests look at: a touch phone and a laptop. */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
export const LAPTOP = { viewport: { width: 1366, height: 768 } };

/** A new player signed up on `base` in a browser context of their own (`options`: a screen). */
export async function newPlayer(browser, base, name, options) {
  const player = await openPage(browser, options);
  await player.page.goto(`${base}/signup`);
  await signUp(player.page, name);
  return player;
}

/**
 * Opens the start page's New Game form: a player with games finds it behind the list's New game
 * button; a visitor or a player without games has it open.
 */
export async function openNewGame(page) {
  await hydrated(page);
  const button = page.locator('[data-testid="new-game-open"]');
  if (await button.isVisible() && (await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.waitForSelector('.new-game select[name="ruleset"]', { state: 'visible' });
}

/** From the start page at `base`, a new game against the bot of `level`; waits for its page. */
export async function startBotGame(page, base, level = 'beginner') {
  await page.goto(base);
  await openNewGame(page);
  await page.check('input[name="opponent"][value="bot"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.selectOption('select[name="bot"]', level);
  await page.click('button:has-text("Start")');
  await page.waitForURL(/\/game\/[0-9a-f]{32}$/);
}

/** From the start page at `base`, a pass-and-play game for Mia and Leo; waits for its page. */
export async function startLocalGame(page, base) {
  await page.goto(base);
  await openNewGame(page);
  await page.check('input[name="opponent"][value="local"]');
  // A game on the server (the form's default is one on this device).
  await page.uncheck('input[name="device"]');
  await page.fill('input[name="local-name-0"]', 'Mia');
  await page.fill('input[name="local-name-1"]', 'Leo');
  await page.click('button:has-text("Start")');
  await page.waitForURL(/\/game\//);
  await hydrated(page);
}

/**
 * Waits until a service worker controls the page: once the worker is activated (its install
 * fetches the release's files, which takes a while on a busy machine), its claim takes the page;
 * if not, a reload does.
 */
export async function controlled(page) {
  await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.state === 'activated',
    null, { timeout: 60_000, polling: 250 });
  const claimed = await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 5_000 })
    .then(() => true, () => false);
  if (!claimed) {
    await page.reload();
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 30_000 });
  }
}

export function uniqueName(prefix) {
  return `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * A new player, in a browser context of their own, signs up and opens a friend game to play by
 * invite. Resolves to the player's handle and the invite link.
 */
export async function inviteGame(browser, base, name, options = {}) {
  const player = await openPage(browser, options);
  await player.page.goto(`${base}/signup`);
  await signUp(player.page, name);
  await player.page.goto(base);
  await hydrated(player.page);
  await player.page.check('input[name="opponent"][value="invite"]');
  await player.page.click('button:has-text("Start")');
  const link = await player.page.inputValue('[data-testid="invite-link"]');
  return { player, link };
}

/**
 * A new player opens an invite `link` in a browser context of their own, signs up on the way,
 * and accepts, which opens the game. Resolves to the opened page's handle.
 */
export async function joinByInvite(browser, link, name, options = {}) {
  const player = await openPage(browser, options);
  await player.page.goto(link);
  await hydrated(player.page);
  await player.page.click('a:has-text("create an account")');
  await signUp(player.page, name);
  await player.page.click('button:has-text("Accept")');
  // Accepting lands in the game.
  await player.page.waitForURL(/\/game\//);
  await hydrated(player.page);
  return player;
}
