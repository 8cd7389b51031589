#!/usr/bin/env python3
"""Where the browser bundle's bytes go: `twiggy top` on the module before wasm-bindgen, summed by
crate (the first path in each function's name) and, for a few known causes, by cause.

    python3 scripts/bundle-table.py [MODULE]   (default: the last wasm-release build)

Needs `twiggy` on PATH (`cargo install twiggy`). Sizes are of function bodies and data before
wasm-opt, in KB; names, custom sections and the like are left out.
"""
import csv
import io
import re
import subprocess
import sys
from collections import defaultdict

module = sys.argv[1] if len(sys.argv) > 1 else "target/wasm32-unknown-unknown/wasm-release/frontend.wasm"
out = subprocess.run(
    ["twiggy", "top", "-n", "1000000", "--format", "csv", module],
    check=True, capture_output=True, text=True,
).stdout
rows = list(csv.DictReader(io.StringIO(out)))

SKIP = ('"function names" subsection', "custom section", "type[", "import ", "export ", "elem[", "table[", "memory[", "global[")
CAUSES = [
    ("tachys async hydration (hydrate_async)", re.compile(r"hydrate_async|HydrateAsync|async_hydrat")),
    ("serde_json", re.compile(r"serde_json")),
    ("float formatting", re.compile(r"flt2dec|float::|dragon|grisu")),
]
crate_re = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::")

by_crate = defaultdict(int)
by_cause = defaultdict(int)
total = 0
for row in rows:
    name = row["Name"]
    size = int(row["ShallowSize"])
    if any(name.startswith(s) for s in SKIP):
        continue
    total += size
    if name.startswith("data segment") or name.startswith("data["):
        by_crate["(data: strings, panic locations, tables)"] += size
        continue
    m = crate_re.search(name)
    crate = m.group(1) if m else "(unnamed)"
    if crate in ("impl", "_"):
        crate = "(unnamed)"
    by_crate[crate] += size
    for cause, pattern in CAUSES:
        if pattern.search(name):
            by_cause[cause] += size

print(f"{'crate':<44} {'KB':>8} {'%':>6}")
for crate, size in sorted(by_crate.items(), key=lambda kv: -kv[1])[:22]:
    print(f"{crate:<44} {size / 1000:>8.1f} {100 * size / total:>5.1f}%")
print(f"{'total (code and data)':<44} {total / 1000:>8.1f}")
print()
for cause, size in sorted(by_cause.items(), key=lambda kv: -kv[1]):
    print(f"{'cause: ' + cause:<44} {size / 1000:>8.1f}")
