// Times the Master bot in the browser's engine module (target/site/pkg/analysis_bg.wasm, as the
// device game's Web Worker runs it) on the positions `bot-bench --write FILE` wrote, each with
// the seed the native run gave it. Node runs the same V8 as Chromium.
//
//   cargo run --release -p analysis --bin bot-bench -- --write /tmp/positions.json
//   node --no-warnings scripts/bot-bench.mjs /tmp/positions.json
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'target/site/pkg');
const input = JSON.parse(fs.readFileSync(process.argv[2] ?? '/tmp/positions.json', 'utf8'));
const { default: init, Bots } = await import(path.join(pkg, 'analysis.js'));
await init({ module_or_path: fs.readFileSync(path.join(pkg, 'analysis_bg.wasm')) });
const started = performance.now();
const bots = new Bots(JSON.stringify(input.variant), fs.readFileSync(path.join(root, 'dictionaries/fst/en.fst')));
const built = performance.now();
// JSON with every object's keys in order (the native run wrote its moves through a map that
// sorts them).
const canonical = (value) => JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
let same = 0;
const times = input.views.map((view, i) => {
  const at = performance.now();
  const turn = JSON.parse(bots.turn('Master', BigInt(input.seed) ^ BigInt(i), JSON.stringify(view)));
  const took = performance.now() - at;
  if (canonical(turn) === canonical(input.turns[i])) same += 1;
  return took;
}).sort((a, b) => a - b);
console.log(`wasm: the trie ${(built - started).toFixed(0)} ms; the Master on ${times.length} positions: ` +
  `median ${times[times.length >> 1].toFixed(0)} ms, slowest ${times[times.length - 1].toFixed(0)} ms a move; ` +
  `the same move as natively on ${same} of ${times.length}`);
