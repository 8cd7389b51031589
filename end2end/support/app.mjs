// What the browser tests do again and again: wait for hydration, sign up, make unique names.

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
  await page.waitForSelector(`[data-testid="who"]:has-text("${name}")`);
}

export function uniqueName(prefix) {
  return `${prefix}_${Math.random().toString(36).slice(2, 10)}`;
}
