#!/usr/bin/env bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# scripts/check-house.sh on small fixture trees (TAP): a clean tree passes,
# and each rule is broken once on purpose and must be reported with the
# file:line that breaks it, while the other checks stay quiet. Also checks
# that the rules are not too eager (a 5-line repeat, licence headers and
# include lists, a 119-line function, cycles across directories).
set -u

# TAP helpers (ok, diag, done_testing) and a private $TMP removed on exit.
# shellcheck source=tests/cli/lib.sh
. "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/lib.sh"
checker="$top_srcdir/scripts/check-house.sh"

need git python3
# The interpreter itself, not a version manager's shim (seconds per start).
PYTHON=$(python3 -c 'import sys; print(sys.executable)') || PYTHON=python3
export PYTHON
tmp=$TMP

# The clean base: two directories, a header per module, licence headers and
# the same include list everywhere (neither may count as a copied block).
licence() {
  printf '/* fixture: %s\n * Copyright (c) 2026 somebody. SPDX-License-Identifier: MIT\n */\n' "$1"
  printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <stdint.h>\n#include <stdbool.h>\n#include <errno.h>\n\n'
}

base() { # base DIR: a clean fixture tree in DIR
  local d=$1
  mkdir -p "$d/src/a" "$d/src/b" "$d/doc"
  (cd "$d" && git init -q .)
  printf '# fixture\nSee doc/format.md.\n' >"$d/README.md"
  {
    licence a/one.c
    printf '#include "one.h"\n#include "two.h"\n\n'
    printf 'int one_value(int x) {\n  return two_value(x) + 1;\n}\n'
  } >"$d/src/a/one.c"
  printf 'int one_value(int x);\n' >"$d/src/a/one.h"
  {
    licence a/two.c
    printf '#include "two.h"\n\n'
    printf 'int two_value(int x) {\n  return x * 2;\n}\n'
  } >"$d/src/a/two.c"
  printf 'int two_value(int x);\n' >"$d/src/a/two.h"
  {
    licence b/three.c
    printf '#include "three.h"\n\n'
    printf 'static int helper(int x) {\n  return x - 1;\n}\n\n'
    printf 'int three_value(int x) {\n  return helper(x);\n}\n'
  } >"$d/src/b/three.c"
  printf 'int three_value(int x);\n' >"$d/src/b/three.h"
}

# A function body of N statement lines (distinct lines: no duplicates).
body() { # body NAME N
  printf 'int %s(int x) {\n' "$1"
  local i
  for ((i = 0; i < $2; i++)); do
    printf '  x = x * 3 + %d; /* %s */\n' "$i" "$1"
  done
  printf '  return x;\n}\n'
}

house() { # house DIR: the checker's output in $out, its status in $status
  out=$(cd "$1" && bash "$checker" 2>&1)
  status=$?
}

# check_line NAME-PATTERN: the checker's summary line for one check
verdict() { printf '%s\n' "$out" | grep -E "^(ok|FAIL) - $1" | cut -d' ' -f1; }
has() { printf '%s\n' "$out" | grep -q -F -- "$1"; }

# Every check of a fixture but `broken` must pass.
others_ok() { # others_ok BROKEN-PATTERN
  local bad
  bad=$(printf '%s\n' "$out" | grep '^FAIL - ' | grep -v -E -- "$1")
  [ -z "$bad" ]
}

# 1. clean
base "$tmp/clean"
house "$tmp/clean"
[ "$status" -eq 0 ] && ! has FAIL
ok $? "a clean tree passes every check (status $status)"
[ "$(printf '%s\n' "$out" | grep -c '^ok - ')" -eq 6 ]
ok $? "one line per check (6)"

# 2. a path outside the repository, in a README and in a test
base "$tmp/refs"
printf 'intro\nsee ../%s/spec/x.md\n' "shared" >"$tmp/refs/README.md"
mkdir -p "$tmp/refs/tests"
printf '# %s/notes/y.md\n' "shared" >"$tmp/refs/tests/t.sh"
house "$tmp/refs"
[ "$status" -ne 0 ] && [ "$(verdict nothing)" = FAIL ] &&
  has "README.md:2:" && has "tests/t.sh:1:" && others_ok nothing
ok $? "a reference outside the repository is reported with file:line"

# 3. an issue number in a src/ comment (and not outside src/)
base "$tmp/issue"
printf '/* done for issue 12 */\n' >>"$tmp/issue/src/b/three.c"
printf 'fixed in issue 3\n' >>"$tmp/issue/README.md"
house "$tmp/issue"
[ "$status" -ne 0 ] && [ "$(verdict 'no issue')" = FAIL ] &&
  has "src/b/three.c:" && ! has "README.md:" && others_ok 'no issue'
ok $? "an issue number in src/ is reported, one in README.md is not"

# 4. a six-line block copied between two files
base "$tmp/dup"
block='  int total = 0;
  for (int i = 0; i < n; i++)
    total += values[i];
  if (total < 0)
    total = 0;
  printf("%d\n", total);
  return total;'
{
  printf '\nint sum_a(const int *values, int n) {\n%s\n}\n' "$block"
} >>"$tmp/dup/src/a/two.c"
{
  printf '\nint sum_b(const int *values, int n) {\n  /* the same */\n%s\n}\n' "$block"
} >>"$tmp/dup/src/b/three.c"
house "$tmp/dup"
[ "$status" -ne 0 ] && [ "$(verdict 'no block')" = FAIL ] &&
  has "src/a/two.c:" && has "src/b/three.c:" && others_ok 'no block'
ok $? "a copied 6-line block is reported with both places"
printf '%s\n' "$out" | grep -q -E 'src/a/two\.c:[0-9]+-[0-9]+ and src/b/three\.c:[0-9]+-[0-9]+ \(7 lines\)'
ok $? "the copied block is reported once, as one 7-line block"

# 5. the same within one file
base "$tmp/dup1"
printf '\nint s1(const int *values, int n) {\n%s\n}\n\nint s2(const int *values, int n) {\n%s\n}\n' \
  "$block" "$block" >>"$tmp/dup1/src/a/one.c"
house "$tmp/dup1"
[ "$status" -ne 0 ] && printf '%s\n' "$out" | grep -q -E 'src/a/one\.c:[0-9]+-[0-9]+ and src/a/one\.c:[0-9]+-[0-9]+'
ok $? "a block repeated within one file is reported"

# 6. five repeated lines are not a block
base "$tmp/dup5"
five=$(printf '%s\n' "$block" | head -n 5)
printf '\nvoid f5(int *values, int n) {\n%s\n}\n' "$five" >>"$tmp/dup5/src/a/two.c"
printf '\nvoid g5(int *values, int n) {\n%s\n}\n' "$five" >>"$tmp/dup5/src/b/three.c"
house "$tmp/dup5"
[ "$status" -eq 0 ]
ok $? "five repeated lines (and the shared licence and includes) pass"

# 7. an include cycle between two modules (x.h and x.c are one module)
base "$tmp/inc"
printf '#include "one.h"\nint two_value(int x);\n' >"$tmp/inc/src/a/two.h"
house "$tmp/inc"
[ "$status" -ne 0 ] && [ "$(verdict 'no include')" = FAIL ] &&
  has "src/a/one -> src/a/two at src/a/one.c:" &&
  has "src/a/two -> src/a/one at src/a/two.h:1" && others_ok 'no include'
ok $? "an include cycle one.c -> two.h -> one.h is reported with file:line"

# 8. a call cycle between two .c files of one directory
base "$tmp/call"
printf '\nint two_more(int x) {\n  return one_value(x);\n}\n' >>"$tmp/call/src/a/two.c"
house "$tmp/call"
[ "$status" -ne 0 ] && [ "$(verdict 'no call')" = FAIL ] &&
  has "src/a/one.c -> src/a/two.c at src/a/one.c:" &&
  has "src/a/two.c -> src/a/one.c at src/a/two.c:" && others_ok 'no call'
ok $? "a call cycle one.c <-> two.c is reported with the call sites"

# 9. calls in both directions across two directories are not this rule's
base "$tmp/call2"
printf '\nint three_more(int x) {\n  return one_value(x);\n}\n' >>"$tmp/call2/src/b/three.c"
printf '\nint one_more(int x) {\n  return three_value(x);\n}\n' >>"$tmp/call2/src/a/one.c"
house "$tmp/call2"
[ "$(verdict 'no call')" = ok ]
ok $? "calls between different directories are not reported as a cycle"

# 10. a call to a file's own static function is not a call into another
# file that defines the same name (one.c already calls two.c)
base "$tmp/static"
printf '\nint helper_x(int x) {\n  return x;\n}\n' >>"$tmp/static/src/a/one.c"
printf '\nstatic int helper_x(int x) {\n  return x + 1;\n}\n\nint two_more(int x) {\n  return helper_x(x);\n}\n' >>"$tmp/static/src/a/two.c"
house "$tmp/static"
[ "$status" -eq 0 ]
ok $? "a call to the file's own static function is not an edge"

# 11. a 130-line function
base "$tmp/long"
body long_one 127 >>"$tmp/long/src/b/three.c"
start=$(grep -n '^int long_one' "$tmp/long/src/b/three.c" | cut -d: -f1)
house "$tmp/long"
[ "$status" -ne 0 ] && [ "$(verdict 'C files')" = FAIL ] &&
  has "src/b/three.c:$start: function long_one has 130 lines" && others_ok 'C files'
ok $? "a 130-line function is reported at its first line"

# 12. 119 lines is under the limit, 120 is not; a header over several lines
# (attribute, return type on its own line) counts from its first line
multi_line() { # multi_line DIR STATEMENTS
  {
    printf '\n__attribute__((noinline)) static int\n'
    printf 'long_two(int x,\n         int y)\n{\n'
    for ((i = 0; i < $2; i++)); do printf '  x = x * 5 + y + %d;\n' "$i"; done
    printf '  return x;\n}\n'
  } >>"$1/src/a/two.c"
}
base "$tmp/long2"
multi_line "$tmp/long2" 113
house "$tmp/long2"
[ "$status" -eq 0 ]
ok $? "a 119-line function with a multi-line header passes"
base "$tmp/long3"
multi_line "$tmp/long3" 114
start=$(grep -n '^__attribute__' "$tmp/long3/src/a/two.c" | cut -d: -f1)
house "$tmp/long3"
[ "$status" -ne 0 ] && has "src/a/two.c:$start: function long_two has 120 lines"
ok $? "the same function at 120 lines is reported under its name"

# 13. a file of 600 to 799 lines passes with a warning naming it; one of
# 800 or more is reported
base "$tmp/big"
{
  licence b/big.c
  for ((k = 0; k < 60; k++)); do body "f$k" 7; done
} >"$tmp/big/src/b/big.c"
total=$(wc -l <"$tmp/big/src/b/big.c")
house "$tmp/big"
[ "$total" -ge 600 ] && [ "$total" -lt 800 ] && [ "$status" -eq 0 ] &&
  has "# warning: src/b/big.c has $total lines"
ok $? "a $total-line file passes, with a warning naming it"
base "$tmp/huge"
{
  licence b/huge.c
  for ((k = 0; k < 80; k++)); do body "f$k" 7; done
} >"$tmp/huge/src/b/huge.c"
total=$(wc -l <"$tmp/huge/src/b/huge.c")
house "$tmp/huge"
[ "$total" -ge 800 ] && [ "$status" -ne 0 ] &&
  has "src/b/huge.c:$total: file has $total lines" && others_ok 'C files'
ok $? "a $total-line file is reported"

# 14. the checker is quiet on its own source (it names the pattern indirectly)
base "$tmp/self"
mkdir -p "$tmp/self/scripts" "$tmp/self/tests/house"
cp "$checker" "$tmp/self/scripts/"
cp "$0" "$tmp/self/tests/house/"
house "$tmp/self"
[ "$status" -eq 0 ]
ok $? "the checker and this test do not trip the reference check"


# 15. a header by "../" is reported, and a basename used twice
base "$tmp/dotdot"
printf '#include "../a/two.h"\n' >>"$tmp/dotdot/src/b/three.c"
house "$tmp/dotdot"
[ "$status" -ne 0 ] && [ "$(verdict 'no include')" = FAIL ] &&
  has 'src/b/three.c:' && has 'not by "../"' && others_ok 'no include'
ok $? 'an include by "../" is reported with file:line'
base "$tmp/twice"
printf 'int two_other(void);\n' >"$tmp/twice/src/b/two.c"
house "$tmp/twice"
[ "$status" -ne 0 ] && has "basename two.c used twice: src/a/two.c, src/b/two.c"
ok $? "a basename used twice in src/ is reported"

# 16. the folders' layer order: common may include nothing of perfdata,
# perfdata may include common; a folder the order lacks is reported
layers() { # layers DIR: a tree with src/common and src/perfdata
  base "$1"
  mkdir -p "$1/src/common" "$1/src/perfdata"
  printf 'int low(void);\n' >"$1/src/common/low.h"
  printf '#include "low.h"\nint low(void) {\n  return 1;\n}\n' >"$1/src/common/low.c"
  printf 'int high(void);\n' >"$1/src/perfdata/high.h"
  printf '#include "high.h"\n#include "low.h"\nint high(void) {\n  return low();\n}\n' \
    >"$1/src/perfdata/high.c"
}
layers "$tmp/layers"
rm -rf "$tmp/layers/src/a" "$tmp/layers/src/b"
house "$tmp/layers"
[ "$status" -eq 0 ]
ok $? "a folder including one below it passes"
layers "$tmp/upward"
rm -rf "$tmp/upward/src/a" "$tmp/upward/src/b"
printf '#include "high.h"\n' >>"$tmp/upward/src/common/low.c"
house "$tmp/upward"
[ "$status" -ne 0 ] &&
  has "src/common/low.c:5: src/common includes high.h of src/perfdata" &&
  others_ok 'no include'
ok $? "an include up the layers is reported with file:line"
layers "$tmp/stray"
house "$tmp/stray"
[ "$status" -ne 0 ] && has "folder src/a is not in the layer order"
ok $? "a folder outside the layer order is reported"

# 17. doc/architecture.md may name only files and functions that exist
base "$tmp/doc"
printf '# map\n`src/a/one.c:one_value` and `src/b/three.c`\n' >"$tmp/doc/doc/architecture.md"
house "$tmp/doc"
[ "$status" -eq 0 ]
ok $? "a map naming existing files and functions passes"
printf '`src/a/gone.c`\n`src/a/two.c:no_such_function`\n' >>"$tmp/doc/doc/architecture.md"
house "$tmp/doc"
[ "$status" -ne 0 ] && [ "$(verdict nothing)" = FAIL ] &&
  has "doc/architecture.md:3: src/a/gone.c does not exist" &&
  has "doc/architecture.md:4: src/a/two.c has no function no_such_function" &&
  others_ok nothing
ok $? "a map naming a missing file or function is reported with its line"

done_testing
