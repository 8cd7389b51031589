// Alfa Kraft's economy in the browser: Ann buys a power during Bob's turn and sells it back for
// the full price; Bob buys a Charge, puts it on a staged tile, and the preview's score is the
// score committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { buy, friendGame } from './support/alfakraft.mjs';
import { tapAWord, verdict, waitForText, pass } from './support/play.mjs';

const suite = serverAndBrowser();

test('buy during the other player\'s turn, sell back for the full price; Charge previews what it scores', async (t) => {
  const { ann, bob } = await friendGame(suite);

  // Ann, waiting for Bob, buys Dice (5 of her 10 coins) and sells it back.
  assert.match(await ann.page.textContent('[data-testid="my-coins"]'), /^10 coins$/);
  await buy(ann.page, 'dice');
  await waitForText(ann.page, 'my-coins', /^5 coins$/);
  await ann.page.waitForSelector('[data-testid="power-bar"] [data-power="Dice"]');
  // Dragged onto the sell area at the top right of the board.
  await ann.page.locator('[data-testid="power-bar"] [data-power="Dice"]').dragTo(ann.page.locator('[data-testid="sell"]'));
  await waitForText(ann.page, 'my-coins', /^10 coins$/);
  assert.equal(await ann.page.locator('[data-testid="power-bar"] [data-power]').count(), 0);

  // The player to move stages a two-letter word (Bob; Ann if his rack has none, after he
  // passes), buys a Charge (8 of 10 coins) and drags it onto one of the word's letters.
  let [mover, watcher, seat, name] = [bob, ann, 1, 'ann'];
  let found = await tapAWord(bob.page);
  let letter = found?.spelled.findIndex((tile) => !tile.blank) ?? -1;
  if (letter < 0) {
    if (found) await bob.page.click('button:has-text("Recall")');
    await pass(bob.page);
    await waitForText(ann.page, 'turn', /Your turn/);
    [mover, watcher, seat, name] = [ann, bob, 0, 'bob'];
    found = await tapAWord(ann.page);
    letter = found?.spelled.findIndex((tile) => !tile.blank) ?? -1;
  }
  if (letter < 0) {
    // Neither rack holds a two-letter word with a letter that is not a blank (about 1 in 1,000).
    t.diagnostic('no two-letter word in either rack; the Charge part was skipped');
  } else {
    const plain = found.total;
    await buy(mover.page, 'charge');
    await waitForText(mover.page, 'my-coins', /^2 coins$/);
    await mover.page.locator('[data-testid="power-bar"] [data-power="Charge"]').dragTo(mover.page.locator(`[data-cell="7,${7 + letter}"]`));
    await mover.page.waitForSelector('[data-testid="badge-charge"]');
    await mover.page.waitForFunction((before) => document.querySelector('[data-testid="preview-total"]')?.textContent !== String(before), plain);
    const charged = await verdict(mover.page);
    assert.ok(charged > plain, `the Charge raises the score (${plain} → ${charged})`);
    await mover.page.click('[data-testid="play"]');
    await waitForText(mover.page, 'turn', new RegExp(`Waiting for ${name}`));
    assert.equal(await mover.page.textContent(`[data-testid="score-${seat}"]`), String(charged));
    // The other sees it live, with the mover's coins revealed: 2 left, plus what the play earned.
    await waitForText(watcher.page, `score-${seat}`, new RegExp(`^${charged}$`));
    const coins = 2 + Math.floor(charged / 10);
    await waitForText(watcher.page, `coins-${seat}`, new RegExp(`^${coins} coins`));
  }
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
