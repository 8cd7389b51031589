// Alfa Kraft's economy in the browser: Ann buys a power during Bob's turn and sells it back for
// the full price; Bob buys a Charge, puts it on a staged tile, and the preview's score is the
// score committed. The deal is known (ALFAKRAFT_FIXED_SEED, tests only): with seed 159 Bob, who
// moves first, holds HIATUST, so he always has a two-letter word of plain tiles to charge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { buy, friendGame } from './support/alfakraft.mjs';
import { tapAWord, verdict, waitForText } from './support/play.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_FIXED_SEED: '159' } });

test('buy during the other player\'s turn, sell back for the full price; Charge previews what it scores', async () => {
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

  // Bob stages a two-letter word, buys a Charge (8 of 10 coins) and drags it onto one of the
  // word's letters.
  const found = await tapAWord(bob.page);
  assert.ok(found, 'HIATUST spells a two-letter word');
  const letter = found.spelled.findIndex((tile) => !tile.blank);
  assert.ok(letter >= 0, 'the word has a letter that is not a blank');
  const plain = found.total;
  await buy(bob.page, 'charge');
  await waitForText(bob.page, 'my-coins', /^2 coins$/);
  await bob.page.locator('[data-testid="power-bar"] [data-power="Charge"]').dragTo(bob.page.locator(`[data-cell="7,${7 + letter}"]`));
  await bob.page.waitForSelector('[data-testid="badge-charge"]');
  await bob.page.waitForFunction((before) => document.querySelector('[data-testid="preview-total"]')?.textContent !== String(before), plain);
  const charged = await verdict(bob.page);
  assert.ok(charged > plain, `the Charge raises the score (${plain} → ${charged})`);
  await bob.page.click('[data-testid="play"]');
  await waitForText(bob.page, 'turn', /Waiting for ann/);
  assert.equal(await bob.page.textContent('[data-testid="score-1"]'), String(charged));
  // Ann sees it live, with Bob's coins revealed: 2 left, plus what the play earned.
  await waitForText(ann.page, 'score-1', new RegExp(`^${charged}$`));
  const coins = 2 + Math.floor(charged / 10);
  await waitForText(ann.page, 'coins-1', new RegExp(`^${coins} coins`));
  assert.deepEqual([...ann.errors, ...bob.errors], []);
  for (const p of [ann, bob]) await p.context.close();
});
