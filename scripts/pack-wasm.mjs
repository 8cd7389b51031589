// Packs a wasm-bindgen module for the wire after wasm-opt, without changing what it does:
//
// - Functions reordered so that similar bodies sit next to each other, which brotli turns into
//   short, cheap back-references. Only the order of the bodies moves; every function index
//   (calls, `ref.func`, the table's elements, exports, the start function) is renumbered to match.
//   The order: functions sorted by their locals, type and size, then chained greedily, each next
//   function the most alike (shared 4-byte sequences) of the following WINDOW not yet placed.
//   Kept only if the brotli copy gets smaller.
// - Imports renamed: wasm-bindgen names each import after its Rust path plus a 16-digit hash
//   (`__wbg_setAttribute_2bb1ac...`), which brotli cannot squeeze. They become short names, in
//   the module and as the keys of the glue's import object alike.
//
//     node scripts/pack-wasm.mjs MODULE_bg.wasm GLUE.js   (rewrites both in place)
//     node scripts/pack-wasm.mjs --check MODULE_bg.wasm   (self-test of the renumbering)
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

const WINDOW = 1024;

/** A cursor over bytes with the LEB128 readers the binary format needs. */
class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }
  byte() {
    return this.bytes[this.at++];
  }
  /** An unsigned LEB128 (indices, counts, sizes): at most 32 bits here. */
  u32() {
    let value = 0;
    let shift = 0;
    let b;
    do {
      b = this.bytes[this.at++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return value;
  }
  /** Steps over a LEB128 of any width, signed or not (constants, block types). */
  skipLeb() {
    while (this.bytes[this.at++] & 0x80);
  }
  take(n) {
    const out = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
}

function u32(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value) b |= 0x80;
    out.push(b);
  } while (value);
  return Buffer.from(out);
}

/** A vector of unsigned LEB128s (the function section's type indices). */
function indices(body) {
  const r = new Reader(body);
  const out = [];
  for (let n = r.u32(); n > 0; n--) out.push(r.u32());
  return out;
}

/**
 * A copy of what a reader reads, with some function indices replaced: the bytes between them
 * are kept as they are.
 */
class Rewrite {
  constructor(r) {
    this.r = r;
    this.from = r.at;
    this.out = [];
  }
  /** Reads a function index and writes `map(index)` in its place. */
  index(map) {
    this.out.push(this.r.bytes.subarray(this.from, this.r.at), u32(map(this.r.u32())));
    this.from = this.r.at;
  }
  /** Everything read so far, rewritten. */
  done() {
    this.out.push(this.r.bytes.subarray(this.from, this.r.at));
    return Buffer.concat(this.out);
  }
}

/** The module's sections, in order, as `{ id, body }`. */
function sections(bytes) {
  const r = new Reader(bytes, 8);
  const out = [];
  while (r.at < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    out.push({ id, body: r.take(size) });
  }
  return out;
}

function assemble(header, list) {
  return Buffer.concat([header, ...list.flatMap(({ id, body }) => [Buffer.from([id]), u32(body.length), body])]);
}

function importedFunctions(body) {
  const r = new Reader(body);
  let functions = 0;
  for (let n = r.u32(); n > 0; n--) {
    r.take(r.u32());
    r.take(r.u32());
    const kind = r.byte();
    if (kind === 0) {
      r.u32();
      functions++;
    } else if (kind === 1) {
      r.byte();
      skipLimits(r);
    } else if (kind === 2) {
      skipLimits(r);
    } else if (kind === 3) {
      r.byte();
      r.byte();
    } else {
      throw new Error(`import kind ${kind}`);
    }
  }
  return functions;
}

function skipLimits(r) {
  const flags = r.byte();
  r.u32();
  if (flags & 1) r.u32();
}

/**
 * Reads an instruction sequence up to and including the `end` that closes it, every function
 * index in it passed through `map` into `w` (whose reader is `r`).
 */
function copyCode(r, map, w) {
  let depth = 0;
  for (;;) {
    const op = r.byte();
    switch (op) {
      case 0x02: case 0x03: case 0x04: {
        const t = r.bytes[r.at];
        if (t === 0x40 || (t >= 0x6f && t <= 0x7f)) r.at++;
        else r.skipLeb();
        depth++;
        break;
      }
      case 0x0b:
        if (depth === 0) return;
        depth--;
        break;
      case 0x0c: case 0x0d: r.u32(); break;
      case 0x0e: for (let n = r.u32(); n >= 0; n--) r.u32(); break;
      case 0x10: case 0x12: case 0xd2: w.index(map); break;
      case 0x11: case 0x13: r.u32(); r.u32(); break;
      case 0x1c: for (let n = r.u32(); n > 0; n--) r.byte(); break;
      case 0x20: case 0x21: case 0x22: case 0x23: case 0x24: case 0x25: case 0x26: r.u32(); break;
      case 0x3f: case 0x40: r.u32(); break;
      case 0x41: case 0x42: r.skipLeb(); break;
      case 0x43: r.at += 4; break;
      case 0x44: r.at += 8; break;
      case 0xd0: r.byte(); break;
      case 0xfc: {
        const sub = r.u32();
        if (sub <= 7) break;
        if (sub === 8 || sub === 12 || sub === 14) { r.u32(); r.u32(); }
        else if (sub === 10) { r.u32(); r.u32(); }
        else if (sub === 9 || sub === 11 || sub === 13 || (sub >= 15 && sub <= 17)) r.u32();
        else throw new Error(`0xfc ${sub}`);
        break;
      }
      default:
        if (op >= 0x28 && op <= 0x3e) {
          r.u32();
          r.u32();
        } else if (!(op <= 0x01 || op === 0x05 || op === 0x0f || op === 0x1a || op === 0x1b || op === 0xd1 || (op >= 0x45 && op <= 0xc4))) {
          throw new Error(`opcode 0x${op.toString(16)} at ${r.at - 1}`);
        }
    }
  }
}

/** A function body (`size` prefix left off) with its calls renumbered. */
function rewriteBody(body, map) {
  const r = new Reader(body);
  const w = new Rewrite(r);
  for (let n = r.u32(); n > 0; n--) {
    r.u32();
    r.byte();
  }
  copyCode(r, map, w);
  if (r.at !== body.length) throw new Error('a function body does not end at its end');
  return w.done();
}

function rewriteElements(body, map) {
  const r = new Reader(body);
  const w = new Rewrite(r);
  for (let n = r.u32(); n > 0; n--) {
    const flags = r.u32();
    if (flags === 2 || flags === 6) r.u32();
    if (!(flags & 1)) copyCode(r, map, w);
    // An element kind, or a reference type: one byte either way.
    if (flags & 3) r.byte();
    for (let m = r.u32(); m > 0; m--) {
      if (flags & 4) copyCode(r, map, w);
      else w.index(map);
    }
  }
  return w.done();
}

function rewriteExports(body, map) {
  const r = new Reader(body);
  const w = new Rewrite(r);
  for (let n = r.u32(); n > 0; n--) {
    r.take(r.u32());
    if (r.byte() === 0) w.index(map);
    else r.u32();
  }
  return w.done();
}

function rewriteGlobals(body, map) {
  const r = new Reader(body);
  const w = new Rewrite(r);
  for (let n = r.u32(); n > 0; n--) {
    r.byte();
    r.byte();
    copyCode(r, map, w);
  }
  return w.done();
}

/**
 * The module with its defined functions in `order` (old indices among the defined ones): the
 * function and code sections permuted, every reference renumbered. Custom sections that name
 * functions by index ("name") are dropped.
 */
function reorder(bytes, order) {
  const list = sections(bytes);
  const imports = list.find((s) => s.id === 2);
  const base = imports ? importedFunctions(imports.body) : 0;
  const position = new Array(order.length);
  order.forEach((old, at) => { position[old] = at; });
  const map = (index) => (index < base ? index : base + position[index - base]);
  const out = [];
  for (const s of list) {
    if (isNames(s)) continue;
    if (s.id === 3) {
      const types = indices(s.body);
      out.push({ id: 3, body: Buffer.concat([u32(types.length), ...order.map((i) => u32(types[i]))]) });
    } else if (s.id === 10) {
      const bodies = codeBodies(s.body);
      const parts = [u32(bodies.length)];
      for (const i of order) {
        const body = rewriteBody(bodies[i], map);
        parts.push(u32(body.length), body);
      }
      out.push({ id: 10, body: Buffer.concat(parts) });
    } else if (s.id === 7) out.push({ id: 7, body: rewriteExports(s.body, map) });
    else if (s.id === 8) out.push({ id: 8, body: u32(map(new Reader(s.body).u32())) });
    else if (s.id === 9) out.push({ id: 9, body: rewriteElements(s.body, map) });
    else if (s.id === 6) out.push({ id: 6, body: rewriteGlobals(s.body, map) });
    else out.push(s);
  }
  return assemble(bytes.subarray(0, 8), out);
}

/** Whether a section is the custom "name" section (function names, by index). */
function isNames({ id, body }) {
  if (id !== 0) return false;
  const r = new Reader(body);
  return r.take(r.u32()).toString() === 'name';
}

function codeBodies(body) {
  const r = new Reader(body);
  const out = [];
  for (let n = r.u32(); n > 0; n--) out.push(r.take(r.u32()));
  return out;
}

/** The greedy order described at the top. */
function similarOrder(bodies, types) {
  // The locals' declaration comes first in a body: its first bytes group functions alike.
  const locals = bodies.map((b) => b.subarray(0, 8).toString('latin1'));
  // Functions not yet placed, in the order the greedy chain looks through them.
  const left = bodies.map((_, i) => i);
  left.sort((a, b) => (locals[a] < locals[b] ? -1 : locals[a] > locals[b] ? 1 : types[a] - types[b] || bodies[a].length - bodies[b].length));
  const grams = bodies.map((b) => {
    const set = new Set();
    for (let q = 0; q + 4 <= b.length; q++) set.add(b.readUInt32LE(q));
    return set;
  });
  const alike = (a, b) => {
    const [small, large] = grams[a].size < grams[b].size ? [grams[a], grams[b]] : [grams[b], grams[a]];
    if (small.size === 0) return 0;
    let shared = 0;
    for (const g of small) if (large.has(g)) shared++;
    return shared / (grams[a].size + grams[b].size - shared);
  };
  const order = [left.shift()];
  while (left.length) {
    const last = order[order.length - 1];
    let best = 0;
    let score = -1;
    for (let k = 0; k < Math.min(WINDOW, left.length); k++) {
      const s = alike(last, left[k]);
      if (s > score) {
        score = s;
        best = k;
      }
    }
    order.push(left.splice(best, 1)[0]);
  }
  return order;
}

const brotli = (bytes) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } }).length;

function definedFunctions(bytes) {
  const list = sections(bytes);
  return { types: indices(list.find((s) => s.id === 3).body), bodies: codeBodies(list.find((s) => s.id === 10).body) };
}

/**
 * The module with its imports renamed to short names (module `a`, fields `a`, `b`, … `aa`, …),
 * and `glue` with its import object's keys to match. Throws unless every import is a function
 * named exactly once in the glue as a key, so that a new wasm-bindgen cannot be half-renamed.
 */
function shortImports(bytes, glue) {
  const list = sections(bytes);
  const section = list.find((s) => s.id === 2);
  const r = new Reader(section.body);
  const entries = [];
  for (let n = r.u32(); n > 0; n--) {
    const module = r.take(r.u32()).toString();
    const field = r.take(r.u32()).toString();
    if (r.byte() !== 0) throw new Error(`import ${module} ${field} is not a function`);
    entries.push({ module, field, type: r.u32() });
  }
  const modules = [...new Set(entries.map((e) => e.module))];
  if (modules.length !== 1) throw new Error(`imports from ${modules.length} modules`);
  const name = (i) => {
    const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let out = '';
    do {
      out += letters[i % letters.length];
      i = Math.floor(i / letters.length) - 1;
    } while (i >= 0);
    return out;
  };
  const count = (text, what) => text.split(what).length - 1;
  const moduleKey = `"${modules[0]}": import0`;
  if (count(glue, moduleKey) !== 1) throw new Error(`the glue does not name ${moduleKey} once`);
  let out = glue.replace(moduleKey, '"a": import0');
  entries.forEach((e, i) => {
    const key = `        ${e.field}: function(`;
    if (count(out, e.field) !== 1 || count(out, key) !== 1) throw new Error(`the glue does not name ${e.field} once, as a key`);
    out = out.replace(key, `        ${name(i)}: function(`);
  });
  const text = (t) => Buffer.concat([u32(Buffer.byteLength(t)), Buffer.from(t)]);
  const body = Buffer.concat([u32(entries.length), ...entries.map((e, i) => Buffer.concat([text('a'), text(name(i)), Buffer.from([0]), u32(e.type)]))]);
  return { bytes: assemble(bytes.subarray(0, 8), list.map((s) => (s.id === 2 ? { id: 2, body } : s))), glue: out };
}

const args = process.argv.slice(2);
if (args[0] === '--check') {
  const bytes = readFileSync(args[1]);
  const { bodies } = definedFunctions(bytes);
  const identity = bodies.map((_, i) => i);
  const strip = (b) => assemble(b.subarray(0, 8), sections(b).filter((s) => !isNames(s)));
  if (!reorder(bytes, identity).equals(strip(bytes))) throw new Error('the identity order changed the module');
  const reversed = [...identity].reverse();
  if (!reorder(reorder(bytes, reversed), reversed).equals(strip(bytes))) throw new Error('reversing twice changed the module');
  console.log(`pack-wasm: ${bodies.length} functions, identity and round trip exact`);
} else {
  const [wasmFile, glueFile] = args;
  const original = readFileSync(wasmFile);
  const { types, bodies } = definedFunctions(original);
  const reordered = reorder(original, similarOrder(bodies, types));
  const [before, after] = [brotli(original), brotli(reordered)];
  const packed = shortImports(after < before ? reordered : original, readFileSync(glueFile, 'utf8'));
  writeFileSync(wasmFile, packed.bytes);
  writeFileSync(glueFile, packed.glue);
  console.log(`pack-wasm: ${bodies.length} functions reordered (brotli ${before} -> ${after} B${after < before ? '' : ', kept the original order'}), imports renamed: ${brotli(packed.bytes)} B`);
}
