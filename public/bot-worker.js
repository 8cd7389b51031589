// The bots of games played on the device, off the page's thread, so the page keeps answering
// while a bot thinks (the Master up to a second a move). Loaded only when a device game starts:
// it loads the engine's wasm module (pkg/analysis.js, the one analysis uses), fetches the game's
// dictionary (content-hashed: the service worker keeps it once used) and builds its word trie
// once; then it plays each turn it is asked for.
//
// Two dialects, the same bots. The game page's bundle has no JSON code, so it speaks postcard
// (the rules crate's types, as its server functions do); tests and benchmarks speak JSON.
// In:  { start: { variant, dictionary_url } } (variant: JSON) or { begin: { variant,
//      dictionary_url } } (variant: postcard bytes), then for each turn { turn: { level, seed,
//      view } } (view: the bot's PlayerView as JSON) or { play: { level, seed, view } } (postcard).
// Out: { ready: true } once started; { actions: [...], ms } for a turn, or { played: <postcard
//      bytes of the actions>, ms } for a play; { error: "…" } if it cannot.
import init, { Bots } from './pkg/analysis.js';

let bots = null;

const words = async (url) => {
  const [, fetched] = await Promise.all([init(), fetch(url)]);
  if (!fetched.ok) throw new Error(`dictionary: HTTP ${fetched.status}`);
  return new Uint8Array(await fetched.arrayBuffer());
};

self.onmessage = async ({ data }) => {
  try {
    const started = performance.now();
    if (data.start || data.begin) {
      const { variant, dictionary_url } = data.start ?? data.begin;
      const fst = await words(dictionary_url);
      bots?.free();
      bots = data.start ? new Bots(JSON.stringify(variant), fst) : Bots.of_postcard(variant, fst);
      self.postMessage({ ready: true });
    } else if (!bots) {
      throw new Error('the bots were not started');
    } else if (data.turn) {
      const { level, seed, view } = data.turn;
      const actions = JSON.parse(bots.turn(level, BigInt(seed), JSON.stringify(view)));
      self.postMessage({ actions, ms: performance.now() - started });
    } else if (data.play) {
      const { level, seed, view } = data.play;
      const played = bots.play(level, BigInt(seed), view);
      self.postMessage({ played, ms: performance.now() - started }, [played.buffer]);
    }
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
