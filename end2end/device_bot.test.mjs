// The bots of games played on the device run in a Web Worker (public/bot-worker.js, the engine's
// wasm module): started with a game's ruleset and dictionary, the Master plays a turn from a
// player's view, the rules on the server accept it as that player's move (a pass-and-play game's
// seat to move), and the page goes on painting while the bot thinks (logs the think time and the
// longest gap between frames). On a 390×844 touch phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser } from './support/suite.mjs';
import { openPage } from './support/browser.mjs';
import { hydrated } from './support/app.mjs';

const suite = serverAndBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

test('the Master bot thinks in a Web Worker, plays a move the rules accept, and the page keeps painting', async () => {
  const { context, page, errors } = await openPage(suite.browser, PHONE);
  await page.goto(`${suite.server.url}/`);
  await hydrated(page);
  const outcome = await page.evaluate(async () => {
    const call = async (path, body) => (await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })).json();
    // A visitor's pass-and-play game on the server (every seat theirs, so no server bot moves
    // meanwhile): the worker's Master decides the move of the seat to move from that seat's
    // view, and the server judges it.
    const created = await call('/api/games/create', { new: {
      variant: 'Classic', dictionary: 'en', format: 'Casual', opponent: { PassAndPlay: { players: 2 } } } });
    const id = created.Ok.id;
    const shown = (await call('/api/games/get', { id })).Ok;
    const worker = new Worker('/bot-worker.js', { type: 'module' });
    const answer = () => new Promise((done) => { worker.onmessage = ({ data }) => done(data); });
    worker.postMessage({ start: { variant: shown.card.variant, dictionary_url: shown.dictionary_url } });
    const ready = await answer();
    if (!ready.ready) return { ready };
    // Frames while it thinks: the longest gap between two.
    let painting = true;
    let last = performance.now();
    let longest = 0;
    const frame = (now) => {
      longest = Math.max(longest, now - last);
      last = now;
      if (painting) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    worker.postMessage({ turn: { level: 'Master', seed: 7, view: shown.view } });
    const turn = await answer();
    painting = false;
    worker.terminate();
    if (!turn.actions) return { turn };
    let version = shown.view.version;
    const judged = [];
    for (const action of turn.actions) {
      const acted = await call('/api/games/act', { id, expected_version: version, action });
      judged.push(acted.Ok ? 'ok' : JSON.stringify(acted));
      version += 1;
    }
    return { actions: turn.actions, ms: turn.ms, longest, judged };
  });
  assert.ok(outcome.actions, JSON.stringify(outcome));
  assert.ok(outcome.actions.length >= 1);
  assert.deepEqual(outcome.judged, outcome.actions.map(() => 'ok'), 'the rules accept the bot\'s move');
  console.log(`the Master in the worker: ${Math.round(outcome.ms)} ms for its move (${Object.keys(outcome.actions[0])[0]}); ` +
    `the page's longest gap between frames meanwhile ${Math.round(outcome.longest)} ms`);
  assert.deepEqual(errors, []);
  await context.close();
});
