// Alfa Kraft's powers in the browser, on a known deal (ALFAKRAFT_FIXED_SEED, tests only). With
// seed 159 Bob, who moves first, holds HIATUST, and the moves below were found for that deal:
// HIATUS across the start, then CURETTE under it, then TSK over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { barItems, buy, friendGame } from './support/alfakraft.mjs';
import { rack, verdict, waitForText, pass } from './support/play.mjs';

const suite = serverAndBrowser({ env: { ALFAKRAFT_FIXED_SEED: '159' } });

/** Types `word` across from `cell`, checks the preview accepts it, plays it; resolves to its points. */
async function playWord(player, cell, word, opponent) {
  const before = Number(await player.page.textContent('[data-testid="score-1"]'));
  await player.page.click(`[data-cell="${cell}"]`);
  await player.page.keyboard.type(word);
  const total = await verdict(player.page);
  assert.ok(total !== null, `${word} is accepted`);
  await player.page.keyboard.press('Enter');
  await waitForText(player.page, 'turn', new RegExp(`Waiting for ${opponent}`));
  assert.equal(Number(await player.page.textContent('[data-testid="score-1"]')), before + total);
  return total;
}

async function passTurn(player) {
  await waitForText(player.page, 'turn', /Your turn/);
  await pass(player.page);
  await waitForText(player.page, 'turn', /Waiting for/);
}

async function bagSize(page) {
  return Number((await page.textContent('.bag')).replace(/\D/g, ''));
}

function letters(tiles) {
  return tiles.map((t) => t.label).sort();
}

async function close(...players) {
  assert.deepEqual(players.flatMap((p) => p.errors), []);
  for (const p of players) await p.context.close();
}

test('Swap exchanges the chosen tiles and the turn goes on', async () => {
  const { ann, bob } = await friendGame(suite);
  const before = await rack(bob.page);
  const bag = await bagSize(bob.page);
  await buy(bob.page, 'swap');
  await waitForText(bob.page, 'my-coins', /^4 coins$/);
  await bob.page.click('[data-testid="power-bar"] [data-power="Swap"]');
  const [kept, given] = [before.slice(2), before.slice(0, 2)];
  for (const tile of given) await bob.page.click(`[data-testid="rack"] [data-slot="${tile.slot}"]`);
  await bob.page.click('.controls button:has-text("Swap 2")');
  // The Swap is used up, the hand is full again, the bag as big as before, and it is still Bob's turn.
  await bob.page.waitForFunction(() => document.querySelectorAll('[data-testid="power-bar"] [data-power]').length === 0);
  await waitForText(bob.page, 'turn', /Your turn/);
  const after = await rack(bob.page);
  assert.equal(after.length, 7);
  const rest = letters(after);
  for (const tile of kept) rest.splice(rest.indexOf(tile.label), 1);
  assert.equal(rest.length, 2, 'the five tiles not chosen are still in the hand');
  assert.equal(await bagSize(bob.page), bag);
  assert.match(await ann.page.textContent('[data-testid="turn"]'), /Waiting for bob/);
  await close(ann, bob);
});

test('Rubber on a board tile sends it back to the bag', async () => {
  const { ann, bob } = await friendGame(suite);
  await playWord(bob, '7,7', 'hiatus', 'ann');
  await waitForText(ann.page, 'turn', /Your turn/);
  await ann.page.waitForSelector('[data-cell="7,12"] .tile');
  const bag = await bagSize(ann.page);
  await buy(ann.page, 'rubber');
  await waitForText(ann.page, 'my-coins', /^0 coins$/);
  await ann.page.locator('[data-testid="power-bar"] [data-power="Rubber"]').dragTo(ann.page.locator('[data-cell="7,12"]'));
  await ann.page.waitForSelector('[data-cell="7,12"] [data-testid="badge-rubber"]');
  // Powers alone are a play.
  assert.notEqual(await verdict(ann.page), null);
  await ann.page.click('[data-testid="play"]');
  await waitForText(ann.page, 'turn', /Waiting for bob/);
  for (const page of [ann.page, bob.page]) {
    await page.waitForFunction(() => !document.querySelector('[data-cell="7,12"] .tile'));
    assert.equal(await bagSize(page), bag + 1);
    // The cell keeps the Rubber's mark for the rest of the game, on both boards.
    await page.waitForSelector('[data-cell="7,12"] .used-power[aria-label="Rubber was used here"]');
  }
  await close(ann, bob);
});

test('Alfa Morf changes a board letter, and the words through it are judged and scored', async () => {
  const { ann, bob } = await friendGame(suite);
  await playWord(bob, '7,7', 'hiatus', 'ann');
  await passTurn(ann);
  await waitForText(bob.page, 'turn', /Your turn/);
  const score = Number(await bob.page.textContent('[data-testid="score-1"]'));
  await buy(bob.page, 'alfa-morf');
  await waitForText(bob.page, 'my-coins', /^1 coin$/);
  // HIATUS becomes HIASUS, which is no word on its own...
  await bob.page.locator('[data-testid="power-bar"] [data-power="Alfa Morf"]').dragTo(bob.page.locator('[data-cell="7,10"]'));
  await bob.page.click('.picker button:text-is("S")');
  await bob.page.waitForSelector('[data-cell="7,10"] [data-testid="badge-morf"]');
  assert.equal(await verdict(bob.page), null, 'HIASUS is refused');
  // ...but with a T in front it is THIASUS.
  const t = (await rack(bob.page)).find((tile) => tile.label === 'T');
  await bob.page.click(`[data-testid="rack"] [data-slot="${t.slot}"]`);
  await bob.page.click('[data-cell="7,6"]');
  const total = await verdict(bob.page);
  assert.ok(total > 0, 'THIASUS is a word');
  assert.match(await bob.page.textContent('[data-testid="preview"]'), /THIASUS/i);
  await bob.page.click('[data-testid="play"]');
  await waitForText(bob.page, 'turn', /Waiting for ann/);
  await waitForText(ann.page, 'score-1', new RegExp(`^${score + total}$`));
  for (const page of [ann.page, bob.page]) {
    await page.waitForFunction(() => document.querySelector('[data-cell="7,10"] .letter')?.textContent === 'S');
  }
  await close(ann, bob);
});

test('the Dice: the preview says a roll is pending; after the play the move list and the last play show it', async () => {
  const { ann, bob } = await friendGame(suite);
  await buy(bob.page, 'dice');
  await waitForText(bob.page, 'my-coins', /^5 coins$/);
  await bob.page.click('[data-cell="7,7"]');
  await bob.page.keyboard.type('hiatus');
  assert.ok(await verdict(bob.page) !== null, 'HIATUS is accepted');
  await bob.page.locator('[data-testid="power-bar"] [data-power="Dice"]').dragTo(bob.page.locator('[data-cell="7,7"]'));
  await bob.page.waitForSelector('[data-testid="dice-pending"]');
  await bob.page.click('[data-testid="play"]');
  await waitForText(bob.page, 'turn', /Waiting for ann/);
  // The roll was shown in the score alone; now in the move list and on the last play, for both.
  for (const page of [bob.page, ann.page]) {
    await page.waitForSelector('[data-testid="move-1"]');
    assert.match(await page.textContent('[data-testid="move-1"]'), /HIATUS.*🎲 rolled [1-6]/);
    assert.match(await page.textContent('[data-testid="last-play"]'), /🎲 rolled [1-6]/);
  }
  await close(ann, bob);
});

test('a reward earned with a full power bar is lost, and the player is told', async () => {
  const { ann, bob } = await friendGame(suite);
  // Bob spends his 10 coins on two Dice, then HIATUS (six tiles) earns an Alfa Power Tile.
  await buy(bob.page, 'dice');
  await buy(bob.page, 'dice');
  await waitForText(bob.page, 'my-coins', /^0 coins$/);
  await playWord(bob, '7,7', 'hiatus', 'ann');
  await waitForText(bob.page, 'rewards', /You earned an Alfa Power Tile/);
  await passTurn(ann);
  // CURETTE under it places seven tiles and forms four words or more: both rewards.
  await waitForText(bob.page, 'turn', /Your turn/);
  await playWord(bob, '8,4', 'curette', 'ann');
  await waitForText(bob.page, 'rewards', /You earned an Alfa Power Tile\. You earned a Golden Tile\./);
  assert.equal((await barItems(bob.page)).length, 5);
  // Earned tiles cannot be sold back.
  await bob.page.locator('[data-testid="power-bar"] [data-power="Golden Tile"]').dragTo(bob.page.locator('[data-testid="sell"]'));
  await waitForText(bob.page, 'message', /Golden Tile cannot be sold/);
  assert.equal((await barItems(bob.page)).length, 5);
  await passTurn(ann);
  // Two more Dice fill the bar; TSK over HIATUS forms four words, and its Golden Tile is lost.
  await waitForText(bob.page, 'turn', /Your turn/);
  await buy(bob.page, 'dice');
  await buy(bob.page, 'dice');
  await bob.page.waitForFunction(() => document.querySelectorAll('[data-testid="power-bar"] [data-power]').length === 7);
  const bar = await barItems(bob.page);
  await playWord(bob, '6,7', 'tsk', 'ann');
  await waitForText(bob.page, 'rewards', /Your power bar was full: the Golden Tile you earned was lost\./);
  assert.deepEqual(await barItems(bob.page), bar);
  await close(ann, bob);
});
