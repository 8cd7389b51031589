// The bots of games played on the device, off the page's thread, so the page keeps answering
// while a bot thinks (the Master up to a second a move). Loaded only when a device game starts:
// it loads the engine's wasm module (pkg/analysis.js, the one analysis uses), fetches the game's
// dictionary (content-hashed: the service worker keeps it once used) and builds its word trie
// once; then it plays each turn it is asked for.
//
// In:  { start: { variant, dictionary_url } }, then { turn: { level, seed, view } } for each
//      turn (view: the bot's PlayerView, as the rules crate serializes it).
// Out: { ready: true } once started; { actions: [...], ms } for each turn (the time it thought);
//      { error: "…" } if it cannot.
import init, { Bots } from './pkg/analysis.js';

let bots = null;

self.onmessage = async ({ data }) => {
  try {
    if (data.start) {
      const [, words] = await Promise.all([init(), fetch(data.start.dictionary_url)]);
      if (!words.ok) throw new Error(`dictionary: HTTP ${words.status}`);
      bots?.free();
      bots = new Bots(JSON.stringify(data.start.variant), new Uint8Array(await words.arrayBuffer()));
      self.postMessage({ ready: true });
    } else if (data.turn) {
      if (!bots) throw new Error('the bots were not started');
      const { level, seed, view } = data.turn;
      const started = performance.now();
      const actions = JSON.parse(bots.turn(level, BigInt(seed), JSON.stringify(view)));
      self.postMessage({ actions, ms: performance.now() - started });
    }
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
