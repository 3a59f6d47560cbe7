#!/usr/bin/env python3
"""tools/check-layers.py: the dependency check of issue 24 (item 4).

  tools/check-layers.py [--root DIR] [--dot | --json] [--macros] [--refs]
                        [--calls-only] [--map FILE]

Reads every .c and .h under the source folders of FOLDERS below (and under
tests/, whose files are consumers: they may use anything and are never
checked) and builds a file-level dependency graph from
  (a) #include "..." lines (resolved from the root, as -I. does, then from
      the including file's folder), and
  (b) the calls it can see: an identifier followed by '(' inside a function
      body, naming a function DEFINED (with a body, not just declared) in
      another file of the tree.  A call resolves to the file that defines
      the name; a file that defines the name itself calls its own; static
      functions are file-local and never resolve across files (a static
      inline function of a header is reached through the include).  Not
      calls: x->name( and x.name( (calls through struct members), names of
      the function's own parameters, C keywords, and macros (a macro's
      name is not a function; with --macros, the calls written inside a
      function-like macro of the tree count at each place the macro is
      used, as "call NAME via MACRO").  With --refs, a function named
      without a call (its address taken: a handler table, a callback
      argument) counts too, as "ref NAME", and so does one named in a
      file-scope initializer (a static table of handlers).
A .h counts as part of the .c of the same stem in the same folder (one
node); a .h without such a .c is a node of its own.

It fails (exit 1) on
  (i)  an include or call from one folder to a folder it may not use
       (ALLOWED below: a lower folder using a higher one, or one of two
       peers using the other),
  (ii) a circle inside a folder: a strongly connected component of more
       than one node among the folder's files,
  (iii) a function pointer (a struct member, a typedef, a variable; not
       a parameter) declared as (*NAME)(...) or through a typedef of the
       tree (PTR_T NAME, FN_T *NAME) whose NAME is also a function of the
       tree, static or not: calls through members are not counted as
       calls, so such a member must not read as one (issue 24:
       `pe->batch_cut` beside batch_cut), and,
  (iv) with --map FILE (a path from the root: docs/ARCHITECTURE.md), the
       map out of date: its table rows whose first cell is a source file
       in backticks must name every .c file of the folders once, in a
       layer order inside each folder (a file uses only files of rows
       above it), and every `name()` it writes must be a function or
       function-like macro of the tree;
printing each violation as `file -> file (include|call NAME)`; for a
circle, the component, one concrete cycle through it with the function
names on each edge, and every edge inside it.  On success it prints the
layer order it found (the folders in order, and inside each folder its
files in a topological order, lowest first, ties by name) and exits 0.
--dot prints the graph in Graphviz dot, --json as JSON (both still exit 1
when the check fails).  --calls-only leaves the includes out (a step of
the refactor, not the check).  Exit 2: usage error or unreadable tree.

Limits (a small script, not a compiler): no macro expansion (unless
--macros, and then one level of calls written in the macro body), both
branches of every #if are read, and a local variable holding a function
pointer that shares a function's name would count as a call to it.
"""
import json
import os
import re
import sys
from collections import defaultdict, deque

# The folders, lowest first, and which folders each may use (besides
# itself).  Stated order (Makefile, README, issue 24):
#     core <- hw, net <- sched <- pnr <- app <- study
# and gen (pnrsim-gen) beside study, on core and app only.
# hw and net are peers: neither may use the other.  Today net/ includes no
# hw/ header and calls no hw/ function (and hw/ nothing of net/), so the
# table keeps them apart; sched/ is the first folder that sees both.
FOLDERS = ["core", "hw", "net", "sched", "pnr", "app", "study", "gen"]
ALLOWED = {
    "core":  set(),
    "hw":    {"core"},
    "net":   {"core"},
    "sched": {"core", "hw", "net"},
    "pnr":   {"core", "hw", "net", "sched"},
    "app":   {"core", "hw", "net", "sched", "pnr"},
    "study": {"core", "hw", "net", "sched", "pnr", "app"},
    # pnrsim-gen (issue 36): random streams (core) and the SWF reader (app)
    # only; it knows nothing of the simulated machine or its scheduler.
    "gen":   {"core", "app"},
}
CONSUMERS = ["tests"]   # read, drawn, never checked; may use anything

# The C reader (tokens, Source) is tools/layerscan.py, beside this file.
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layerscan import KEYWORDS, Source  # noqa: E402



def die(msg):
    print("check-layers: " + msg, file=sys.stderr)
    sys.exit(2)


def read_tree(root):
    """{relative path: Source} for every .c/.h under the folders."""
    files = {}
    for folder in FOLDERS + CONSUMERS:
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, names in os.walk(base):
            dirnames.sort()
            for n in sorted(names):
                if not n.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, n)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        files[rel] = Source(rel, f.read())
                except (OSError, ValueError) as e:
                    die("%s: %s" % (rel, e))
    return files


def unit_of(rel, files):
    """The node of a file: a .h belongs to the .c of the same stem."""
    if rel.endswith(".h") and rel[:-2] + ".c" in files:
        return rel[:-2] + ".c"
    return rel


def header_only(rel, files):
    """True for a .h with no .c of the same stem: not a node of its own;
    whoever includes it includes what it includes (and calls what its
    static inline functions call, where it calls them)."""
    return rel.endswith(".h") and rel[:-2] + ".c" not in files


def include_reach(h, files, inc):
    """[(file, chain)]: the files that are not header_only reached from the
    header_only file h through include edges (inc: file -> included
    files), chain the header_only files passed on the way."""
    out, todo, seen = [], [(h, [h])], {h}
    while todo:
        f, chain = todo.pop(0)
        for d in sorted(inc.get(f, ())):
            if d in seen:
                continue
            seen.add(d)
            if header_only(d, files):
                todo.append((d, chain + [d]))
            else:
                out.append((d, chain))
    return out


def build_graph(files, root, with_macros, with_refs):
    """(edges, warnings): edges is the set of (from file, to file, kind,
    name) with kind include/call/ref (name '' for an include)."""
    edges, warnings = set(), []
    definers = defaultdict(list)          # name -> non-static defining files
    inline = defaultdict(list)            # name -> header-only files, static
    inline_calls = defaultdict(list)      # (header, function) -> names called
    macros = {}
    for rel, s in files.items():
        for name, static in s.defs.items():
            if not static:
                definers[name].append(rel)
            elif header_only(rel, files):
                inline[name].append(rel)
        if header_only(rel, files):
            for fn, name, kind in s.calls:
                if kind == "call" and name not in inline_calls[(rel, fn)]:
                    inline_calls[(rel, fn)].append(name)
        if s.folder not in CONSUMERS:
            for name, called in s.macros.items():
                macros.setdefault(name, called)
    for rel, s in sorted(files.items()):
        for line, inc in s.includes:
            here = os.path.dirname(rel)
            cands = [os.path.normpath(inc), os.path.normpath(os.path.join(here, inc))]
            target = next((c.replace(os.sep, "/") for c in cands
                           if c.replace(os.sep, "/") in files), None)
            if target is None:
                if not os.path.exists(os.path.join(root, inc)) \
                        and not os.path.exists(os.path.join(root, here, inc)):
                    warnings.append("%s:%d: include \"%s\" not found" % (rel, line, inc))
                continue
            if target != rel:
                edges.add((rel, target, "include", ""))
        seen = set()
        for fn, name, kind in s.calls:
            names = [(name, "")]
            if kind == "call" and name in macros and name not in s.defs:
                if not with_macros:
                    continue
                names = [(n, " via " + name) for n in macros[name]]
            elif kind == "ref" and not with_refs:
                continue
            elif kind == "call" and name not in s.defs and not definers.get(name) \
                    and len(inline[name]) == 1 and not header_only(rel, files):
                # a static inline function of a header of its own (no .c):
                # what it calls, this file calls through it
                names, todo, done = [], [(inline[name][0], name, name)], set()
                while todo:
                    h, f, chain = todo.pop(0)
                    if (h, f) in done:
                        continue
                    done.add((h, f))
                    for n in inline_calls[(h, f)]:
                        if not definers.get(n) and len(inline[n]) == 1:
                            todo.append((inline[n][0], n, n + " via " + chain))
                        else:
                            names.append((n, " via " + chain))
            for n, via in names:
                if n in s.defs or (n, via, kind) in seen:
                    continue
                seen.add((n, via, kind))
                cands = [d for d in definers.get(n, [])
                         if d != rel and (files[d].folder not in CONSUMERS
                                          or s.folder in CONSUMERS)]
                if len(cands) > 1:
                    same = [d for d in cands if files[d].folder == s.folder]
                    if len(same) == 1:
                        cands = same
                    else:
                        warnings.append("%s: %s is defined in %s; not counted"
                                        % (rel, n, ", ".join(sorted(cands))))
                        continue
                if cands:
                    edges.add((rel, cands[0], kind, n + via))
    return edges, warnings


def tarjan(nodes, succ):
    """Strongly connected components of the graph, each a sorted list,
    in an order where a component comes after every component it uses."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # iterative Tarjan: frames of (node, iterator over its successors)
        work = [(v, iter(sorted(succ[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
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
                    out.append(sorted(comp))
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(comp, succ):
    """One shortest cycle through the first node of comp, inside comp."""
    s, inside = comp[0], set(comp)
    prev, q = {}, deque([s])
    while q:
        v = q.popleft()
        for w in sorted(succ[v]):
            if w not in inside:
                continue
            if w == s:
                path = [v]
                while path[-1] != s:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [s]
            if w not in prev:
                prev[w] = v
                q.append(w)
    return [s]


def topo(nodes, succ, key):
    """nodes in an order where each comes after the nodes it uses (lowest
    first), ties by key; succ must be acyclic on nodes."""
    nodes = set(nodes)
    need = {v: {w for w in succ[v] if w in nodes} for v in nodes}
    order = []
    while need:
        v = min((v for v, ws in need.items() if not ws), key=key)
        order.append(v)
        del need[v]
        for ws in need.values():
            ws.discard(v)
    return order


def label(rec):
    """`(include)` or `(call NAME)` of one file-level edge."""
    src, dst, kind, name = rec
    return "%s -> %s (%s)" % (src, dst, (kind + " " + name).strip())


def analyse(files, edges):
    """The check: upward edges, circles, per-folder order."""
    unit_edges = defaultdict(list)      # (unit, unit) -> file-level edges
    inc = defaultdict(set)
    for e in edges:
        if e[2] == "include":
            inc[e[0]].add(e[1])
    for e in sorted(edges):
        if header_only(e[0], files):
            continue            # its includers carry its edges
        ends = [e]
        if header_only(e[1], files):
            ends = [(e[0], d, "include", "via " + " -> ".join(chain))
                    for d, chain in include_reach(e[1], files, inc)
                    if d not in inc[e[0]]]     # a direct include says it
        for f in ends:
            a, b = unit_of(f[0], files), unit_of(f[1], files)
            if a != b and f not in unit_edges[(a, b)]:
                unit_edges[(a, b)].append(f)
    upward = [e for e in sorted(edges)
              if files[e[0]].folder in FOLDERS
              and files[e[1]].folder != files[e[0]].folder
              and files[e[1]].folder not in ALLOWED[files[e[0]].folder]]
    circles, order = [], {}
    for folder in FOLDERS:
        nodes = sorted({unit_of(r, files) for r in files
                        if files[r].folder == folder and not header_only(r, files)})
        succ = {v: set() for v in nodes}
        for (a, b) in unit_edges:
            if a in succ and b in succ:
                succ[a].add(b)
        comps = tarjan(nodes, succ)
        for c in comps:
            if len(c) > 1:
                cyc = shortest_cycle(c, succ)
                inside = set(c)
                circles.append({
                    "folder": folder, "component": c,
                    "cycle": [{"from": cyc[i], "to": cyc[i + 1],
                               "edges": unit_edges[(cyc[i], cyc[i + 1])]}
                              for i in range(len(cyc) - 1)],
                    "edges": [e for (a, b), es in sorted(unit_edges.items())
                              if a in inside and b in inside for e in es]})
        # order of the components (a circle shown as {a, b})
        comp_of = {v: i for i, c in enumerate(comps) for v in c}
        csucc = defaultdict(set)
        for a in nodes:
            for b in succ[a]:
                if comp_of[a] != comp_of[b]:
                    csucc[comp_of[a]].add(comp_of[b])
        ids = topo(range(len(comps)), csucc, key=lambda i: comps[i][0])
        order[folder] = [comps[i] if len(comps[i]) > 1 else comps[i][0] for i in ids]
    return upward, circles, order, unit_edges


def name_clashes(files):
    """[(file, name, defining file)]: a function pointer named as a
    function defined anywhere in the tree (static or not).  A function
    pointer is declared as (*NAME)(...) (a struct member, a typedef, a
    variable), or through a typedef of the tree: PTR_T NAME or FN_T *NAME,
    with PTR_T a typedef of a function pointer and FN_T one of a function
    type; parameters (inside parentheses) are not looked at.  Such a
    member reads as a call of the function at every use
    (`pe->batch_cut(...)` next to `batch_cut`), so it fails the check:
    name members for their role (on_..., ..._fn)."""
    defs = defaultdict(list)
    ptr_types, fn_types = set(), set()
    for rel, s in files.items():
        if s.folder in CONSUMERS:
            continue
        for name in s.defs:
            defs[name].append(rel)
        ptr_types |= s.fnptr_types
        fn_types |= s.fn_types
    out = []
    for rel, s in sorted(files.items()):
        if s.folder in CONSUMERS:
            continue
        names = list(s.fnptrs)
        toks, paren = s.toks, 0
        for i in range(len(toks) - 2):
            if paren == 0 and toks[i][0] == "id" and i > 0 and toks[i - 1][1] != "typedef":
                k = None        # the index of the declared name, if any
                if toks[i][1] in ptr_types:
                    k = i + 1
                elif toks[i][1] in fn_types and toks[i + 1][1] == "*":
                    k = i + 2
                while k is not None and k < len(toks) and toks[k][1] in ("const", "volatile"):
                    k += 1
                if k is not None and k < len(toks) and toks[k][0] == "id" \
                        and toks[k][1] not in KEYWORDS and toks[k][1] not in names \
                        and not (k + 1 < len(toks) and toks[k + 1][1] == "("):
                    names.append(toks[k][1])    # (not a function returning one)
            paren += {"(": 1, ")": -1}.get(toks[i][1], 0)
        for name in names:
            where = sorted(defs.get(name, []))
            if where:
                out.append((rel, name, where[0]))
    return out


MAP_ROW = re.compile(r"^\|\s*`([a-z]+/[A-Za-z0-9_]+\.c)`\s*\|")
MAP_FN = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)\(\)`")


def check_map(files, unit_edges, path, text):
    """[problem]: the map (docs/ARCHITECTURE.md) against the tree.  Its
    table rows whose first cell is a source file in backticks (`| `net/elem.c`
    | ... |`) must name every .c file of the folders once, and within a
    folder in a layer order: a file uses (includes or calls) only files of
    rows above it.  Every `name()` it writes must be a function defined in
    the tree (static or not) or a function-like macro."""
    problems, rows, seen = [], [], {}
    for n, line in enumerate(text.split("\n"), 1):
        m = MAP_ROW.match(line)
        if m:
            rel = m.group(1)
            if rel in seen:
                problems.append("%s:%d: %s listed again (first at line %d)"
                                % (path, n, rel, seen[rel]))
                continue
            seen[rel] = n
            rows.append(rel)
            if rel not in files or files[rel].folder not in FOLDERS:
                problems.append("%s:%d: %s is not a source file of the tree" % (path, n, rel))
    for rel in sorted(files):
        if rel.endswith(".c") and files[rel].folder in FOLDERS and rel not in seen:
            problems.append("%s: %s is missing (no row `| `%s` | ... |`)" % (path, rel, rel))
    for (a, b), es in sorted(unit_edges.items()):
        if a in seen and b in seen and files[a].folder == files[b].folder \
                and seen[b] > seen[a]:
            problems.append("%s:%d: %s is listed above %s, which it uses (%s)"
                            % (path, seen[a], a, b, edge_names(es)))
    known = set()
    for s in files.values():
        if s.folder not in CONSUMERS:
            known.update(s.defs)
            known.update(s.macros)
    for n, line in enumerate(text.split("\n"), 1):
        for name in MAP_FN.findall(line):
            if name not in known:
                problems.append("%s:%d: %s() is not a function of the tree" % (path, n, name))
    return problems


def short(rel):
    return rel.split("/", 1)[1] if "/" in rel else rel


def edge_names(es):
    kinds = []
    for _, _, kind, name in es:
        s = (kind + " " + name).strip()
        if s not in kinds:
            kinds.append(s)
    return ", ".join(kinds)


def print_text(upward, circles, order, warnings, clashes, map_problems):
    for w in warnings:
        print("check-layers: warning: " + w, file=sys.stderr)
    for p in map_problems:
        print(p)
    for rel, name, where in clashes:
        print("%s: function pointer %s shares its name with the function %s of %s"
              % (rel, name, name, where))
    if upward:
        print("upward or sideways (a folder using one it may not use):")
        for e in upward:
            print("  " + label(e))
    for c in circles:
        print("circle in %s/: {%s}" % (c["folder"], ", ".join(short(v) for v in c["component"])))
        path = short(c["cycle"][0]["from"])
        for step in c["cycle"]:
            path += " -(%s)-> %s" % (edge_names(step["edges"]), short(step["to"]))
        print("  cycle: " + path)
        for e in c["edges"]:
            print("  " + label(e))
    if upward or circles or clashes or map_problems:
        print("check-layers: FAILED: %d upward edge(s), %d circle(s) in %s, "
              "%d function pointer(s) named as a function, %d problem(s) of the map"
              % (len(upward), len(circles),
                 ", ".join(sorted({c["folder"] + "/" for c in circles})) or "no folder",
                 len(clashes), len(map_problems)))
        return 1
    print("check-layers: layer order (lowest first): " +
          " <- ".join(f for f in FOLDERS if order.get(f)))
    for f in FOLDERS:
        if order.get(f):
            print("  %-6s %s" % (f + "/", " ".join(short(v) for v in order[f])))
    print("check-layers: OK")
    return 0


def print_dot(files, unit_edges, upward, circles):
    bad = {(e[0], e[1]) for e in upward}
    cyc_units = {(a, b) for c in circles for (a, b) in unit_edges
                 if a in c["component"] and b in c["component"]}
    print("digraph layers {")
    print("  rankdir=BT; node [shape=box, fontsize=10]; edge [fontsize=8];")
    units = sorted({unit_of(r, files) for r in files})
    for folder in FOLDERS + CONSUMERS:
        mine = [u for u in units if files[u].folder == folder]
        if not mine:
            continue
        print('  subgraph "cluster_%s" { label="%s/";' % (folder, folder))
        for u in mine:
            print('    "%s" [label="%s"];' % (u, short(u)))
        print("  }")
    for (a, b), es in sorted(unit_edges.items()):
        red = any((e[0], e[1]) in bad for e in es) or (a, b) in cyc_units
        print('  "%s" -> "%s" [label="%s"%s];' % (
            a, b, edge_names(es).replace('"', ""), ', color=red' if red else ""))
    print("}")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mode, with_macros, with_refs, calls_only = "text", False, False, False
    map_path = None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        elif a in ("--dot", "--json"):
            mode = a[2:]
        elif a == "--macros":
            with_macros = True
        elif a == "--refs":
            with_refs = True
        elif a == "--calls-only":
            calls_only = True
        elif a == "--map" and args:
            map_path = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            die("unknown argument '%s' (usage: check-layers.py [--root DIR] "
                "[--dot|--json] [--macros] [--refs] [--calls-only] [--map FILE])" % a)
    if not os.path.isdir(root):
        die("%s: not a directory" % root)
    files = read_tree(root)
    if not any(files[r].folder in FOLDERS for r in files):
        die("%s: no .c or .h file under %s/" % (root, "/ ".join(FOLDERS)))
    edges, warnings = build_graph(files, root, with_macros, with_refs)
    if calls_only:
        edges = {e for e in edges if e[2] != "include"}
    upward, circles, order, unit_edges = analyse(files, edges)
    clashes = name_clashes(files)
    map_problems = []
    if map_path is not None:
        mp = map_path if os.path.isabs(map_path) else os.path.join(root, map_path)
        try:
            with open(mp, encoding="utf-8") as f:
                map_problems = check_map(files, unit_edges, map_path, f.read())
        except OSError as e:
            die("%s: %s" % (map_path, e.strerror))
    failed = 1 if upward or circles or clashes or map_problems else 0
    if mode == "dot":
        print_dot(files, unit_edges, upward, circles)
        return failed
    if mode == "json":
        def rec(e):
            return {"from": e[0], "to": e[1], "kind": e[2], "name": e[3]}
        json.dump({
            "folders": FOLDERS, "allowed": {k: sorted(v) for k, v in ALLOWED.items()},
            "files": {r: {"folder": files[r].folder, "node": unit_of(r, files)}
                      for r in sorted(files)},
            "edges": [rec(e) for e in sorted(edges)],
            "upward": [rec(e) for e in upward],
            "circles": [{"folder": c["folder"], "component": c["component"],
                         "cycle": [{"from": s["from"], "to": s["to"],
                                    "edges": [rec(e) for e in s["edges"]]}
                                   for s in c["cycle"]],
                         "edges": [rec(e) for e in c["edges"]]} for c in circles],
            "order": order, "warnings": warnings, "ok": not failed,
            "name_clashes": [{"file": r, "name": n, "function_in": w} for r, n, w in clashes],
            "map_problems": map_problems,
        }, sys.stdout, indent=1, sort_keys=True)
        print()
        return failed
    return print_text(upward, circles, order, warnings, clashes, map_problems)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(1)
