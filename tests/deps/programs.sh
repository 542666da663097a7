#!/bin/bash
# collectd-winperf: the program list (scripts/programs.txt) and the scripts
# agree (TAP). Every program a script declares with `need` is on the list,
# no script runs a listed program without declaring it (tests/deps/scan.py),
# the list names real Debian packages and covers debian/control's
# Build-Depends. Then the checks themselves are tested on fixtures: an
# undeclared program must be reported, shell text that only mentions a
# program (strings, comments, heredocs, case patterns, functions of the same
# name) must not, and need must fail, never skip, naming the package.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need python3

list=$top_srcdir/scripts/programs.txt
scan=$top_srcdir/tests/deps/scan.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winperf-deps.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tap.sh
. "$top_srcdir/tests/lib/tap.sh"

# ------------------------------------------------------------- the list
bad=$(awk -F'\t' '!/^#/ && !/^$/ && (NF != 3 || $1 == "" || $2 == "" || ($3 != "default" && $3 != "windows")) { print NR ": " $0 }' "$list")
[ -z "$bad" ]
ok $? "every line of scripts/programs.txt is PROGRAM<TAB>PACKAGE<TAB>default|windows"
[ -z "$bad" ] || echo "$bad" | diag

dups=$(awk -F'\t' '!/^#/ && NF == 3 && $1 != "-" { print $1 }' "$list" | sort | uniq -d)
[ -z "$dups" ]
ok $? "no program is listed twice${dups:+ ($dups)}"

# Every package is one Debian knows (apt's cache); the default group's are
# installed, since everything the default run uses must be. apt-cache loads
# its whole cache on every start (over a second here), so the packages are
# asked for in one call; a package that call did not show is asked for
# alone, as before, and is unknown if apt-cache fails on it.
unknown=""
absent=""
shown=" $(awk -F'\t' '!/^#/ && NF == 3 { print $2 }' "$list" | sort -u |
  xargs apt-cache show --no-all-versions 2>/dev/null |
  sed -n 's/^Package: //p' | tr '\n' ' ')"
while IFS=$'\t' read -r prog pkg group; do
  case $prog in '#'* | '') continue ;; esac
  case $shown in
  *" $pkg "*) ;;
  *) apt-cache show --no-all-versions "$pkg" >/dev/null 2>&1 || unknown="$unknown $pkg" ;;
  esac
  if [ "$group" = default ]; then
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      absent="$absent $pkg"
  fi
done <"$list"
[ -z "$unknown" ]
ok $? "every listed package is a Debian package apt knows${unknown:+ (unknown:$unknown)}"
[ -z "$absent" ]
ok $? "every package of the default group is installed${absent:+ (missing:$absent: scripts/install-deps.sh)}"

# debian/control's Build-Depends (dpkg-buildpackage checks them): listed.
listed=" $(awk -F'\t' '!/^#/ && NF == 3 { printf "%s ", $2 }' "$list")"
deps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$top_srcdir/debian/control" |
  sed -e 's/^Build-Depends://' -e '/^[A-Z][A-Za-z-]*:/d' | tr ',' '\n' |
  sed -e 's/[[:space:]]*(.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep .)
notlisted=""
for d in $deps; do
  [ "$d" = debhelper-compat ] && d=debhelper # provided by debhelper
  case $listed in *" $d "*) ;; *) notlisted="$notlisted $d" ;; esac
done
[ -n "$deps" ] && [ -z "$notlisted" ]
ok $? "debian/control's Build-Depends are all on the list ($(echo "$deps" | tr '\n' ' '))${notlisted:+; not listed:$notlisted}"

# ------------------------------------------------------ the real scripts
python3 "$scan" --root "$top_srcdir" --list "$list" >"$tmp/scan.out" 2>&1
ok $? "tests/**/*.sh, scripts/*.sh, windows/*.sh, tests/run: every program declared and listed"
diag <"$tmp/scan.out"
count=$(python3 "$scan" --root "$top_srcdir" --list "$list" --words | wc -l)
[ "$count" -gt 500 ]
ok $? "the scan read the scripts ($count command words)"

# ------------------------------------------------- the scan, on fixtures
mkdir -p "$tmp/fx/lib"
printf '# fixture list\ncurl\tcurl\tdefault\njq\tjq\tdefault\nwine\twine\tdefault\ngit\tgit\tdefault\nmake\tmake\tdefault\npython3\tpython3\tdefault\nsmbclient\tsmbclient\tdefault\n-\tlibfoo-dev\tdefault\n' >"$tmp/fx/list.txt"
fscan() { python3 "$scan" --root "$tmp/fx" --list "$tmp/fx/list.txt" "$@"; }

cat >"$tmp/fx/undeclared.sh" <<'EOF'
#!/bin/sh
. "$(dirname "$0")/lib/need.sh"
need curl
curl -s http://127.0.0.1/ >/dev/null
smbclient -N -L 127.0.0.1
EOF
out=$(fscan "$tmp/fx/undeclared.sh")
rc=$?
# shellcheck disable=SC2016 # the backquotes are the message's
[ "$rc" -eq 1 ] && [ "$(echo "$out" | grep -c .)" -eq 1 ] &&
  echo "$out" | grep -q '^undeclared.sh:5: runs smbclient without declaring it: add `need smbclient` (Debian package smbclient)$'
ok $? "fixture: an undeclared smbclient is reported with its line and package, exit 1"
echo "$out" | diag

sed 's/^need curl$/need curl smbclient/' "$tmp/fx/undeclared.sh" >"$tmp/fx/declared.sh"
out=$(fscan "$tmp/fx/declared.sh")
ok $? "fixture: the same script with need smbclient passes"
echo "$out" | diag

printf '#!/bin/sh\nneed curl frobnicate\ncurl x\n' >"$tmp/fx/unlisted.sh"
out=$(fscan "$tmp/fx/unlisted.sh")
[ $? -eq 1 ] && echo "$out" | grep -q '^unlisted.sh:2: need frobnicate: not in list.txt'
ok $? "fixture: need of a program that is not on the list is reported"
echo "$out" | diag

# Every way of running a program the scan must see.
cat >"$tmp/fx/calls.sh" <<'EOF'
#!/bin/bash
v=$(git rev-parse HEAD)
if ! timeout 5 wine foo.exe; then :; fi
PY=/usr/bin/python3
echo x | jq .
env -u CC LANG=C make -C d
( cd d && curl -s x )
out=`smbclient -L x`
EOF
out=$(fscan "$tmp/fx/calls.sh")
got=$(echo "$out" | sed -n 's/^calls.sh:[0-9]*: runs \([^ ]*\) without.*/\1/p' | sort | tr '\n' ' ')
[ "$got" = "curl git jq make python3 smbclient wine " ]
ok $? "fixture: \$(...), if !, timeout, an absolute path, pipes, env, subshells, backquotes are calls (got: $got)"
echo "$out" | diag

# Only mentions: nothing may be reported (no false alarms).
cat >"$tmp/fx/mentions.sh" <<'EOF'
#!/bin/bash
# curl and wine in a comment
echo "install smbclient (apt-get install smbclient); then run: git status"
echo 'jq . | make'
printf '%s\n' "$(echo wine)"
cat <<HEREDOC
curl http://x
jq .
HEREDOC
for t in wine jq make; do command -v "$t"; done
case $1 in
wine) echo one ;;
jq | curl) echo two ;;
esac
git() { echo "a function named git"; }
git status
awk '{ print "make" }' /dev/null
[ -x /usr/local/libexec/curl-helper ] && x=1
list=(curl jq wine)
[[ $1 == make ]] && echo same
EOF
out=$(fscan "$tmp/fx/mentions.sh")
ok $? "fixture: comments, strings, heredocs, case patterns, for lists, arrays, functions are not calls"
echo "$out" | diag

# Declarations in a sourced library count for the script that sources it.
printf '# shellcheck shell=sh\nlib_start() {\n  need curl\n  curl -s x\n}\n' >"$tmp/fx/lib/web.sh"
# shellcheck disable=SC2016 # the fixture's text
printf '#!/bin/sh\n. "$(dirname "$0")/lib/web.sh"\nlib_start\ncurl -s y\n' >"$tmp/fx/uses-lib.sh"
out=$(fscan "$tmp/fx/uses-lib.sh" "$tmp/fx/lib/web.sh")
ok $? "fixture: a program declared in a sourced library is declared for the script"
echo "$out" | diag

# -------------------------------------------------------- need itself
printf 'frobnicate-not-installed\tfrobnicate-pkg\tdefault\nsh\tdash\tdefault\n' >"$tmp/need.txt"
cat >"$tmp/need-missing.sh" <<EOF
. "$top_srcdir/tests/lib/need.sh"
NEED_LIST=$tmp/need.txt
need sh frobnicate-not-installed not-on-the-list
echo "ok 99 - after need"
EOF
out=$(sh "$tmp/need-missing.sh" 2>"$tmp/need.err")
rc=$?
want="not ok 1 - frobnicate-not-installed installed (apt-get install frobnicate-pkg)
not ok 2 - not-on-the-list is on $tmp/need.txt (add it with the Debian package that provides it)
1..2"
[ "$rc" -eq 1 ] && [ "$out" = "$want" ] &&
  grep -q 'apt-get install frobnicate-pkg' "$tmp/need.err"
ok $? "need: a missing program fails (not ok, the plan, exit 1) with its package; nothing runs after it"
printf '%s\n' "$out" | diag
diag <"$tmp/need.err"

printf '. "%s/tests/lib/need.sh"\nNEED_LIST=%s\nneed sh\necho "ok 1 - after need"\necho "1..1"\n' \
  "$top_srcdir" "$tmp/need.txt" >"$tmp/need-present.sh"
out=$(sh "$tmp/need-present.sh" 2>&1) && [ "$out" = "ok 1 - after need
1..1" ]
ok $? "need: present, listed programs pass silently"

printf '. "%s/tests/lib/need.sh"\nNEED_LIST=%s\nNEED_FAIL=need_fail_die\nneed frobnicate-not-installed\necho after\n' \
  "$top_srcdir" "$tmp/need.txt" >"$tmp/need-die.sh"
out=$(sh "$tmp/need-die.sh" 2>&1)
[ $? -eq 1 ] && echo "$out" | grep -q 'need-die.sh: frobnicate-not-installed installed (apt-get install frobnicate-pkg)' &&
  ! echo "$out" | grep -q after
ok $? "need with need_fail_die: the message on stderr, exit 1"

tap_done
