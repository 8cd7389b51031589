#!/usr/bin/env python3
"""Finds import cycles between the modules of each crate in the workspace.

A module is a source file (`a.rs`, `a/mod.rs`, `lib.rs`); modules declared inline in a file
(`mod ssr { … }`) count as part of it. Module M depends on module N when M's code names an item
of N through a path (`use crate::n::Item`, `super::n::f()`, `self::…`). Declaring a child
(`mod n;`) is not a dependency, and neither is re-exporting (`pub use n::Item;`): a path through
a re-export is followed to the module that defines the item. Test code (`#[cfg(test)] mod …`)
is left out. Paths into other crates cannot form a cycle (cargo forbids cyclic crates).

Prints every cycle found (one strongly connected component per line, with one of its loops) and
exits 1 if there is any; exits 0 with "no module cycles in N modules of M crates" otherwise.

    python3 scripts/module-cycles.py            # every crate of the workspace
    python3 scripts/module-cycles.py app store  # only these crate folders
    python3 scripts/module-cycles.py --why      # and the paths that make each cycle
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ITEM = re.compile(
    r"\bpub(?:\([^)]*\))?\s+(?:async\s+|const\s+|unsafe\s+)*(?:fn|struct|enum|const|static|type|trait|mod|union)\s+(\w+)"
)
MACRO = re.compile(r"macro_rules!\s*(\w+)")


def strip_code(text):
    """The text with comments, string and char literals blanked (lengths kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + re.sub(r"[^\n]", " ", text[i + 1 : j]) + '"')
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i : i + 4]) or (c == "'" and text[i + 1 : i + 2] == "\\"):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def drop_test_modules(code):
    """The code without `#[cfg(test)]` items, nor `#[cfg(all(test, …))]` ones (their braces
    matched)."""
    while True:
        m = re.search(
            r"#\[cfg\((?:test|all\(test\b[^\]]*\))\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*(\{|;)",
            code,
        )
        if not m:
            return code
        if m.group(1) == ";":
            code = code[: m.start()] + " " * (m.end() - m.start()) + code[m.end() :]
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        code = code[: m.start()] + re.sub(r"[^\n]", " ", code[m.start() : j]) + code[j:]


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` → [["a","b"], ["a","c","d"], ["a","c","e"]] (aliases dropped)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))

    def parse(s, i):
        # returns (list of paths, index after)
        prefix = []
        paths = []
        token = ""
        while i < len(s):
            c = s[i]
            if s.startswith("::", i):
                if token:
                    prefix.append(token)
                token = ""
                i += 2
            elif c == "{":
                inner, i = parse_group(s, i + 1)
                paths.extend(prefix + p for p in inner)
                return paths, i
            elif c in ",}":
                break
            else:
                token += c
                i += 1
        if token:
            paths.append(prefix + [token])
        return paths, i

    def parse_group(s, i):
        paths = []
        while i < len(s) and s[i] != "}":
            p, i = parse(s, i)
            paths.extend(p)
            if i < len(s) and s[i] == ",":
                i += 1
        return paths, i + 1

    paths, _ = parse(tree, 0)
    return paths


class Crate:
    def __init__(self, name, src):
        self.name = name
        self.src = src
        self.files = {}  # module path tuple -> file path
        self.inline = {}  # module path tuple -> file module path tuple (inline modules)
        self.items = {}  # module path -> set of item names defined there
        self.reexports = {}  # module path -> {name: absolute path list}
        self.globs = {}  # module path -> [absolute module path]
        self.refs = {}  # module path -> list of absolute paths named

    def load(self):
        roots = [f for f in ("lib.rs", "main.rs") if os.path.exists(os.path.join(self.src, f))]
        if not roots:
            return False
        self._load_file((), os.path.join(self.src, roots[0]), is_root=True)
        return True

    def _child_file(self, module, file, is_root, name, path_attr):
        base = os.path.dirname(file)
        if path_attr:
            return os.path.join(base, path_attr)
        if is_root or os.path.basename(file) == "mod.rs":
            folder = base
        else:
            folder = os.path.join(base, os.path.splitext(os.path.basename(file))[0])
        for cand in (os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")):
            if os.path.exists(cand):
                return cand
        return None

    def _load_file(self, module, file, is_root=False):
        self.files[module] = file
        with open(file, encoding="utf-8") as f:
            code = drop_test_modules(strip_code(f.read()))
        self.items.setdefault(module, set())
        self.reexports.setdefault(module, {})
        self.globs.setdefault(module, [])
        self.refs.setdefault(module, [])
        # Walk the file tracking inline modules, so `super` and `self` resolve.
        stack = []  # (inline module name, brace depth at its opening)
        depth = 0
        i = 0
        token = re.compile(
            r"(?P<path_attr>#\[path\s*=\s*\"[^\"]*\"\]\s*)?(?P<moddecl>\b(?:pub(?:\([^)]*\))?\s+)?mod\s+(?P<modname>\w+)\s*(?P<modend>[;{]))"
            r"|(?P<use>\b(?P<pub>pub(?:\([^)]*\))?\s+)?use\s+(?P<tree>[^;]+);)"
            r"|(?P<path>\b(?:crate|super|self)(?:\s*::\s*\w+)+)"
            r"|(?P<open>\{)|(?P<close>\})"
        )
        raw = open(file, encoding="utf-8").read()
        for m in token.finditer(code):
            here = module + tuple(s for s, _ in stack)
            if m.group("open"):
                depth += 1
            elif m.group("close"):
                depth -= 1
                if stack and stack[-1][1] == depth:
                    stack.pop()
            elif m.group("moddecl"):
                name = m.group("modname")
                if m.group("modend") == "{":
                    self.inline[here + (name,)] = module
                    self.items.setdefault(here + (name,), set())
                    self.reexports.setdefault(here + (name,), {})
                    self.globs.setdefault(here + (name,), [])
                    stack.append((name, depth))
                    depth += 1
                else:
                    attr = re.search(r"#\[path\s*=\s*\"([^\"]*)\"\]\s*$", raw[: m.start("moddecl")])
                    child = self._child_file(module, file, is_root, name, attr.group(1) if attr else None)
                    if child and not stack:
                        self._load_file(module + (name,), child)
                    elif child:
                        self._load_file(here + (name,), child)
                    self.items[here].add(name)
            elif m.group("use"):
                for p in expand_use_tree(m.group("tree")):
                    absolute = self.absolute(here, p)
                    if absolute is None:
                        continue
                    if m.group("pub"):
                        if absolute[-1] == "*":
                            self.globs[here].append(absolute[:-1])
                        else:
                            self.reexports[here][absolute[-1]] = absolute
                    else:
                        self.refs[module].append((here, absolute))
            elif m.group("path"):
                p = re.sub(r"\s+", "", m.group("path")).split("::")
                absolute = self.absolute(here, p)
                if absolute is not None:
                    self.refs[module].append((here, absolute))
        for im in ITEM.finditer(code):
            self.items[module].add(im.group(1))
        for im in MACRO.finditer(code):
            self.items[()].add(im.group(1))

    def absolute(self, here, path):
        """A path as seen from module `here`, made absolute from the crate root, or None if it
        leads out of the crate."""
        if not path:
            return None
        head = path[0]
        if head == "crate":
            return tuple(path[1:])
        if head in ("self", "super"):
            base = list(here)
            rest = list(path)
            while rest and rest[0] in ("self", "super"):
                if rest[0] == "super":
                    if not base:
                        return None
                    base.pop()
                rest.pop(0)
            return tuple(base + rest)
        # A bare path in `use` (2018 edition) names a crate or a child of this module.
        if here + (head,) in self.files or here + (head,) in self.inline:
            return here + tuple(path)
        return None

    def owner(self, module):
        """The file module an (inline or file) module belongs to."""
        while module in self.inline:
            module = self.inline[module]
        return module

    def resolve(self, path, seen=0):
        """The file module defining what `path` names."""
        if seen > 20:
            return None
        path = tuple(path)
        # The longest prefix that is a module.
        k = len(path)
        while k > 0 and not (path[:k] in self.files or path[:k] in self.inline):
            k -= 1
        module = path[:k]
        rest = path[k:]
        if rest:
            name = rest[0]
            if name in self.reexports.get(module, {}):
                target = self.reexports[module][name]
                return self.resolve(tuple(target) + rest[1:], seen + 1)
            if name not in self.items.get(module, set()):
                for g in self.globs.get(module, []):
                    if g + (name,) in self.files or name in self.items.get(g, set()) or name in self.reexports.get(g, {}):
                        return self.resolve(g + rest, seen + 1)
        return self.owner(module)

    def edges(self):
        graph = {m: set() for m in self.files}
        for module, refs in self.refs.items():
            for _, path in refs:
                target = self.resolve(path)
                if target is None or target == module or target not in self.files:
                    continue
                graph[module].add(target)
        return graph


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def a_loop(graph, comp):
    """One loop through the component, for the message."""
    members = set(comp)
    start = sorted(comp)[0]
    path, seen = [start], {start}
    # BFS back to start
    from collections import deque

    prev = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                loop = [v]
                while prev[loop[-1]] is not None:
                    loop.append(prev[loop[-1]])
                return list(reversed(loop)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def name(m):
    return "::".join(m) if m else "crate"


def main():
    why = "--why" in sys.argv
    wanted = [a for a in sys.argv[1:] if a != "--why"]
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as f:
        members = re.findall(r'"([^"]+)"', re.search(r"members\s*=\s*\[([^\]]*)\]", f.read()).group(1))
    total_modules = 0
    found = 0
    crates = 0
    for member in members:
        if wanted and member not in wanted:
            continue
        src = os.path.join(ROOT, member, "src")
        crate = Crate(member, src)
        if not crate.load():
            continue
        crates += 1
        graph = crate.edges()
        total_modules += len(graph)
        for comp in cycles(graph):
            found += 1
            loop = a_loop(graph, comp)
            print(f"{member}: cycle through {len(comp)} modules: " + " -> ".join(name(m) for m in loop))
            if why:
                members_ = set(comp)
                for module in sorted(comp):
                    for _, path in crate.refs[module]:
                        target = crate.resolve(path)
                        if target in members_ and target != module:
                            print(f"    {name(module)} names {'::'.join(path)} ({name(target)})")
    if found:
        print(f"{found} module cycles")
        return 1
    print(f"no module cycles in {total_modules} modules of {crates} crates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
