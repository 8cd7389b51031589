// The post-game analysis, off the page's thread. Loaded only when a player opens analysis: it
// asks the server for the player's own turns (the session's cookie goes along), loads the
// engine's wasm module (pkg/analysis.js), fetches the game's dictionary (content-hashed: the
// page has usually cached it already), builds the word trie once, then analyses the turns one
// by one, reporting after each. The page sends only the game's id and receives only the results
// in its own wire form (postcard), so its bundle carries no code for the turns.
//
// In:  the game's id.
// Out: { progress: [done, of] } after each turn; { results: <bytes: postcard of the
//      Vec<TurnAnalysis>> } at the end; { refused: true } when the server refuses the turns
//      (the page asks it again to show why), or { error: "…" } if it cannot.
import init, { Analysis } from './pkg/analysis.js';

self.onmessage = async ({ data: id }) => {
  try {
    const asked = await fetch('/api/analysis/turns', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    if (!asked.ok) throw new Error(`${asked.status} ${await asked.text()}`);
    const answer = await asked.json();
    if (answer.Err !== undefined) {
      self.postMessage({ refused: true });
      return;
    }
    const input = answer.Ok;
    const [, words] = await Promise.all([init(), fetch(input.dictionary_url)]);
    if (!words.ok) throw new Error(`dictionary: HTTP ${words.status}`);
    const analysis = new Analysis(JSON.stringify(input.variant), new Uint8Array(await words.arrayBuffer()));
    const of = input.turns.length;
    self.postMessage({ progress: [0, of] });
    for (const [done, turn] of input.turns.entries()) {
      analysis.turn(JSON.stringify(turn));
      self.postMessage({ progress: [done + 1, of] });
    }
    const results = analysis.results();
    analysis.free();
    self.postMessage({ results }, [results.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
