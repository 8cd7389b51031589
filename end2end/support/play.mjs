// Playing moves in the browser: finding a two-letter word in the rack, placing it by tapping or
// typing, reading the preview's verdict.

// Two-letter words to try; the preview (the rules and the dictionary, in the browser) decides.
export const TWO = ('AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED EF EH EL EM EN ER ES ' +
  'EX FA FE GO HA HE HI HM HO ID IF IN IS IT JO KA KI LA LI LO MA ME MI MO MU MY NA NE NO NU OD OE OF OH OI ' +
  'OM ON OP OR OS OW OX OY PA PE PI QI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO ZA').split(' ');

export async function rack(page) {
  return page.$$eval('[data-testid="rack"] .hand-tile', (tiles) =>
    tiles.map((t) => ({ slot: t.dataset.slot, label: t.getAttribute('aria-label') })));
}

/** Ways to spell each two-letter word from the rack: [{ slot, letter, blank }], blanks as wildcards. */
export function spellings(tiles) {
  const out = [];
  for (const word of TWO) {
    const free = [...tiles];
    const spelled = [];
    for (const letter of word) {
      let i = free.findIndex((t) => t.label === letter);
      const blank = i < 0;
      if (blank) i = free.findIndex((t) => t.label === 'blank');
      if (i < 0) break;
      spelled.push({ slot: free[i].slot, letter, blank });
      free.splice(i, 1);
    }
    if (spelled.length === word.length) out.push({ word, spelled });
  }
  return out;
}

/** Waits for the preview's verdict: the total, or null when a word is invalid. */
export async function verdict(page) {
  const el = await page.waitForSelector(
    '[data-testid="preview-total"], [data-testid="preview"] .word.invalid, [data-testid="preview-refused"]');
  if ((await el.getAttribute('data-testid')) === 'preview-total') return Number(await el.textContent());
  return null;
}

export async function nameBlank(page, letter) {
  await page.click(`.picker button:text-is("${letter}")`);
}

/** Tries words by tapping tiles onto the start row until the preview accepts one; leaves it staged. */
export async function tapAWord(page, row = 7, col = 7) {
  for (const { word, spelled } of spellings(await rack(page))) {
    for (const [i, tile] of spelled.entries()) {
      await page.click(`[data-slot="${tile.slot}"]`);
      await page.click(`[data-cell="${row},${col + i}"]`);
      if (tile.blank) await nameBlank(page, tile.letter);
    }
    const total = await verdict(page);
    if (total !== null) return { word, spelled, total };
    await page.click('button:has-text("Recall")');
  }
  return null; // A rack without a two-letter word (no vowels, say): a few percent of racks.
}

export async function typeAWord(page) {
  for (const candidate of spellings(await rack(page))) {
    await page.click('[data-cell="7,7"]');
    await page.keyboard.type(candidate.word.toLowerCase());
    const total = await verdict(page);
    if (total !== null) return { word: candidate.word, total };
    await page.keyboard.press('Escape');
  }
  return null;
}

/** Waits until the element with `testid` reads `pattern`. */
export function waitForText(page, testid, pattern, timeout = 30_000) {
  return page.waitForFunction(
    ([id, source]) => new RegExp(source).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    [testid, pattern.source], { timeout });
}


/** Passes the turn: Pass, then the confirmation the page asks for. */
export async function pass(page) {
  await page.click('.controls button:has-text("Pass")');
  await page.click('[data-testid="confirm-pass"]');
}
