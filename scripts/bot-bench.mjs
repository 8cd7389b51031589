// Times the Master bot in the browser's engine module (target/site/pkg/analysis_bg.wasm, as the
// device game's Web Worker runs it) on the positions `bot-bench --write FILE` wrote, each with
// the seed the native run gave it. Node runs the same V8 as Chromium.
//
//   cargo run --release -p analysis --bin bot-bench -- --write /tmp/positions.json
//   node scripts/bot-bench.mjs /tmp/positions.json
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
const times = input.views.map((view, i) => {
  const at = performance.now();
  JSON.parse(bots.turn('Master', BigInt(input.seed) ^ BigInt(i), JSON.stringify(view)));
  return performance.now() - at;
}).sort((a, b) => a - b);
console.log(`wasm: the trie ${(built - started).toFixed(0)} ms; the Master on ${times.length} positions: ` +
  `median ${times[times.length >> 1].toFixed(0)} ms, slowest ${times[times.length - 1].toFixed(0)} ms a move`);
