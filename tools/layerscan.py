"""tools/layerscan.py: the C reader under tools/check-layers.py.

Reads one C source file the way the dependency check needs it, without a
compiler: comments and strings out (strip_comments), preprocessor lines
apart (split_directives), the rest as tokens (tokens), and a Source per
file: its #include lines, the functions it defines (static or not), the
names it calls or refers to inside function bodies and in file-scope
initializers, its function-like macros and what they call, and the
function pointers it declares (members, typedefs, variables; rule (iii) of
check-layers.py) with the typedefs of function types and function
pointers that other files may declare members with.  It knows nothing of
folders or layers (check-layers.py does); a file that does not scan (an
unbalanced brace) raises ValueError.
"""
import re

TYPE_WORDS = set("""void char short int long float double signed unsigned
_Bool _Complex const volatile restrict struct union enum""".split())
KEYWORDS = set("""auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return short
signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local __attribute__ __typeof__ typeof asm __asm__
defined""".split())

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>->|\.\.\.|[{}()\[\];,.=*&]|.)
""", re.X | re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
DEFINE = re.compile(r'^\s*#\s*define\s+([A-Za-z_][A-Za-z_0-9]*)(\()?(.*)$', re.S)


def strip_comments(text, keep_strings):
    """The text with comments replaced by a space (newlines kept) and,
    unless keep_strings, string and character literals by an empty
    literal, so that neither can hide or fake a brace or a name."""
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        s = m.group()
        if kind == "comment":
            out.append(" " + "\n" * s.count("\n"))
        elif kind == "str" and not keep_strings:
            out.append(s[0] * 2)
        else:
            out.append(s)
    return "".join(out)


def split_directives(text):
    """(code, directives): code is text with every preprocessor line
    (continuations included) blanked to empty lines; directives is the list
    of (line number, joined directive text)."""
    lines = text.split("\n")
    code, directives = [], []
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("#"):
            start, joined = i + 1, lines[i]
            code.append("")
            while joined.endswith("\\") and i + 1 < len(lines):
                i += 1
                joined = joined[:-1] + " " + lines[i]
                code.append("")
            directives.append((start, joined))
        else:
            code.append(lines[i])
        i += 1
    return "\n".join(code), directives


def tokens(code):
    """The identifiers and punctuation of code, as (kind, text) pairs."""
    out = []
    for m in TOKEN.finditer(code):
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        out.append((kind, m.group()))
    return out


def match_back(toks, close):
    """Index of the '(' matching the ')' at toks[close], or -1."""
    depth = 0
    for i in range(close, -1, -1):
        t = toks[i][1]
        if t == ")":
            depth += 1
        elif t == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def match_fwd(toks, open_):
    """Index of the ')' matching the '(' at toks[open_], or the last."""
    depth = 0
    for i in range(open_, len(toks)):
        t = toks[i][1]
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(toks) - 1


def param_names(toks, lo, hi):
    """The parameter names of a definition whose list is toks[lo..hi]
    ('(' .. ')'): the last identifier of each parameter at depth 1, or the
    name of a function-pointer parameter (*name)."""
    names, depth, last = set(), 0, None
    for i in range(lo, hi + 1):
        k, t = toks[i]
        if t in "([":
            depth += 1
            if t == "(" and depth == 2 and i + 2 <= hi and toks[i + 1][1] == "*" \
                    and toks[i + 2][0] == "id":
                names.add(toks[i + 2][1])
        elif t in ")]":
            if depth == 1 and t == ")" and last:
                names.add(last)
            depth -= 1
        elif depth == 1 and t == ",":
            if last:
                names.add(last)
            last = None
        elif depth == 1 and k == "id" and t not in KEYWORDS:
            last = t
    return names


def drop_cplusplus(text):
    """text with the lines of every #ifdef __cplusplus ... #endif block
    blanked (the public headers' extern "C" { and }, which a C compiler
    never sees), line numbers kept."""
    out, skip = [], False
    for line in text.split("\n"):
        d = line.strip()
        if not skip and re.match(r"#\s*ifdef\s+__cplusplus\b", d):
            skip = True
            out.append("")
        elif skip:
            if re.match(r"#\s*endif\b", d):
                skip = False
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


class Source:
    """One file: its includes, definitions, calls and macros."""

    def __init__(self, rel, text):
        self.rel = rel
        self.folder = rel.split("/")[0]
        self.includes = []        # (line, target text)
        self.defs = {}            # name -> static?
        self.calls = []           # (caller function, name, kind) kind call/ref
        self.macros = {}          # function-like macro -> names called in it
        self.fnptrs = []          # names declared as (*NAME)(...): members, typedefs, variables
        self.objmacros = set()
        text = drop_cplusplus(text)
        _, directives = split_directives(strip_comments(text, True))
        code, _ = split_directives(strip_comments(text, False))
        for line, d in directives:
            m = INCLUDE.match(d)
            if m:
                self.includes.append((line, m.group(1)))
                continue
            m = DEFINE.match(d)
            if m:
                if m.group(2):
                    body = tokens(m.group(3).split(")", 1)[1] if ")" in m.group(3) else "")
                    self.macros[m.group(1)] = [
                        body[i][1] for i in range(len(body) - 1)
                        if body[i][0] == "id" and body[i + 1][1] == "("
                        and body[i][1] not in KEYWORDS
                        and (i == 0 or body[i - 1][1] not in (".", "->"))]
                else:
                    self.objmacros.add(m.group(1))
        self.toks = tokens(code)
        self._scan()

    def _scan(self):
        toks = self.toks
        paren = 0       # parameters (inside parentheses) are not looked at
        for i in range(len(toks) - 4):
            # a declarator (*NAME)(...) follows its type (a name, a type
            # keyword or a '*'); (*h)() after ';', '{', '=', return... is a
            # call through a pointer, not a declaration
            if toks[i][1] == "(" and paren == 0 and toks[i + 1][1] == "*" \
                    and toks[i + 2][0] == "id" and toks[i + 3][1] == ")" \
                    and toks[i + 4][1] == "(" and toks[i + 2][1] not in self.fnptrs \
                    and i > 0 and (toks[i - 1][1] == "*" or (toks[i - 1][0] == "id" and (
                        toks[i - 1][1] not in KEYWORDS or toks[i - 1][1] in TYPE_WORDS))):
                self.fnptrs.append(toks[i + 2][1])
            paren += {"(": 1, ")": -1}.get(toks[i][1], 0)
        # typedefs of function types (typedef R NAME(...)) and of function
        # pointers (typedef R (*NAME)(...)), for rule (iii) through a type
        self.fn_types, self.fnptr_types = set(), set()
        j = 0
        while j < len(toks):
            if toks[j][1] == "typedef":
                end = j
                while end < len(toks) and toks[end][1] not in (";", "{"):
                    end += 1
                if end < len(toks) and toks[end][1] == ";":
                    stmt, q = [], j + 1
                    while q < end:   # the statement without __attribute__((...))
                        if toks[q][1] in ("__attribute__", "__attribute") \
                                and q + 1 < end and toks[q + 1][1] == "(":
                            q = match_fwd(toks, q + 1) + 1
                            continue
                        stmt.append(toks[q])
                        q += 1
                    ptr = [stmt[q + 2][1] for q in range(len(stmt) - 3)
                           if stmt[q][1] == "(" and stmt[q + 1][1] == "*"
                           and stmt[q + 2][0] == "id" and stmt[q + 3][1] == ")"]
                    fnt = [stmt[q][1] for q in range(len(stmt) - 1)
                           if stmt[q][0] == "id" and stmt[q][1] not in KEYWORDS
                           and stmt[q + 1][1] == "("]
                    if ptr:
                        self.fnptr_types.add(ptr[0])
                    elif fnt:
                        self.fn_types.add(fnt[0])
                j = end
            j += 1
        depth, start, fn, params, body_depth = 0, 0, None, set(), 0
        init = False    # inside a file-scope initializer (= ... ; or ,)
        fparen = 0      # parentheses open at file scope (depth 0)
        for i, (k, t) in enumerate(toks):
            if depth == 0:
                fparen += {"(": 1, ")": -1}.get(t, 0)
            if fn is None and t == "=" and depth == 0 and fparen == 0:
                init = True     # not an enum value or a default inside braces
            elif depth == 0 and (t == ";" or (t == "," and fparen == 0)):
                init = False    # the declaration's end, or its next declarator
            if t == "{":
                if depth == 0 and i > 0 and toks[i - 1][1] == ")":
                    lo = match_back(toks, i - 1)
                    if lo > 0 and toks[lo - 1][0] == "id" and toks[lo - 1][1] not in KEYWORDS:
                        fn = toks[lo - 1][1]
                        decl = [x[1] for x in toks[start:lo - 1]]
                        static = "static" in decl
                        if fn in self.defs and self.defs[fn] != static:
                            static = False
                        self.defs[fn] = static
                        params = param_names(toks, lo, i - 1)
                        body_depth = 1
                depth += 1
            elif t == "}":
                depth -= 1
                if depth < 0:
                    raise ValueError("unbalanced '}' in %s" % self.rel)
                if depth == 0:
                    fn = None
                    start = i + 1
            elif t == ";" and depth == 0:
                start = i + 1
            elif fn is None and init and k == "id" and t not in KEYWORDS \
                    and toks[i - 1][1] not in (".", "->"):
                # a file-scope initializer naming a function (a table of
                # handlers): the file refers to it, from "<file scope>"
                nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
                self.calls.append(("<file scope>", t, "call" if nxt == "(" else "ref"))
            elif fn is not None and k == "id" and t not in KEYWORDS and t not in params:
                prev = toks[i - 1][1]
                if prev in (".", "->"):
                    continue
                nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
                self.calls.append((fn, t, "call" if nxt == "(" else "ref"))
        if depth != 0:
            raise ValueError("unbalanced braces in %s" % self.rel)
