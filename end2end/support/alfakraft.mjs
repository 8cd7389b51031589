// An Alfa Kraft game between two friends, each in a browser context of their own, and the shop.
import { openPage } from './browser.mjs';
import { hydrated, joinByInvite, signUp, uniqueName } from './app.mjs';
import { waitForText } from './play.mjs';

// Tall enough that the board, the power bar and the sell area are in view together: a drag
// that has to scroll the page on the way is not what a player does.
export const VIEWPORT = { width: 1280, height: 1200 };

/**
 * Ann invites Bob to Alfa Kraft (the New Game form's default); both open the game. Bob, who
 * joined, moves first.
 */
export async function friendGame(suite) {
  const ann = await openPage(suite.browser, { viewport: VIEWPORT });
  await ann.page.goto(`${suite.server.url}/signup`);
  await signUp(ann.page, uniqueName('ann'));
  await ann.page.check('input[name="opponent"][value="invite"]');
  await ann.page.click('button:has-text("Start")');
  const link = await ann.page.inputValue('[data-testid="invite-link"]');
  const bob = await joinByInvite(suite.browser, link, uniqueName('bob'), { viewport: VIEWPORT });
  await ann.page.goto(bob.page.url());
  await hydrated(ann.page);
  await waitForText(ann.page, 'turn', /Waiting for bob/);
  return { ann, bob };
}

/** Opens the shop, buys, and closes it again. */
export async function buy(page, power) {
  await page.click('[data-testid="shop"]');
  await page.click(`[data-testid="buy-${power}"]`);
  // A purchase closes the shop.
  await page.locator(`[data-testid="buy-${power}"]`).waitFor({ state: 'detached' });
}

/** The power bar's items, by name. */
export function barItems(page) {
  return page.$$eval('[data-testid="power-bar"] [data-power]', (items) => items.map((i) => i.dataset.power));
}
