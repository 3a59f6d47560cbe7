#!/bin/sh
# test_layers: tools/check-layers.py itself, on small trees written here
# (not on the project's tree, which is checked by make check-layers). Each case
# states by hand which edges the tree has and so whether the check passes.
TEST_NAME=test_layers
. "$(dirname "$0")/lib.sh"

TOOL=$top/tools/check-layers.py

# put FILE TEXT: write TEXT (printf %b) to FILE under the current case's tree
put() { mkdir -p "$(dirname "$c/$1")" && printf '%b\n' "$2" > "$c/$1"; }
# newcase NAME: a fresh tree with a clean base: core/a.c (a_fn), core/b.c
# (b_fn calls a_fn), core/z.c (uses nothing), hw/pe.c (calls a_fn),
# sched/s.c (calls pe_fn and b_fn)
newcase() {
    c=$T/$1
    put core/a.h 'int a_fn(int x);'
    put core/a.c '#include "core/a.h"\nint a_fn(int x) { return x + 1; }'
    put core/b.c '#include "core/a.h"\nint b_fn(void) { return a_fn(1); }'
    put core/z.c 'int z_fn(void) { return 0; }'
    put hw/pe.h '#include "core/a.h"\nint pe_fn(void);'
    put hw/pe.c '#include "hw/pe.h"\nint pe_fn(void) { return a_fn(2); }'
    put sched/s.h 'int s_fn(void);'
    put sched/s.c '#include "hw/pe.h"\nint s_fn(void) { return pe_fn() + b_fn(); }'
}
# run NAME [OPTIONS]: run the tool on case NAME: out (stdout), rc
run() {
    n=$1; shift
    $PY "$TOOL" --root "$T/$n" "$@" > "$T/$n.out" 2> "$T/$n.err"
    rc=$?
}
has() { grep -qF -- "$2" "$T/$1.out"; }

# 1. clean: passes (exit 0) and prints the order; in core/, b.c uses a.c,
# z.c nothing: lowest first with ties by name gives a.c b.c z.c.
newcase clean
run clean
check "clean tree passes" [ "$rc" -eq 0 ]
check "clean tree: folder order" has clean "layer order (lowest first): core <- hw <- sched"
check "clean tree: order inside core/" has clean "core/  a.c b.c z.c"
check "clean tree: OK line" has clean "check-layers: OK"

# 2. an upward include: core/a.c includes sched/s.h
newcase upinc
put core/a.c '#include "core/a.h"\n#include "sched/s.h"\nint a_fn(int x) { return x + 1; }'
run upinc
check "upward include fails" [ "$rc" -eq 1 ]
check "upward include named" has upinc "core/a.c -> sched/s.h (include)"

# 3. an upward call, without any include: hw/pe.c calls s_fn of sched/s.c
newcase upcall
put hw/pe.c '#include "hw/pe.h"\nint pe_fn(void) { return a_fn(2) + s_fn(); }'
run upcall
check "upward call fails" [ "$rc" -eq 1 ]
check "upward call named" has upcall "hw/pe.c -> sched/s.c (call s_fn)"

# 4. peers: net/ may not use hw/ (an include is enough)
newcase sideways
put net/n.c '#include "hw/pe.h"\nint n_fn(void) { return 0; }'
run sideways
check "net using hw fails" [ "$rc" -eq 1 ]
check "net using hw named" has sideways "net/n.c -> hw/pe.h (include)"

# 5. a circle of two .c files in one folder, by calls
newcase cycle
put sched/x.c 'int y_fn(void);\nint x_fn(void) { return 1; }\nint x2(void) { return y_fn(); }'
put sched/y.c 'int x_fn(void);\nint y_fn(void) { return x_fn(); }'
run cycle
check "circle fails" [ "$rc" -eq 1 ]
check "circle: component" has cycle "circle in sched/: {x.c, y.c}"
check "circle: cycle path with names" has cycle "cycle: x.c -(call y_fn)-> y.c -(call x_fn)-> x.c"
check "circle: edge line" has cycle "sched/y.c -> sched/x.c (call x_fn)"

# 6. the same circle closed by an include: y.c includes x.h (x.c's header)
newcase cycinc
put sched/x.h 'int x_fn(void);'
put sched/x.c 'int y_fn(void);\nint x_fn(void) { return y_fn(); }'
put sched/y.c '#include "sched/x.h"\nint y_fn(void) { return 2; }'
run cycinc
check "circle by include fails" [ "$rc" -eq 1 ]
check "circle by include: path" has cycinc "cycle: x.c -(call y_fn)-> y.c -(include)-> x.c"

# 7. calls through struct members are not calls: x.c names y_fn only as
# o->y_fn( and o.y_fn(; y.c calls x_fn: one edge, no circle. But a member
# named as a function fails on its own (iii), so the member is on_y here
# and the calls name y_fn (the tool reads names, not types).
newcase member
put sched/x.c 'struct ops { int (*on_y)(void); };\nint x_fn(void) { return 1; }\nint x2(struct ops *o, struct ops p) { return o->y_fn() + p.y_fn() + (*o).y_fn() + o->on_y(); }'
put sched/y.c 'int x_fn(void);\nint y_fn(void) { return x_fn(); }'
run member
check "member calls do not count" [ "$rc" -eq 0 ]
check "member calls: y.c above x.c" has member "sched/ s.c x.c y.c"

# 7b. the same tree with the member named y_fn, as the function of y.c it
# may point to: fails, naming the member and the function; no circle.
# A typedef and a local variable named as a function fail too; a member
# named as a static function of another file does not.
newcase clash
put sched/x.c 'struct ops { int (*y_fn)(void); };\nint x_fn(void) { return 1; }\nint x2(struct ops *o) { return o->y_fn(); }'
put sched/y.c 'int x_fn(void);\nint y_fn(void) { return x_fn(); }'
run clash
check "member named as a function fails" [ "$rc" -eq 1 ]
check "member named as a function: named" has clash "sched/x.c: function pointer y_fn shares its name with the function y_fn of sched/y.c"
check "member named as a function: no circle" sh -c "! grep -q '^circle' '$T/clash.out'"
newcase clash2
put sched/x.c 'typedef int (*a_fn)(int);\nstatic int h(void) { return 1; }\nint x_fn(void) { int (*b_fn)(void) = 0; return b_fn ? 1 : h(); }'
put sched/y.c 'struct o { int (*h)(void); };\nint y_fn(void) { return 0; }'
run clash2
check "typedef and variable named as functions fail" [ "$rc" -eq 1 ]
check "typedef named as a function: named" has clash2 "sched/x.c: function pointer a_fn shares its name with the function a_fn of core/a.c"
check "variable named as a function: named" has clash2 "sched/x.c: function pointer b_fn shares its name with the function b_fn of core/b.c"
check "member named as another file's static function fails" has clash2 "sched/y.c: function pointer h shares its name with the function h of sched/x.c"

# 7c. members declared through typedefs of the tree: PTR_T NAME (a typedef
# of a function pointer) and FN_T *NAME (of a function type) named as
# functions fail; a parameter of such a type does not count.
newcase clash3
put sched/t.h 'typedef int (*ptr_t)(void);\ntypedef int fn_t(void);'
put sched/x.c '#include "sched/t.h"\nstruct o { ptr_t y_fn; fn_t *x2; const ptr_t other; };\nint x2(ptr_t b_fn) { return b_fn(); }'
put sched/y.c 'int y_fn(void) { return 0; }'
run clash3
check "typed members named as functions fail" [ "$rc" -eq 1 ]
check "PTR_T member named" has clash3 "sched/x.c: function pointer y_fn shares its name with the function y_fn of sched/y.c"
check "FN_T * member named" has clash3 "sched/x.c: function pointer x2 shares its name with the function x2 of sched/x.c"
check "a typed parameter does not count" sh -c "! grep -q 'function pointer b_fn' '$T/clash3.out'"

# 8. static functions are file-local: helper is static in both x.c and
# y.c, and x.c calls only_y, which is static in y.c (a name that would
# resolve to y.c if statics crossed files); y.c calls x_fn
newcase static
put sched/x.c 'int only_y(void);\nstatic int helper(void) { return 1; }\nint x_fn(void) { return helper() + only_y(); }'
put sched/y.c 'int x_fn(void);\nstatic int helper(void) { return 2; }\nstatic int only_y(void) { return helper(); }\nint y_fn(void) { return x_fn() + only_y(); }'
run static
check "static functions do not cross files" [ "$rc" -eq 0 ]

# 9. names in comments and strings are not calls, nor a parameter called
newcase text
put sched/x.c 'int x_fn(int (*y_fn)(void)) { /* y_fn() */ const char *s = "y_fn()"; (void)s;\n// y_fn();\nreturn y_fn(); }'
put sched/y.c 'int x_fn(int (*f)(void));\nint y_fn(void) { return x_fn(0); }'
run text
check "comments, strings, parameters are not calls" [ "$rc" -eq 0 ]

# 10. a header without a .c passes its includes on: x.c includes
# x_internal.h, which includes y.h; y.c calls x_fn: circle x.c <-> y.c
newcase passthru
put sched/x_internal.h '#include "sched/y.h"'
put sched/y.h 'int y_fn(void);'
put sched/x.c '#include "sched/x_internal.h"\nint x_fn(void) { return 1; }'
put sched/y.c 'int x_fn(void);\nint y_fn(void) { return x_fn(); }'
run passthru
check "include through a header of its own fails" [ "$rc" -eq 1 ]
check "include through a header: named" has passthru "sched/x.c -> sched/y.h (include via sched/x_internal.h)"

# 11. --json and --dot on the circle: same exit status, parseable output
run cycle --json
check "--json exits 1 on a circle" [ "$rc" -eq 1 ]
check "--json parses and says not ok" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and len(d["circles"]) == 1
assert {"from": "sched/y.c", "to": "sched/x.c", "kind": "call", "name": "x_fn"} in d["edges"]
' "$T/cycle.out"
run clean --dot
check "--dot exits 0 on a clean tree" [ "$rc" -eq 0 ]
check "--dot draws the call edge" has clean '"core/b.c" -> "core/a.c" [label="call a_fn, include"];'

# 12. tests/ are consumers: a test may use anything
newcase consumer
put tests/test_s.c '#include "sched/s.h"\nint main(void) { return s_fn() + a_fn(1); }'
run consumer
check "tests/ may use any folder" [ "$rc" -eq 0 ]

# 13b. with --refs, a table of handlers at file scope names the functions
# it holds: core/a.c filling one with b_fn closes a circle (b.c calls
# a_fn); without --refs the table is not seen.
newcase table
put core/a.c '#include "core/a.h"\nint b_fn(void);\nstatic int (*const tbl[])(void) = { b_fn };\nint a_fn(int x) { return x + tbl[0](); }'
run table
check "a file-scope table alone is no call" [ "$rc" -eq 0 ]
run table --refs
check "--refs: a file-scope table closes the circle" [ "$rc" -eq 1 ]
check "--refs: the table's edge named" has table "core/a.c -> core/b.c (ref b_fn)"

# 13c. what a file-scope initializer is not: an enum value inside a struct,
# and the declarator after an initialized one. z.c names s_fn (a function
# of sched/) only as a member and as a variable: no upward edge.
newcase notinit
put core/z.c 'struct st { enum { K = 1 } k; int s_fn; };\nstatic int x = 0, s_fn2;\nint z_fn(void) { return x; }'
put sched/s.c '#include "hw/pe.h"\nint s_fn(void) { return pe_fn() + b_fn(); }\nint s_fn2(void) { return 0; }'
run notinit --refs
check "enum value and later declarator are no refs" [ "$rc" -eq 0 ]

# 7d. what rule (iii) does not count: a function returning a typedef'd
# pointer (ptr_t pick(int)), a call through a pointer (*h)() while a
# static h exists elsewhere; and what it does: a member of a typedef made
# with an attribute, and FN_T *const NAME.
newcase clash4
put sched/t.h 'typedef int (*ptr_t)(void);\ntypedef int __attribute__((format(printf, 1, 2))) log_t(const char *f, ...);\ntypedef int fn_t(void);'
put sched/x.c '#include "sched/t.h"\nstatic int h(void) { return 0; }\nptr_t pick(int i);\nptr_t pick(int i) { (void)i; return h; }\nint x_fn(void) { return pick(0)(); }'
put hw/pe.c '#include "hw/pe.h"\nint pe_fn(void) { return a_fn(2); }\nvoid go(int (*h)(void)) { (*h)(); }'
run clash4
check "function returning a pointer type and a call through a pointer pass" [ "$rc" -eq 0 ]
put sched/y.c '#include "sched/t.h"\nstruct o { log_t *y_fn; fn_t *const x_fn; };\nint y_fn(const char *f, ...) { (void)f; return 0; }'
run clash4
check "attribute typedef and FN_T *const members named as functions fail" [ "$rc" -eq 1 ]
check "attribute typedef member named" has clash4 "sched/y.c: function pointer y_fn shares its name with the function y_fn of sched/y.c"
check "FN_T *const member named" has clash4 "sched/y.c: function pointer x_fn shares its name with the function x_fn of sched/x.c"

# 14. --map: the map's rows name every .c file once, in a layer order
# inside each folder, and every name() in it is a function of the tree.
# The base tree: core/a.c, core/b.c (calls a_fn), core/z.c, hw/pe.c,
# sched/s.c. A good map lists core/ as a, b, z (or a, z, b, or z, a, b).
newcase map
put docs/map.md '# map\n| file | what |\n|---|---|\n| `core/z.c` | z |\n| `core/a.c` | a |\n| `core/b.c` | b, calls `a_fn()` |\n| `hw/pe.c` | pe |\n| `sched/s.c` | s: `s_fn()` |'
run map --map docs/map.md
check "map: good map passes" [ "$rc" -eq 0 ]
check "map: OK line" has map "check-layers: OK"
put docs/map.md '| `core/b.c` | b |\n| `core/a.c` | a |\n| `core/z.c` | z |\n| `hw/pe.c` | pe |\n| `sched/s.c` | s |'
run map --map docs/map.md
check "map: wrong order fails" [ "$rc" -eq 1 ]
check "map: wrong order named" has map "docs/map.md:1: core/b.c is listed above core/a.c, which it uses (call a_fn, include)"
put docs/map.md '| `core/a.c` | a |\n| `core/b.c` | b |\n| `hw/pe.c` | pe |\n| `sched/s.c` | s |\n| `core/a.c` | again |\n| `core/q.c` | none |'
run map --map docs/map.md
check "map: missing, repeated, unknown rows fail" [ "$rc" -eq 1 ]
check "map: missing file named" has map "docs/map.md: core/z.c is missing"
check "map: repeated row named" has map "docs/map.md:5: core/a.c listed again (first at line 1)"
check "map: unknown file named" has map "docs/map.md:6: core/q.c is not a source file of the tree"
put docs/map.md '| `core/a.c` | a |\n| `core/z.c` | z |\n| `core/b.c` | b |\n| `hw/pe.c` | pe |\n| `sched/s.c` | calls `gone_fn()` |'
run map --map docs/map.md
check "map: a function that does not exist fails" [ "$rc" -eq 1 ]
check "map: the function named" has map "docs/map.md:5: gone_fn() is not a function of the tree"

finish
