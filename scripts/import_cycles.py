#!/usr/bin/env python3
"""Import cycles between the files of a Rust crate (python3, stdlib only).

The equivalent of `cargo modules dependencies --acyclic` that runs without
building rust-analyzer: a file-level graph of `src/` and its strongly
connected components.

    python3 scripts/import_cycles.py [SRC_DIR]          # default: ./src
    python3 scripts/import_cycles.py [SRC_DIR] --edges A B
    python3 scripts/import_cycles.py --self-test

The graph: an edge a.rs -> b.rs when a.rs names an item (fn, struct, enum,
trait, type, const, static, union, macro) that b.rs defines, by

- a `use` path (`use crate::..`, `use super::..`, `use self::..`, or a path
  relative to the module, `use child::Item`), in any scope;
- a path in code (`crate::x::y::Item`, `super::super::RULES`, `alias::f`
  where `alias` is a module brought in by `use`, `child::Item`);
- a bare name that reaches the file only through a glob import (`use x::*`).

Re-exports are resolved: `use crate::systems::ParamDecl` points at the file
that defines `ParamDecl`, found by following `pub use` chains (named, renamed
or globs) through mod.rs files, so the mod.rs is not a stop on the way. The
`pub use` line itself is an edge of the file that holds it (it names the item);
`--no-reexport-edges` leaves those lines out, so a mod.rs that re-exports its
children and defines items they use is not counted as a cycle with them.

Not edges: a `mod x;` declaration; a `use` that names a module (it is an
alias: the paths that go through it are resolved to their items instead;
`--module-edges` counts it as an edge to the module's file); a file naming its
own items. `krunch::` (the library's name) in the binary's files resolves into
the library's tree.

Code under `#[cfg(test)]` (a `mod tests { .. }`, a test-only `mod x;` file,
a test-only `use` or fn) is marked: the graph is reported without it and with
it. `--edges A B` lists the lines that make A -> B (A and B: paths under
SRC_DIR, or any unique suffix such as `gce/warrior.rs`).

What it does not see: macro-generated paths, names brought in by macros,
`#[path]` attributes, method calls on values (`x.f()` needs the type of `x`,
whose import is already an edge). Visibility is not checked (a glob sees a
module's private names too).
"""

import argparse
import os
import sys

KEYWORDS = {
    "as", "async", "await", "break", "const", "continue", "dyn", "else",
    "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop",
    "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct",
    "trait", "true", "type", "unsafe", "use", "where", "while", "Self",
    "union", "macro_rules", "_",
}
ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union"}
PATH_ROOTS = {"crate", "super", "self"}
LIB_NAME = "krunch"


# ---------------------------------------------------------------- lexer

def lex(text):
    """Tokens (kind, value, line): kind 'id', 'p' (punctuation; `::` is one
    token) or 'lit'. Comments dropped; strings, chars and numbers are 'lit';
    lifetimes dropped."""
    toks = []
    i, n, line = 0, len(text), 1

    def is_id_start(c):
        return c.isalpha() or c == "_"

    def is_id(c):
        return c.isalnum() or c == "_"

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            line += text.count("\n", i, j)
            i = j
            continue
        # raw strings r"..", r#".."#, br#".."#, cr".."
        m_raw = None
        for pre in ("br", "cr", "r"):
            if text.startswith(pre, i) and (i == 0 or not is_id(text[i - 1])):
                j = i + len(pre)
                k = j
                while k < n and text[k] == "#":
                    k += 1
                if k < n and text[k] == '"':
                    m_raw = (j, k)
                break
        if m_raw:
            j, k = m_raw
            hashes = k - j
            end = text.find('"' + "#" * hashes, k + 1)
            end = n if end < 0 else end + 1 + hashes
            toks.append(("lit", "str", line))
            line += text.count("\n", i, end)
            i = end
            continue
        if c == '"' or (c in "bc" and i + 1 < n and text[i + 1] == '"'
                        and (i == 0 or not is_id(text[i - 1]))):
            j = i + (1 if c == '"' else 2)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            toks.append(("lit", "str", line))
            line += text.count("\n", i, j + 1)
            i = j + 1
            continue
        if c == "b" and i + 1 < n and text[i + 1] == "'" and (i == 0 or not is_id(text[i - 1])):
            i += 1
            c = "'"
        if c == "'":
            if i + 1 < n and text[i + 1] == "\\":
                j = i + 2
                while j < n and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
                toks.append(("lit", "char", line))
                i = j + 1
                continue
            if i + 2 < n and text[i + 2] == "'":
                toks.append(("lit", "char", line))
                i += 3
                continue
            # lifetime or label
            j = i + 1
            while j < n and is_id(text[j]):
                j += 1
            i = j
            continue
        if c.isdigit():
            j = i
            while j < n and (is_id(text[j]) or (text[j] == "." and j + 1 < n and text[j + 1].isdigit())):
                j += 1
            toks.append(("lit", "num", line))
            i = j
            continue
        if text.startswith("r#", i) and i + 2 < n and is_id_start(text[i + 2]):
            j = i + 2
            while j < n and is_id(text[j]):
                j += 1
            toks.append(("id", text[i + 2:j], line))
            i = j
            continue
        if is_id_start(c):
            j = i
            while j < n and is_id(text[j]):
                j += 1
            toks.append(("id", text[i:j], line))
            i = j
            continue
        if text.startswith("::", i):
            toks.append(("p", "::", line))
            i += 2
            continue
        toks.append(("p", c, line))
        i += 1
    return toks


# ---------------------------------------------------------------- modules

class Module:
    def __init__(self, name, parent, file, crate, test, inline):
        self.name = name
        self.parent = parent
        self.file = file          # the file that holds this module's text
        self.crate = crate        # 'lib' or 'bin'
        self.test = test          # whole module is #[cfg(test)]
        self.inline = inline
        self.children = {}        # name -> Module
        self.items = {}           # name -> (kind, line)
        self.imports = {}         # name -> Use
        self.unnamed = []         # `use x as _` and globs on items
        self.globs = []           # Use with glob=True
        if parent is None:
            self.child_dir = os.path.dirname(file)
        elif inline:
            self.child_dir = os.path.join(parent.child_dir, name)
        else:
            base = os.path.basename(file)
            if base in ("mod.rs", "lib.rs", "main.rs"):
                self.child_dir = os.path.dirname(file)
            else:
                self.child_dir = os.path.join(os.path.dirname(file), base[:-3])

    def root(self):
        m = self
        while m.parent is not None:
            m = m.parent
        return m


class Use:
    def __init__(self, module, segs, line, test, glob=False, absolute=False):
        self.module = module
        self.segs = segs
        self.line = line
        self.test = test
        self.glob = glob
        self.absolute = absolute
        self.reexport = False     # `pub use` / `pub(crate) use`


class Crate:
    """The module trees of SRC_DIR's lib.rs and main.rs, with every use and
    path reference collected for resolution."""

    def __init__(self, src):
        self.src = os.path.abspath(src)
        self.roots = {}
        self.files = {}           # abs path -> lines of text
        self.file_test = {}       # abs path -> whole file is test-only
        self.refs = []            # (module, kind, segs, line, test); kind 'use'|'path'|'name'|'glob'
        self.uses = []            # Use, for edges
        self.missing = []         # `mod x;` whose file is not found
        for crate, fname in (("lib", "lib.rs"), ("bin", "main.rs")):
            f = os.path.join(self.src, fname)
            if os.path.exists(f):
                root = Module(crate, None, f, crate, False, False)
                self.roots[crate] = root
                self.parse_file(root)
        self.all_rs = sorted(
            os.path.join(d, f)
            for d, _, fs in os.walk(self.src) for f in fs if f.endswith(".rs"))
        self.orphans = [f for f in self.all_rs if f not in self.files]

    def rel(self, f):
        return os.path.relpath(f, self.src)

    # ------------------------------------------------------------ parsing

    def parse_file(self, module):
        with open(module.file, encoding="utf-8") as fh:
            text = fh.read()
        self.files[module.file] = text.splitlines()
        self.file_test[module.file] = module.test
        toks = lex(text)
        self.parse_tokens(toks, module)

    def parse_tokens(self, toks, file_module):
        n = len(toks)
        # stack entries: [module or None, test, nest]
        stack = [[file_module, file_module.test, 0]]
        pending_test = False
        macro_items = False       # `thread_local! {` at module level: items inside
        i = 0

        def cur_module():
            for e in reversed(stack):
                if e[0] is not None:
                    return e[0]
            return file_module

        def in_test():
            return pending_test or any(e[1] for e in stack)

        def tok(k):
            return toks[k] if k < n else ("p", "", 0)

        while i < n:
            kind, val, line = toks[i]
            top = stack[-1]
            at_mod_level = top[0] is not None
            # attributes
            if kind == "p" and val == "#":
                j = i + 1
                inner = False
                if tok(j)[1] == "!":
                    inner, j = True, j + 1
                if tok(j)[1] == "[":
                    depth, k = 0, j
                    while k < n:
                        if toks[k][1] == "[":
                            depth += 1
                        elif toks[k][1] == "]":
                            depth -= 1
                            if depth == 0:
                                break
                        k += 1
                    body = [t[1] for t in toks[j + 1:k]]
                    if body and body[0] == "cfg" and "test" in body and "not" not in body:
                        if inner:
                            top[1] = True
                            m = cur_module()
                            m.test = True
                        else:
                            pending_test = True
                    i = k + 1
                    continue
            if kind == "id" and val == "use" and tok(i - 1)[1] != "::":
                k = i - 1
                if tok(k)[1] == ")":
                    while k > 0 and toks[k][1] != "(":
                        k -= 1
                    k -= 1
                public = k >= 0 and tok(k)[1] == "pub"
                i = self.parse_use(toks, i + 1, cur_module(), in_test(), public)
                pending_test = False
                continue
            if at_mod_level and kind == "id" and val == "mod" and tok(i + 1)[0] == "id":
                name = tok(i + 1)[1]
                after = tok(i + 2)[1]
                parent = cur_module()
                test = in_test()
                if after == ";":
                    cands = [os.path.join(parent.child_dir, name + ".rs"),
                             os.path.join(parent.child_dir, name, "mod.rs")]
                    found = [c for c in cands if os.path.exists(c)]
                    if found:
                        child = Module(name, parent, found[0], parent.crate, test, False)
                        parent.children[name] = child
                        self.parse_file(child)
                    else:
                        self.missing.append((parent.file, line, name))
                    pending_test = False
                    i += 3
                    continue
                if after == "{":
                    child = Module(name, parent, parent.file, parent.crate, test, True)
                    parent.children[name] = child
                    stack.append([child, test, 0])
                    pending_test = False
                    i += 3
                    continue
            if at_mod_level and kind == "id":
                if val in ITEM_KEYWORDS:
                    j = i + 1
                    if tok(j)[1] == "mut":
                        j += 1
                    if tok(j)[0] == "id" and tok(j)[1] not in KEYWORDS:
                        cur_module().items.setdefault(tok(j)[1], (val, line))
                elif val == "macro_rules" and tok(i + 1)[1] == "!" and tok(i + 2)[0] == "id":
                    cur_module().items.setdefault(tok(i + 2)[1], ("macro", line))
                elif tok(i + 1)[1] == "!" and tok(i + 2)[1] == "{" and tok(i - 1)[1] != "::":
                    macro_items = True
            if kind == "p":
                if val == "{":
                    stack.append([cur_module() if macro_items else None, pending_test, 0])
                    pending_test = False
                    macro_items = False
                elif val == "}":
                    if len(stack) > 1:
                        stack.pop()
                elif val in "([":
                    top[2] += 1
                elif val in ")]":
                    top[2] -= 1
                elif val == ";" and top[2] <= 0:
                    pending_test = False
                i += 1
                continue
            if kind == "id" and tok(i - 1)[1] != "::" and (
                    val not in KEYWORDS or val in PATH_ROOTS):
                segs, j = [val], i + 1
                while tok(j)[1] == "::" and tok(j + 1)[0] == "id":
                    segs.append(tok(j + 1)[1])
                    j += 2
                if len(segs) > 1:
                    self.refs.append((cur_module(), "path", segs, line, in_test()))
                elif tok(i - 1)[1] != "." and tok(i + 1)[1] != "!" and val not in PATH_ROOTS:
                    self.refs.append((cur_module(), "name", segs, line, in_test()))
                i = j
                continue
            i += 1

    def parse_use(self, toks, i, module, test, public=False):
        """Parse a use tree from toks[i] to its `;`; record bindings."""
        n = len(toks)

        def tree(i, prefix):
            segs = []
            absolute = False
            if i < n and toks[i][1] == "::":
                absolute, i = True, i + 1
            while i < n:
                kind, val, line = toks[i]
                if kind == "id":
                    segs.append(val)
                    i += 1
                    if i < n and toks[i][1] == "::":
                        i += 1
                        continue
                    break
                if val == "*":
                    self.bind(module, prefix + segs, None, line, test, glob=True,
                              absolute=absolute, public=public)
                    return i + 1
                if val == "{":
                    i += 1
                    while i < n and toks[i][1] != "}":
                        if toks[i][1] == ",":
                            i += 1
                            continue
                        i = tree(i, prefix + segs)
                    return i + 1
                break
            line = toks[i - 1][2] if i > 0 else 0
            alias = None
            if i < n and toks[i][1] == "as" and i + 1 < n:
                alias = toks[i + 1][1]
                i += 2
            full = prefix + segs
            if full and full[-1] == "self":
                full = full[:-1]
            name = alias if alias is not None else (full[-1] if full else None)
            if full:
                self.bind(module, full, name, line, test, absolute=absolute, public=public)
            return i

        while i < n and toks[i][1] != ";":
            j = tree(i, [])
            i = j if j > i else i + 1
        return i + 1

    def bind(self, module, segs, name, line, test, glob=False, absolute=False, public=False):
        u = Use(module, segs, line, test, glob=glob, absolute=absolute)
        u.reexport = public
        if glob:
            module.globs.append(u)
        elif name is None or name == "_":
            module.unnamed.append(u)
        else:
            module.imports.setdefault(name, u)
        self.uses.append(u)

    # ------------------------------------------------------------ resolution

    def lookup(self, module, name, seen):
        """(how, result) for `name` in module's namespace; result is
        ('mod', Module) or ('item', Module, name) or None."""
        key = (id(module), name)
        if key in seen:
            return None, None
        seen = seen | {key}
        if name in module.children:
            return "child", ("mod", module.children[name])
        if name in module.items:
            return "item", ("item", module, name)
        if name in module.imports:
            u = module.imports[name]
            r = self.resolve(u.module, u.segs, seen, absolute=u.absolute)
            if r is not None:
                return "import", r
        for g in module.globs:
            t = self.resolve(g.module, g.segs, seen, absolute=g.absolute)
            if t is not None and t[0] == "mod":
                _, r = self.lookup(t[1], name, seen)
                if r is not None:
                    return "glob", r
        return None, None

    def first(self, module, seg, seen, absolute=False):
        if absolute:
            return "extern", None
        if seg == "crate":
            return "root", ("mod", module.root())
        if seg == "self":
            return "root", ("mod", module)
        if seg == "super":
            return "root", ("mod", module.parent) if module.parent else None
        how, r = self.lookup(module, seg, seen)
        if r is None and seg == LIB_NAME and module.crate == "bin" and "lib" in self.roots:
            return "root", ("mod", self.roots["lib"])
        return how, r

    def resolve(self, module, segs, seen=frozenset(), absolute=False, with_how=False):
        how, r = self.first(module, segs[0], seen, absolute)
        for s in segs[1:]:
            if r is None or r[0] != "mod":
                break
            if s == "super":
                r = ("mod", r[1].parent) if r[1].parent else None
                continue
            if s == "self":
                continue
            _, r = self.lookup(r[1], s, seen)
        return (how, r) if with_how else r

    @staticmethod
    def target_file(r):
        return r[1].file

    # ------------------------------------------------------------ edges

    def edges(self, module_edges=False, reexports=True):
        """{(a, b): [(line, test, why)]} between distinct files."""
        out = {}
        glob_seen = set()

        def add(a, b, line, test, why):
            if a and b and a != b:
                out.setdefault((a, b), []).append((line, test, why))

        for u in self.uses:
            if u.reexport and not reexports:
                continue
            r = self.resolve(u.module, u.segs, absolute=u.absolute)
            if r is None:
                continue
            if r[0] == "item" or module_edges:
                add(u.module.file, r[1].file, u.line, u.test or u.module.test, "use")
        for module, kind, segs, line, test in self.refs:
            test = test or module.test
            if kind == "path":
                how, head = self.first(module, segs[0], frozenset())
                if head is None or how == "item":
                    continue  # not ours (std::, a type parameter) or this module's own
                if how == "import" and head[0] == "item":
                    continue  # `Imported::x`: the use line is the edge
                if how == "glob" and head[0] == "item":
                    # a glob's name: its first line in the module tells why
                    if (id(module), segs[0]) in glob_seen:
                        continue
                    glob_seen.add((id(module), segs[0]))
                r = self.resolve(module, segs)
                if r is None:
                    continue
                if r[0] == "item" or module_edges:
                    add(module.file, r[1].file, line, test, "path")
            else:
                name = segs[0]
                if name in module.items or name in module.children or name in module.imports:
                    continue
                how, r = self.lookup(module, name, frozenset())
                if how == "glob" and r is not None and r[0] == "item" \
                        and (id(module), name) not in glob_seen:
                    glob_seen.add((id(module), name))
                    add(module.file, r[1].file, line, test, "glob")
        return out


# ---------------------------------------------------------------- graphs

def tarjan(nodes, adj):
    index, low, on, stack, comps = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        # iterative Tarjan
        work = [(v, iter(sorted(adj.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                comps.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return comps


def count_cycles(comp, adj, cap):
    """Elementary cycles inside one SCC (Johnson's algorithm), up to cap."""
    order = sorted(comp)
    pos = {v: k for k, v in enumerate(order)}
    total = 0
    for s_i, s in enumerate(order):
        allowed = {v for v in order if pos[v] >= s_i}
        sub = {v: [w for w in adj.get(v, ()) if w in allowed] for v in allowed}
        # restrict to the SCC of s within sub
        comps = tarjan(allowed, sub)
        scc = next(c for c in comps if s in c)
        if len(scc) == 1 and s not in sub[s]:
            continue
        scc = set(scc)
        blocked, bmap = set(), {v: set() for v in scc}
        path = [s]
        blocked.add(s)
        stack = [(s, iter([w for w in sub[s] if w in scc]), False)]
        while stack:
            v, it, found = stack[-1]
            advanced = False
            for w in it:
                if w == s:
                    total += 1
                    if total >= cap:
                        return total, True
                    found = True
                    stack[-1] = (v, it, True)
                elif w not in blocked:
                    blocked.add(w)
                    path.append(w)
                    stack.append((w, iter([x for x in sub[w] if x in scc]), False))
                    advanced = True
                    break
            if advanced:
                continue
            v, it, found = stack.pop()
            if found:
                unblock = [v]
                while unblock:
                    u = unblock.pop()
                    if u in blocked:
                        blocked.discard(u)
                        unblock.extend(bmap[u])
                        bmap[u].clear()
            else:
                for w in sub[v]:
                    if w in scc:
                        bmap[w].add(v)
            path.pop()
            if stack and found:
                pv, pit, _ = stack[-1]
                stack[-1] = (pv, pit, True)
    return total, False


def analyse(edges, files, with_tests, cap):
    adj = {}
    for (a, b), why in edges.items():
        if with_tests or any(not t for _, t, _ in why):
            adj.setdefault(a, set()).add(b)
    comps = [c for c in tarjan(files, adj) if len(c) > 1]
    comps.sort(key=lambda c: (-len(c), c))
    n_edges = sum(len(v) for v in adj.values())
    mutual = sorted((a, b) for a in adj for b in adj[a] if a < b and a in adj.get(b, ()))
    cycles = []
    for c in comps:
        cycles.append(count_cycles(c, adj, cap))
    return comps, n_edges, mutual, cycles, adj


# ---------------------------------------------------------------- report

def report(src, module_edges=False, cap=100000, out=sys.stdout, reexports=True):
    crate = Crate(src)
    edges = crate.edges(module_edges, reexports)
    files = list(crate.files)
    rel = crate.rel
    w = out.write
    w(f"source: {crate.src}\n")
    w(f"files: {len(files)} in the module trees of {', '.join(rel(r.file) for r in crate.roots.values())}"
      f"; test-only files: {sum(1 for f in files if crate.file_test[f])}\n")
    if crate.orphans:
        w(f"not in a module tree (not read): {', '.join(rel(f) for f in crate.orphans)}\n")
    for f, line, name in crate.missing:
        w(f"warning: {rel(f)}:{line}: `mod {name};` file not found\n")
    if module_edges:
        w("(--module-edges: a `use` of a module counts as an edge to its file)\n")
    if not reexports:
        w("(--no-reexport-edges: a `pub use` line is not an edge of its file)\n")
    results = {}
    for label, with_tests in (("without #[cfg(test)] code", False), ("with #[cfg(test)] code", True)):
        comps, n_edges, mutual, cycles, _ = analyse(edges, files, with_tests, cap)
        results[with_tests] = comps
        w(f"\n== {label} ==\n")
        w(f"file edges: {n_edges}\n")
        in_cycles = sum(len(c) for c in comps)
        w(f"import cycles (strongly connected components of more than one file): {len(comps)}, "
          f"covering {in_cycles} files\n")
        w(f"largest SCC: {len(comps[0]) if comps else 0} files\n")
        n_cyc = sum(c for c, _ in cycles)
        capped = any(x for _, x in cycles)
        w(f"elementary cycles: {'>= ' if capped else ''}{n_cyc}"
          f"{' (counting stopped at the cap)' if capped else ''}\n")
        w(f"mutual pairs (a -> b and b -> a): {len(mutual)}\n")
        for a, b in mutual:
            w(f"  {rel(a)} <-> {rel(b)}\n")
        for k, c in enumerate(comps, 1):
            cc, cap_hit = cycles[k - 1]
            w(f"SCC {k}: {len(c)} files, {'>= ' if cap_hit else ''}{cc} elementary cycles\n")
            for f in sorted(c, key=rel):
                w(f"  {rel(f)}\n")
    w("\n== largest files by lines ==\n")
    sizes = sorted(((len(crate.files[f]), rel(f)) for f in files), key=lambda x: (-x[0], x[1]))
    for lines, f in sizes[:10]:
        w(f"  {lines:6} {f}\n")
    return crate, edges, results


def find_file(crate, name):
    cands = [f for f in crate.files if crate.rel(f) == name or f == os.path.abspath(name)]
    if not cands:
        cands = [f for f in crate.files if crate.rel(f).endswith(name)
                 and (crate.rel(f) == name or crate.rel(f).endswith("/" + name))]
    if len(cands) != 1:
        raise SystemExit(f"--edges: '{name}' matches {len(cands)} files"
                         f"{': ' + ', '.join(sorted(crate.rel(c) for c in cands)) if cands else ''}")
    return cands[0]


def explain(src, a, b, module_edges=False, out=sys.stdout, reexports=True):
    crate = Crate(src)
    edges = crate.edges(module_edges, reexports)
    fa, fb = find_file(crate, a), find_file(crate, b)
    why = edges.get((fa, fb), [])
    w = out.write
    if not why:
        w(f"no edge {crate.rel(fa)} -> {crate.rel(fb)}\n")
        return why
    lines = crate.files[fa]
    seen = set()
    w(f"{crate.rel(fa)} -> {crate.rel(fb)}: {len({l for l, _, _ in why})} lines"
      f"{' (all in #[cfg(test)] code)' if all(t for _, t, _ in why) else ''}\n")
    for line, test, kind in sorted(why):
        if line in seen:
            continue
        seen.add(line)
        text = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        w(f"  {crate.rel(fa)}:{line}: [{kind}{', test' if test else ''}] {text}\n")
    return why


# ---------------------------------------------------------------- self-test

def self_test():
    import io
    import tempfile
    import unittest

    def write(root, files):
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as fh:
                fh.write(text)

    FAKE = {
        "lib.rs": "pub mod reg;\npub mod sets;\nmod lone;\npub use reg::Decl;\n",
        # reg.rs names RULES through the re-export in sets/mod.rs, and
        # Gamma through a glob re-export, in a full path in code.
        "reg.rs": (
            "//! use crate::lone::Lonely; (a comment is not an import)\n"
            "use crate::sets::RULES;\n"
            "pub struct Decl;\n"
            "pub fn all() -> usize { let s = \"use crate::lone::Lonely;\"; "
            "crate::sets::Gamma::new(); s.len() + RULES }\n"
        ),
        "sets/mod.rs": (
            "pub mod alpha;\npub mod beta;\npub mod gamma;\npub mod delta;\n"
            "pub use alpha::RULES;\npub use gamma::*;\n"
            "pub fn helper() {}\n"
        ),
        # alpha.rs -> reg.rs through lib.rs's `pub use reg::Decl`
        "sets/alpha.rs": "use crate::Decl;\npub const RULES: usize = 1;\nfn f(_: Decl) {}\n",
        # beta.rs -> sets/mod.rs; sets/mod.rs -> beta.rs only by `mod beta;`
        # (through a module brought in by `use`: the path in code is the edge)
        "sets/beta.rs": "use crate::sets;\npub fn b() { sets::helper() }\n",
        "sets/gamma.rs": (
            "pub struct Gamma;\nimpl Gamma { pub fn new() -> Self { Gamma } }\n"
            "#[cfg(test)]\nmod tests {\n    use super::*;\n"
            "    #[test]\n    fn t() { let _ = crate::lone::Lonely; super::super::delta::d(); }\n}\n"
        ),
        "sets/delta.rs": "pub fn d() {}\nthread_local! { pub static FLAG: u8 = 0; }\n",
        # lone.rs -> gamma.rs (code), gamma.rs -> lone.rs only in tests
        "lone.rs": "pub struct Lonely;\nfn g() { let _ = crate::sets::gamma::Gamma; }\n",
    }

    class T(unittest.TestCase):
        def setUp(self):
            self.dir = tempfile.TemporaryDirectory()
            write(self.dir.name, FAKE)
            self.crate = Crate(self.dir.name)
            self.edges = self.crate.edges()
            self.rel = {(self.crate.rel(a), self.crate.rel(b)): v for (a, b), v in self.edges.items()}

        def tearDown(self):
            self.dir.cleanup()

        def sccs(self, with_tests):
            comps, *_ = analyse(self.edges, list(self.crate.files), with_tests, 1000)
            return [sorted(self.crate.rel(f) for f in c) for c in comps]

        def test_cycle_through_reexports_is_found(self):
            self.assertIn(("reg.rs", "sets/alpha.rs"), self.rel)   # via sets/mod.rs pub use
            self.assertIn(("sets/alpha.rs", "reg.rs"), self.rel)   # via lib.rs pub use
            self.assertNotIn(("reg.rs", "sets/mod.rs"), self.rel)
            self.assertIn(["reg.rs", "sets/alpha.rs"], self.sccs(False))

        def test_glob_reexport_in_a_code_path(self):
            self.assertEqual([l for l, _, _ in self.rel[("reg.rs", "sets/gamma.rs")]], [4])

        def test_mod_line_alone_is_not_an_edge(self):
            self.assertEqual(self.rel[("sets/beta.rs", "sets/mod.rs")], [(2, False, "path")])
            self.assertNotIn(("sets/mod.rs", "sets/beta.rs"), self.rel)
            self.assertNotIn(("lib.rs", "lone.rs"), self.rel)
            for c in self.sccs(True):
                self.assertFalse("sets/beta.rs" in c and "sets/mod.rs" in c)

        def test_reexport_lines_can_be_left_out(self):
            edges = {(self.crate.rel(a), self.crate.rel(b))
                     for a, b in self.crate.edges(reexports=False)}
            self.assertIn(("sets/mod.rs", "sets/alpha.rs"), self.rel)
            self.assertNotIn(("sets/mod.rs", "sets/alpha.rs"), edges)
            self.assertIn(("reg.rs", "sets/alpha.rs"), edges)  # still resolved through it

        def test_items_in_a_macro_block(self):
            r = self.crate.resolve(self.crate.roots["lib"], ["crate", "sets", "delta", "FLAG"])
            self.assertEqual((r[0], r[2], self.crate.rel(r[1].file)), ("item", "FLAG", "sets/delta.rs"))

        def test_comments_and_strings_are_not_imports(self):
            self.assertNotIn(("reg.rs", "lone.rs"), self.rel)

        def test_test_code_counted_apart(self):
            why = self.rel[("sets/gamma.rs", "lone.rs")]
            self.assertTrue(all(t for _, t, _ in why))
            # super::super inside `mod tests` is the parent of gamma: sets
            self.assertIn(("sets/gamma.rs", "sets/delta.rs"), self.rel)
            self.assertNotIn(["lone.rs", "sets/gamma.rs"], self.sccs(False))
            self.assertIn(["lone.rs", "sets/gamma.rs"], self.sccs(True))

        def test_edges_explains_with_the_line(self):
            buf = io.StringIO()
            explain(self.dir.name, "sets/alpha.rs", "reg.rs", out=buf)
            self.assertIn("sets/alpha.rs:1: [use] use crate::Decl;", buf.getvalue())

        def test_report_runs(self):
            buf = io.StringIO()
            report(self.dir.name, out=buf)
            text = buf.getvalue()
            self.assertIn("largest SCC: 2 files", text)

    suite = unittest.TestLoader().loadTestsFromTestCase(T)
    ok = unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful()
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", nargs="?", default="src", help="the crate's src/ (default: ./src)")
    ap.add_argument("--edges", nargs=2, metavar=("A", "B"), help="explain the edge A -> B")
    ap.add_argument("--module-edges", action="store_true",
                    help="count a `use` of a module as an edge to the module's file")
    ap.add_argument("--no-reexport-edges", action="store_true",
                    help="a `pub use` line is only a pass-through, not an edge of its file")
    ap.add_argument("--cap", type=int, default=100000,
                    help="stop counting elementary cycles of an SCC at this many")
    ap.add_argument("--self-test", action="store_true", help="run the script's own tests")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not os.path.isdir(args.src):
        print(f"error: {args.src}: not a directory", file=sys.stderr)
        return 2
    if args.edges:
        explain(args.src, *args.edges, module_edges=args.module_edges,
                reexports=not args.no_reexport_edges)
        return 0
    report(args.src, module_edges=args.module_edges, cap=args.cap,
           reexports=not args.no_reexport_edges)
    return 0


if __name__ == "__main__":
    sys.exit(main())
