#!/usr/bin/python3
# collectd-winperf: check that the shell scripts declare the programs they run.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/deps/scan.py [--list FILE] [--root DIR] [--words] [SCRIPT...]
#
# scripts/programs.txt lists every program the tests and scripts call with the
# Debian package that provides it; scripts declare the ones they run with
# `need PROG...` (tests/lib/need.sh). Two checks, one line per problem on
# stdout, exit 1 when there is any:
#
#  1. every program a script names in `need` is on the list;
#  2. every program of the list a script runs is declared with `need` in the
#     script itself or in a file it sources (`. FILE` / `source FILE`).
#
# "Runs" is found conservatively, so that nothing but a real call is ever
# reported: a shell lexer (quotes, $(...), ${...}, $((...)), heredocs,
# comments, case patterns) finds the words in command position (first word
# of a simple command or pipeline element, after `if`, `!`, `then`, `do`,
# assignments, and after wrappers such as timeout, env, exec, xargs, setsid,
# nohup, nice, sudo), and a word counts only when it is a literal name or
# path of a listed program and no function of that name is defined in the
# script or what it sources. An absolute path of a listed program anywhere
# in a word (`PY=/usr/bin/python3`, `${COLLECTD:-/usr/sbin/collectd}`)
# counts as a call too. Builtins, functions, variables ("$CC") and programs
# not on the list are never reported. Without SCRIPT arguments it checks
# tests/**/*.sh, scripts/*.sh, windows/*.sh, tests/run and .ci/run.
#
# --words prints every command word found (for reviewing the scanner).

import argparse
import glob
import os
import re
import sys

RESERVED_CONT = {"if", "then", "else", "elif", "do", "while", "until", "!",
                 "{", "time", "coproc"}
RESERVED_END = {"fi", "done", "}", "esac", "in"}
WRAPPERS = {"timeout", "env", "exec", "nohup", "setsid", "nice", "stdbuf",
            "xargs", "sudo", "command", "builtin"}
DECLARE = {"need", "e2e_need"}  # e2e_need: the older name (tests/e2e/lib.sh)
ABS_RE = re.compile(r"(?:^|[^A-Za-z0-9_./-])/(?:usr/)?s?bin/([A-Za-z0-9_.+-]+)")
ASSIGN_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
FUNC_RE = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][A-Za-z0-9_.:-]*)\s*\(\)",
                     re.M)
SOURCE_RE = re.compile(r"^\s*(?:\.|source)\s+(.+)$", re.M)
PATH_TAIL_RE = re.compile(r"((?:/[A-Za-z0-9_.+-]+)+)[\"']?$")


class Word:
    def __init__(self, text, literal, line):
        self.text = text        # the word with quotes removed
        self.raw_literal = literal  # no expansion anywhere in it
        self.line = line

    @property
    def literal(self):
        return self.raw_literal


class Lexer:
    """Splits shell text into streams of tokens: a stream is a list of
    ('w', Word) and ('op', text, line) items; every $(...) and `...` body
    becomes a stream of its own."""

    OPS = ["<<<", "<<-", ";;&", "<<", ">>", "&&", "||", ";;", ";&", "|&",
           "<(", ">(", ">&", "<&", "&>", ">|", ";", "&", "|", "(", ")",
           "<", ">"]

    def __init__(self, text):
        self.t = text
        self.n = len(text)
        self.line = 1
        self.heredocs = []
        self.streams = []

    def run(self):
        self.stream(0, None)
        return self.streams

    def skip_heredocs(self, i):
        # i is just past a newline: skip the bodies of pending heredocs
        while self.heredocs:
            delim, strip = self.heredocs.pop(0)
            while i < self.n:
                j = self.t.find("\n", i)
                end = self.n if j < 0 else j
                body = self.t[i:end]
                i = end + 1 if j >= 0 else self.n
                self.line += 1
                if (body.lstrip("\t") if strip else body) == delim:
                    break
        return i

    def stream(self, i, term):
        """Lex from i until the terminator (')' closing $(, '`', or EOF);
        returns the position after the terminator."""
        toks = []
        self.streams.append(toks)
        depth = 0
        word = None       # [text, literal, line]
        pending_delim = None

        def end_word():
            nonlocal word, pending_delim
            if word is not None:
                if pending_delim is not None:
                    self.heredocs.append((word[0], pending_delim))
                    pending_delim = None
                else:
                    toks.append(("w", Word(word[0], word[1], word[2])))
                word = None

        def add(ch, literal=True):
            nonlocal word
            if word is None:
                word = [ch, literal, self.line]
            else:
                word[0] += ch
                word[1] = word[1] and literal

        t = self.t
        while i < self.n:
            c = t[i]
            if term == "`" and c == "`":
                end_word()
                return i + 1
            if c == "\\" and i + 1 < self.n:
                if t[i + 1] == "\n":
                    self.line += 1
                    i += 2
                    continue
                add(t[i + 1])
                i += 2
                continue
            if c == "\n":
                end_word()
                toks.append(("op", "\n", self.line))
                self.line += 1
                i = self.skip_heredocs(i + 1)
                continue
            if c in " \t":
                end_word()
                i += 1
                continue
            if c == "#" and word is None:
                j = t.find("\n", i)
                i = self.n if j < 0 else j
                continue
            if c == "'":
                j = t.find("'", i + 1)
                j = self.n if j < 0 else j
                seg = t[i + 1:j]
                self.line += seg.count("\n")
                if word is None:
                    word = ["", True, self.line]
                word[0] += seg
                i = j + 1
                continue
            if c == '"':
                if word is None:
                    word = ["", True, self.line]
                i = self.dquote(i + 1, word)
                continue
            if c == "$":
                if word is None:
                    word = ["", True, self.line]
                i = self.dollar(i, word)
                continue
            if c == "`":
                if word is None:
                    word = ["", True, self.line]
                word[1] = False
                i = self.stream(i + 1, "`")
                continue
            if term == ")" and c == ")" and depth == 0:
                end_word()
                return i + 1
            op = None
            for o in self.OPS:
                if t.startswith(o, i):
                    op = o
                    break
            if op is not None:
                # "2>&1", "3<>file": a number glued to a redirection
                if op[0] in "<>&" and word is not None and word[0].isdigit():
                    word = None
                end_word()
                if op in ("<(", ">("):
                    i = self.stream(i + 2, ")")
                    toks.append(("w", Word("<(...)", False, self.line)))
                    continue
                if op == "(":
                    depth += 1
                elif op == ")":
                    depth -= 1
                toks.append(("op", op, self.line))
                i += len(op)
                if op in ("<<", "<<-"):
                    pending_delim = op == "<<-"
                continue
            add(c)
            i += 1
        end_word()
        return i

    def dquote(self, i, word):
        t = self.t
        while i < self.n:
            c = t[i]
            if c == '"':
                return i + 1
            if c == "\\" and i + 1 < self.n:
                if t[i + 1] == "\n":
                    self.line += 1
                else:
                    word[0] += t[i + 1]
                i += 2
                continue
            if c == "$":
                i = self.dollar(i, word)
                continue
            if c == "`":
                word[1] = False
                i = self.stream(i + 1, "`")
                continue
            if c == "\n":
                self.line += 1
            word[0] += c
            i += 1
        return i

    def balanced(self, j, opening, closing):
        """The position of the closing bracket that balances the one at j."""
        t = self.t
        depth = 0
        while j < self.n:
            if t[j] == opening:
                depth += 1
            elif t[j] == closing:
                depth -= 1
                if depth == 0:
                    break
            elif t[j] == "\n":
                self.line += 1
            elif t[j] == "\\":
                j += 1
            j += 1
        return j

    def dollar(self, i, word):
        """At a '$': command substitution, arithmetic, ${...}, $'...',
        or a variable. Marks the word as not literal (except $'...')."""
        t = self.t
        if t.startswith("$((", i):
            word[1] = False
            return self.balanced(i + 1, "(", ")") + 1
        if t.startswith("$(", i):
            word[1] = False
            return self.stream(i + 2, ")")
        if t.startswith("${", i):
            word[1] = False
            j = self.balanced(i + 1, "{", "}")
            word[0] += t[i:j + 1]   # kept: may hold an absolute path
            return j + 1
        if t.startswith("$'", i):
            j = i + 2
            while j < self.n and t[j] != "'":
                j += 2 if t[j] == "\\" else 1
            word[0] += t[i + 2:j]
            return j + 1
        word[1] = False
        j = i + 1
        if j < self.n and (t[j].isalnum() or t[j] == "_"):
            while j < self.n and (t[j].isalnum() or t[j] == "_"):
                j += 1
        elif j < self.n and t[j] in "@*#?$!-0123456789":
            j += 1
        word[0] += t[i:j]
        return j


def command_words(stream):
    """(word, line, kind) for every word in command position of a stream;
    kind is 'cmd', or 'decl' for the arguments of need."""
    out = []
    expect = True
    skip_next = False
    in_case = []          # stack: 'word' (before in), 'pat', 'body'
    wrapper = None        # name of the wrapper whose command is pending
    wrapper_args = 0
    declaring = False
    dbl_bracket = False
    array = 0             # 1: after NAME=, 2: inside NAME=( ... )
    for tok in stream:
        if tok[0] == "op":
            op = tok[1]
            if array == 1 and op == "(":
                array = 2
                continue
            if array == 2:
                if op == ")":
                    array = 0
                continue
            array = 0
            if dbl_bracket:
                continue
            if op in ("<", ">", ">>", "<&", ">&", "&>", ">|", "<<<"):
                skip_next = True
                continue
            if op in ("<<", "<<-"):
                continue
            declaring = False
            wrapper = None
            if op in (";;", ";&", ";;&"):
                if in_case:
                    in_case[-1] = "pat"
                expect = False
                continue
            if op == ")" and in_case and in_case[-1] == "pat":
                in_case[-1] = "body"
                expect = True
                continue
            if op in ("\n", ";", "&", "&&", "||", "|", "|&", "("):
                if in_case and in_case[-1] == "pat":
                    continue
                expect = True
            elif op == ")":
                expect = False
            continue
        w = tok[1]
        if array == 2:
            out.append((w, "any"))
            continue
        array = 0
        if skip_next:
            skip_next = False
            continue
        if dbl_bracket:
            if w.text == "]]" and w.literal:
                dbl_bracket = False
            continue
        if in_case and in_case[-1] == "word":
            if w.text == "in" and w.literal:
                in_case[-1] = "pat"
            continue
        if in_case and in_case[-1] == "pat":
            if w.text == "esac" and w.literal:
                in_case.pop()
                expect = False
            continue
        out.append((w, "any"))
        if declaring:
            out.append((w, "decl"))
            continue
        if wrapper is not None:
            if w.literal and (w.text.startswith("-") or ASSIGN_RE.match(w.text)):
                if wrapper == "command" and w.text in ("-v", "-V"):
                    wrapper = None
                    expect = False
                elif wrapper == "env" and w.text == "-u":
                    skip_next = True
                continue
            if wrapper == "timeout" and wrapper_args == 0:
                wrapper_args = 1
                continue
            wrapper = None
            expect = True
        if not expect:
            continue
        if ASSIGN_RE.match(w.text):
            if w.text.endswith("="):
                array = 1
            continue
        if w.literal and w.text in RESERVED_CONT:
            continue
        if w.literal and w.text == "[[":
            dbl_bracket = True
            expect = False
            continue
        if w.literal and w.text in RESERVED_END:
            expect = False
            if w.text == "esac" and in_case:
                in_case.pop()
            continue
        if w.literal and w.text == "case":
            in_case.append("word")
            expect = False
            continue
        if w.literal and w.text in ("for", "select", "function"):
            expect = False
            continue
        out.append((w, "cmd"))
        expect = False
        if w.literal and w.text in WRAPPERS:
            wrapper = w.text
            wrapper_args = 0
        if w.literal and w.text in DECLARE:
            declaring = True
    return out


def load_list(path):
    progs = {}
    problems = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or not all(parts):
                problems.append("%s:%d: not PROGRAM<TAB>PACKAGE<TAB>GROUP: %r"
                                % (path, n, line))
                continue
            prog, pkg, group = parts
            if prog != "-":
                if prog in progs:
                    problems.append("%s:%d: %s listed twice" % (path, n, prog))
                progs[prog] = (pkg, group)
    return progs, problems


class Script:
    def __init__(self, path, root):
        self.path = path
        self.root = root
        with open(path, encoding="utf-8", errors="replace") as f:
            self.text = f.read()
        self.functions = set(FUNC_RE.findall(self.text))
        self.words = []
        for s in Lexer(self.text).run():
            self.words.extend(command_words(s))
        self.declared = {w.text: w.line for w, k in self.words
                         if k == "decl" and w.literal}
        self.sources = []
        for m in SOURCE_RE.finditer(self.text):
            arg = re.split(r"\s+(?:\|\||&&|;|#)", m.group(1))[0].strip()
            tail = PATH_TAIL_RE.search(arg)
            if not tail:
                continue
            tail = tail.group(1)
            here = os.path.dirname(path)
            for base in (here, root):
                cand = os.path.normpath(base + tail)
                if os.path.isfile(cand) and cand != os.path.normpath(path):
                    self.sources.append(cand)
                    break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")))
    ap.add_argument("--list")
    ap.add_argument("--words", action="store_true")
    ap.add_argument("scripts", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    lst = a.list or os.path.join(root, "scripts/programs.txt")
    progs, problems = load_list(lst)
    files = a.scripts
    if not files:
        files = sorted(set(
            glob.glob(os.path.join(root, "tests/**/*.sh"), recursive=True)
            + glob.glob(os.path.join(root, "scripts/*.sh"))
            + glob.glob(os.path.join(root, "windows/*.sh"))
            + [os.path.join(root, "tests/run"), os.path.join(root, ".ci/run")]))
    cache = {}

    def script(p):
        p = os.path.normpath(os.path.abspath(p))
        if p not in cache:
            cache[p] = Script(p, root)
        return cache[p]

    def closure(s, seen=None):
        seen = seen if seen is not None else set()
        if s.path in seen:
            return []
        seen.add(s.path)
        out = [s]
        for src in s.sources:
            out.extend(closure(script(src), seen))
        return out

    for f in files:
        s = script(f)
        rel = os.path.relpath(s.path, root)
        if a.words:
            for w, k in s.words:
                if k == "cmd":
                    print("%s:%d: %s%s" % (rel, w.line, w.text,
                                           "" if w.literal else " (expanded)"))
            continue
        for prog, line in sorted(s.declared.items()):
            if prog not in progs:
                problems.append("%s:%d: need %s: not in %s (add it with the "
                                "Debian package that provides it)"
                                % (rel, line, prog, os.path.relpath(lst, root)))
        family = closure(s)
        declared = set()
        functions = set()
        for m in family:
            declared |= set(m.declared)
            functions |= m.functions
        reported = set()
        for w, k in s.words:
            called = []
            if k == "cmd" and w.literal:
                called.append(os.path.basename(w.text)
                              if w.text.startswith("/") else w.text)
            if k in ("any", "cmd"):
                called += ABS_RE.findall(w.text)
            for c in called:
                if c not in progs or c in functions or c in declared:
                    continue
                if c in reported:
                    continue
                reported.add(c)
                problems.append("%s:%d: runs %s without declaring it: add "
                                "`need %s` (Debian package %s)"
                                % (rel, w.line, c, c, progs[c][0]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
