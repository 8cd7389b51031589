#!/usr/bin/env python3
"""Lists the workspace's longest functions (test code left out), longest first.

    python3 scripts/long-functions.py              # the 15 longest in every crate
    python3 scripts/long-functions.py --over 150   # every one longer than 150 lines; exits 1 if any
    python3 scripts/long-functions.py rules engine # some crates only

A function's length runs from its `fn` line to its closing brace, comments and blank lines
included, as a reader scrolls it. Binaries (`src/bin/`: benches, tools) are left out.
"""
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("cycles", os.path.join(ROOT, "scripts", "module-cycles.py"))
cycles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cycles)

FN = re.compile(r"\bfn\s+(\w+)")


def functions(path):
    with open(path, encoding="utf-8") as f:
        code = cycles.drop_test_modules(cycles.strip_code(f.read()))
    for m in FN.finditer(code):
        # The body: the first `{` after the signature at paren/bracket depth 0, unless a `;`
        # comes first (a declaration without a body).
        i, depth = m.end(), 0
        while i < len(code):
            c = code[i]
            if c in "([<" and not (c == "<" and code[i - 1] == "-"):
                depth += 1 if c != "<" else 0
            if c in "([":
                pass
            if c in ")]":
                depth -= 1
            if depth <= 0 and c in "{;":
                break
            i += 1
        if i >= len(code) or code[i] == ";":
            continue
        start_line = code.count("\n", 0, m.start()) + 1
        depth, j = 0, i
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        end_line = code.count("\n", 0, j) + 1
        yield m.group(1), start_line, end_line - start_line + 1


def main():
    args = sys.argv[1:]
    over = None
    if "--over" in args:
        k = args.index("--over")
        over = int(args[k + 1])
        del args[k : k + 2]
    crates = args or sorted(
        name for name in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, name, "src"))
    )
    found = []
    for crate in crates:
        src = os.path.join(ROOT, crate, "src")
        for folder, _, files in os.walk(src):
            if os.path.join(src, "bin") in (folder, os.path.dirname(folder)):
                continue
            for name in files:
                if name.endswith(".rs"):
                    path = os.path.join(folder, name)
                    for fn, line, length in functions(path):
                        found.append((length, os.path.relpath(path, ROOT), line, fn))
    found.sort(reverse=True)
    shown = [f for f in found if over is None or f[0] > over] if over is not None else found[:15]
    for length, path, line, fn in shown:
        print(f"{length:5}  {fn}  {path}:{line}")
    if over is not None:
        print(f"{len(shown)} functions over {over} lines in {', '.join(crates)}")
        return 1 if shown else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
