// Times the browser's analysis module (target/site/pkg/analysis_bg.wasm, as the Web Worker
// runs it) on the turns `analysis-bench --write FILE` wrote: loading the module, building the
// trie from the English FST, and analysing every turn. Node runs the same V8 as Chromium.
//
//   cargo run --release -p analysis --bin analysis-bench -- --write /tmp/turns.json
//   node scripts/analysis-bench.mjs /tmp/turns.json
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'target/site/pkg');
const input = JSON.parse(fs.readFileSync(process.argv[2] ?? '/tmp/turns.json', 'utf8'));
const started = performance.now();
const { default: init, Analysis } = await import(path.join(pkg, 'analysis.js'));
await init({ module_or_path: fs.readFileSync(path.join(pkg, 'analysis_bg.wasm')) });
const loaded = performance.now();
const analysis = new Analysis(JSON.stringify(input.variant), fs.readFileSync(path.join(root, 'dictionaries/fst/en.fst')));
const built = performance.now();
for (const turn of input.turns) analysis.turn(JSON.stringify(turn));
const done = performance.now();
const n = input.turns.length;
console.log(`wasm: module ${(loaded - started).toFixed(0)} ms, trie ${(built - loaded).toFixed(0)} ms, ` +
  `${n} turns ${(done - built).toFixed(0)} ms (${((done - built) / n).toFixed(1)} ms a turn); ` +
  `in all ${(done - started).toFixed(0)} ms`);
