#!/usr/bin/env bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# check-house.sh: the structural rules a maintainer can check with plain
# tools (issue "a house the next maintainer can pick up", its "done when").
# Run from anywhere inside the repository (or give the root as $1); prints
# one line per check, then what offends as file:line, and exits 1 when any
# check fails.
#
#   refs        nothing points outside the repository: no "shared" + "/"
#               paths anywhere, no issue numbers in src/; and every file
#               and file:function doc/architecture.md names exists
#   duplicates  no block of 6 or more (normalised) lines twice in src/
#   includes    no cycle of local #include "x.h" between modules of src/
#               (x.h and x.c are one module); every header by name (-I),
#               never "../"; no two C files of src/ with one basename; and
#               the folders in their layer order (LAYERS below: a folder
#               includes only its own headers and those of the folders it
#               stands on)
#   calls       no cycle of calls between .c files of one src/ directory
#   sizes       every C file in src/ under 800 lines (600 or more: a "# "
#               warning line naming it), every function under 120 (a "# "
#               line after it names the largest C file and the longest
#               function)
#
# The limits can be changed for an experiment through the environment:
# HOUSE_MAX_FILE_LINES, HOUSE_WARN_FILE_LINES, HOUSE_MAX_FUNCTION_LINES,
# HOUSE_DUP_LINES; PYTHON names the interpreter (default python3).
set -u

top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need git python3

root=${1:-}
if [ -z "$root" ]; then
  root=$(git rev-parse --show-toplevel 2>/dev/null) || root=$(pwd)
fi
cd "$root" || {
  echo "check-house: cannot enter $root" >&2
  exit 2
}
python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || {
  echo "check-house: python3 is needed (or PYTHON=interpreter)" >&2
  exit 2
}

in_git=false
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  in_git=true
fi

# Every tracked file (and untracked, not ignored ones), or outside a
# checkout every file but build output.
list_files() {
  if $in_git; then
    git ls-files --cached --others --exclude-standard -- "$@" | sort -u
  else
    find "${@:-.}" -type f ! -path '*/.git/*' ! -path './build/*' 2>/dev/null |
      sed 's|^\./||'
  fi
}

# grep_files GREP-OPTIONS... -- PATHS...: file:line:text of every match.
grep_files() {
  if $in_git; then
    git grep --untracked -n -I "$@"
  else
    local opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
      opts+=("$1")
      shift
    done
    shift
    grep -r -n -I --exclude-dir=.git --exclude-dir=build "${opts[@]}" -- "${@:-.}" |
      sed 's|^\./||'
  fi
}

failed=0
report() { # report NAME OUTPUT: "ok - NAME" or "FAIL - NAME" + the output
  local name=$1 out
  out=$(printf '%s\n' "$2" | sed '/^$/d') # empty lines are no finding
  if [ -z "$out" ]; then
    echo "ok - $name"
  else
    echo "FAIL - $name"
    printf '%s\n' "$out" | sed 's/^/    /'
    failed=1
  fi
}

# doc/architecture.md: every `path` and `path:function` in backquotes
# must exist (a tracked file or folder; a function defined in that file),
# so the map of the data path cannot name what was moved or renamed.
doc_names() {
  [ -f doc/architecture.md ] || return 0
  "$python" - doc/architecture.md <<'PY'
import os, re, sys
doc = sys.argv[1]
text = open(doc, encoding="utf-8").read()
bad = []
for no, line in enumerate(text.split("\n"), 1):
    for ref in re.findall(r"`([^`\s]+)`", line):
        m = re.match(r"((?:src|tests|scripts|doc|conf|debian|windows)/[\w./-]*?)(?::([A-Za-z_]\w*))?$", ref)
        if not m:
            continue
        path, fn = m.group(1), m.group(2)
        if not os.path.exists(path):
            bad.append("%s:%d: %s does not exist" % (doc, no, path))
            continue
        if fn is None:
            continue
        if not os.path.isfile(path):
            bad.append("%s:%d: %s is not a file" % (doc, no, path))
            continue
        src = open(path, encoding="utf-8", errors="replace").read()
        # a definition: the name, its parameters, then a body (a macro or
        # an inline function in a header counts)
        defn = re.compile(r"(^|\n)[^\n;#]*?\b%s\s*\([^;{]*?\)\s*(__attribute__\S*\s*)?\{" % re.escape(fn))
        macro = re.compile(r"#\s*define\s+%s\b" % re.escape(fn))
        if not defn.search(src) and not macro.search(src):
            bad.append("%s:%d: %s has no function %s" % (doc, no, path, fn))
print("\n".join(bad))
PY
}

# --- 1. references outside the repository --------------------------------
# The pattern is assembled so this file does not match itself.
outside="shared"'/'
refs=$(grep_files -F -e "$outside" -- .)
report "nothing refers to files outside the repository (\"$outside\"), nor to a file or function doc/architecture.md names that is not there" "$refs
$(doc_names)"

issues=$(grep_files -i -E -e '(^|[^[:alnum:]_])issues? *#?[0-9]+' -- src)
report "no issue numbers in src/" "$issues"

# --- 2-5: the C structure, in one pass of a small parser ------------------
src_files=$(list_files src | grep -E '\.[ch]$')

read -r -d '' checker <<'PY'
import os, re, sys
from collections import defaultdict

files = [f for f in sys.stdin.read().split("\n") if f and os.path.isfile(f)]
MAX_FILE = int(os.environ.get("HOUSE_MAX_FILE_LINES", "800"))
WARN_FILE = int(os.environ.get("HOUSE_WARN_FILE_LINES", "600"))
MAX_FUNC = int(os.environ.get("HOUSE_MAX_FUNCTION_LINES", "120"))
DUP = int(os.environ.get("HOUSE_DUP_LINES", "6"))

def read(f):
    with open(f, encoding="utf-8", errors="replace") as fh:
        return fh.read().split("\n")

def strip_code(lines):
    """Lines with comments, strings and character literals blanked out
    (line structure kept), so braces and names can be counted."""
    out, in_comment = [], False
    for line in lines:
        res, i, n = [], 0, len(line)
        while i < n:
            c = line[i]
            if in_comment:
                if line.startswith("*/", i):
                    in_comment = False
                    i += 2
                else:
                    i += 1
                continue
            if line.startswith("/*", i):
                in_comment = True
                i += 2
                res.append(" ")
                continue
            if line.startswith("//", i):
                break
            if c in "\"'":
                q, i = c, i + 1
                while i < n and line[i] != q:
                    i += 2 if line[i] == "\\" else 1
                i += 1
                res.append(q + q)
                continue
            res.append(c)
            i += 1
        out.append("".join(res))
    return out

# ------------------------------------------------------------ duplicates
NOISE = re.compile(r"^[\s{}()\[\];,*/]*$")
LICENCE = re.compile(r"copyright|spdx-license-identifier", re.I)

def duplicates():
    seqs = {}   # file -> [(normalised line, line number)]
    where = defaultdict(list)
    for f in files:
        seq = []
        for no, line in enumerate(read(f), 1):
            s = line.strip()
            if not s or NOISE.match(s) or LICENCE.search(s):
                continue
            if s.startswith("#include"):
                continue  # the same headers are not the same code
            seq.append((s, no))
        seqs[f] = seq
        for i in range(len(seq) - DUP + 1):
            key = "\n".join(x[0] for x in seq[i:i + DUP])
            where[key].append((f, i))
    pairs = set()
    for locs in where.values():
        for a in range(len(locs)):
            for b in range(a + 1, len(locs)):
                (fa, ia), (fb, ib) = locs[a], locs[b]
                if fa == fb and abs(ia - ib) < DUP:
                    continue  # a run of one repeated line overlapping itself
                pairs.add((fa, ia, fb, ib))
    # Merge windows that continue each other into one block per pair.
    out = []
    for (fa, ia, fb, ib) in sorted(pairs):
        if (fa, ia - 1, fb, ib - 1) in pairs:
            continue
        k = 0
        while (fa, ia + k + 1, fb, ib + k + 1) in pairs:
            k += 1
        sa, sb = seqs[fa], seqs[fb]
        out.append("%s:%d-%d and %s:%d-%d (%d lines)" % (
            fa, sa[ia][1], sa[ia + k + DUP - 1][1],
            fb, sb[ib][1], sb[ib + k + DUP - 1][1], k + DUP))
    return out

# ------------------------------------------------------------ cycles
def sccs(nodes, edges):
    """Tarjan: the strongly connected components with more than one node."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out

def cycle_report(nodes, edges, why, label):
    out = []
    for comp in sccs(nodes, edges):
        members = set(comp)
        out.append("%s cycle: %s" % (label, " <-> ".join(comp)))
        for a in comp:
            for b in sorted(edges.get(a, ())):
                if b in members:
                    out.append("  %s -> %s at %s" % (a, b, why[(a, b)]))
    return out

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

# The folders of src/ from the bottom up, each with the folders it stands
# on (its includes may name their headers); a folder not listed here is
# reported until it is placed.
LAYERS = {
    "wire": [],
    "common": [],
    "perfdata": ["wire", "common"],
    "remote": ["wire", "common"],
    "config": ["wire", "common", "perfdata", "remote"],
    "blg": ["wire", "common", "perfdata"],
    "source": ["wire", "common", "perfdata", "remote", "blg"],
    "plugin": ["wire", "common", "perfdata", "config", "remote", "source",
               "blg"],
    "cli": ["wire", "common", "perfdata", "config", "remote", "source",
            "blg"],
}

def module(path):
    return os.path.splitext(os.path.normpath(path))[0]

def folder(path):
    """src/x/... -> x (None outside a folder of src/)."""
    parts = os.path.normpath(path).split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] == "src" else None

def layering():
    """"../" includes, twice-used basenames and includes against LAYERS
    (only when the tree has the folders it orders: fixture trees have
    others)."""
    out = []
    by_name = defaultdict(list)
    for f in files:
        by_name[os.path.basename(f)].append(f)
    for name, where in sorted(by_name.items()):
        if len(where) > 1:
            out.append("basename %s used twice: %s" % (name, ", ".join(sorted(where))))
    layered = any(folder(f) in LAYERS for f in files)
    for f in files:
        a = folder(f)
        if layered and a is not None and a not in LAYERS:
            out.append("%s: folder src/%s is not in the layer order (LAYERS in scripts/check-house.sh)" % (f, a))
            continue
        for no, line in enumerate(read(f), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            if "../" in m.group(1):
                out.append("%s:%d: #include \"%s\": by name through -I, not by \"../\"" % (f, no, m.group(1)))
                continue
            cands = by_name.get(os.path.basename(m.group(1)), [])
            if not layered or len(cands) != 1 or a not in LAYERS:
                continue
            b = folder(cands[0])
            if b is not None and b != a and b not in LAYERS[a]:
                out.append("%s:%d: src/%s includes %s of src/%s (src/%s stands on: %s)" % (
                    f, no, a, m.group(1), b, a, ", ".join(LAYERS[a]) or "nothing"))
    return out

def includes():
    by_name = defaultdict(list)  # header file name -> paths in src/
    for f in files:
        by_name[os.path.basename(f)].append(f)
    edges, why, nodes = defaultdict(set), {}, set()
    for f in files:
        a = module(f)
        nodes.add(a)
        for no, line in enumerate(read(f), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            if target not in files:  # an -I directory: match by name
                cands = by_name.get(os.path.basename(m.group(1)), [])
                if len(cands) != 1:
                    continue
                target = cands[0]
            b = module(target)
            if a == b:
                continue
            edges[a].add(b)
            why.setdefault((a, b), "%s:%d" % (f, no))
    return cycle_report(nodes, edges, why, "include")

IDENT_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "case",
            "defined", "__attribute__", "_Alignof", "alignof", "do", "else"}

def functions(f):
    """(name, static, first line, last line) of every function defined in f:
    a top-level header with '(' before '{' and no '=' before its '('."""
    lines = read(f)
    code = strip_code(lines)
    out, depth, start, header = [], 0, None, ""
    cur = None
    for no, line in enumerate(code, 1):
        s = line.strip()
        if depth == 0 and cur is None:
            if start is None:
                if not s or s.startswith("#") or not re.match(r"[A-Za-z_]", line):
                    continue
                start, header = no, ""
            header += " " + s
            if "{" in s:
                head = header[:header.index("{")]
                paren = head.find("(")
                if paren >= 0 and "=" not in head[:paren] and \
                        not re.match(r"\s*(typedef|struct|union|enum)\b[^(]*$", head[:paren]):
                    bare = ATTRIBUTE.sub(" ", head)
                    names = [n for n in IDENT_CALL.findall(bare)
                             if n not in KEYWORDS]
                    name = names[0] if names else "?"
                    cur = (name, bool(re.search(r"\bstatic\b", head)), start)
                start = None if cur is None else start
            elif s.endswith(";") or s.endswith("\\"):
                start = None
        opened = line.count("{") - line.count("}")
        depth += opened
        if depth < 0:
            depth = 0
        if cur is not None and depth == 0 and "}" in line:
            out.append((cur[0], cur[1], cur[2], no))
            cur, start = None, None
        elif cur is None and start is not None and depth == 0 and "{" in s and "}" in s:
            start = None  # a one-line initialiser or struct body
    return out, code

def calls():
    defs = {}
    for f in files:
        if f.endswith(".c"):
            defs[f] = functions(f)
    external = defaultdict(set)  # name -> .c files defining it non-static
    for f, (fns, _) in defs.items():
        for (name, static, _, _) in fns:
            if not static and name != "main":
                external[name].add(f)
    edges, why, nodes = defaultdict(set), {}, set(defs)
    for f, (fns, code) in defs.items():
        own = {name for (name, _, _, _) in fns}
        for (name, _, first, last) in fns:
            for no in range(first, last + 1):
                for callee in IDENT_CALL.findall(code[no - 1]):
                    if callee in own or callee == name:
                        continue
                    for g in external.get(callee, ()):
                        if g == f or os.path.dirname(g) != os.path.dirname(f):
                            continue
                        edges[f].add(g)
                        why.setdefault((f, g), "%s:%d (%s)" % (f, no, callee))
    return cycle_report(nodes, edges, why, "call")

largest = {}  # "file"/"function" -> (lines, text), for the figures line

warned = []  # files of WARN_FILE lines or more, for the "# " lines

def sizes():
    out = []
    for f in sorted(files):
        n = len(read(f))
        if read(f)[-1] == "":
            n -= 1
        if f.endswith(".c") and n > largest.get("file", (0, ""))[0]:
            largest["file"] = (n, "%s (%d lines)" % (f, n))
        if n >= MAX_FILE:
            out.append("%s:%d: file has %d lines (limit: under %d)" % (f, n, n, MAX_FILE))
        elif n >= WARN_FILE:
            warned.append("warning: %s has %d lines (%d or more: does it hold one owner's data?)" % (f, n, WARN_FILE))
    for f in sorted(files):
        fns, _ = functions(f)
        for (name, _, first, last) in fns:
            n = last - first + 1
            if n > largest.get("function", (0, ""))[0]:
                largest["function"] = (n, "%s at %s:%d (%d lines)"
                                       % (name, f, first, n))
            if n >= MAX_FUNC:
                out.append("%s:%d: function %s has %d lines (limit: under %d)"
                           % (f, first, name, n, MAX_FUNC))
    return out

def figures():
    return warned + ["largest C file in src/: %s; longest function: %s" % (
        largest.get("file", (0, "none"))[1],
        largest.get("function", (0, "none"))[1])]

# One line per finding, "check<TAB>text"; every check always runs.
for name, fn in (("duplicates", duplicates), ("includes", includes),
                 ("layering", layering), ("calls", calls), ("sizes", sizes),
                 ("figures", figures)):
    for line in fn():
        print("%s\t%s" % (name, line))
PY

# One run of the helper (python starts once), then one report per check.
findings=$(printf '%s\n' "$src_files" | "$python" -c "$checker") || {
  echo "check-house: the C checks failed to run" >&2
  exit 2
}
c_checks() { # c_checks CHECK: that check's findings
  printf '%s\n' "$findings" | sed -n "s/^$1\t//p"
}

report "no block of ${HOUSE_DUP_LINES:-6} or more lines repeated in src/" \
  "$(c_checks duplicates)"
report "no include cycle between modules of src/, no \"../\" include, no basename twice, and the folders in their layer order" \
  "$(c_checks includes)
$(c_checks layering)"
report "no call cycle between .c files of one src/ directory" \
  "$(c_checks calls)"
report "C files in src/ under ${HOUSE_MAX_FILE_LINES:-800} lines (${HOUSE_WARN_FILE_LINES:-600} or more: a warning), functions under ${HOUSE_MAX_FUNCTION_LINES:-120}" \
  "$(c_checks sizes)"
# The figures behind the sizes check, for the reader (not a check).
c_checks figures | sed 's/^/# /'

exit "$failed"
