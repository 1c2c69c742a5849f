#!/usr/bin/env python3
"""Mutation testing of the CPU test suites.

Each mutant of the catalog scripts/mutants/ (one module per library) is one
small, realistic bug: a pattern of C++ text inside one function of a library
and its replacement. The function is looked up by name (in the hinted file
first, then in the library's other files) and the pattern matched inside it
with layout ignored, so a reformat, or a function moved to another file of
its library, leaves the catalog true.

The tool plants the mutants one at a time in a scratch git worktree
(default: build-mutation/src, with its own Release build in
build-mutation/src/build), rebuilds only what the next test needs, and runs
the suites of `make test` (lit, the ctest-registered GoogleTest binaries,
pytest where present) until the first failure:

  killed       a test failed (the killing test is recorded)
  survived     every test passed: no test notices the bug
  build-error  the mutant does not compile (reported apart, not scored)
  equivalent   marked in the list as changing no behaviour (not run, not
               scored)

score = killed / (all - equivalent - build-error).

Tests run cheapest-first: the test that killed the mutant last time, then the
tests related to the mutated file, then the rest (lit --max-failures=1,
gtest --gtest_fail_fast).

  scripts/mutation.py --check             every pattern matches exactly once
                                          in its function (make test runs
                                          it; a stale entry says what to do)
  scripts/mutation.py --list              the mutants
  scripts/mutation.py                     run them all (results in
                                          build-mutation/results.json)
  scripts/mutation.py --only ID...        run some
  scripts/mutation.py --sample 3 --seed 1 a random quick sample
  scripts/mutation.py --resume            skip mutants already in the results
"""
import argparse
import datetime
import glob
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SRC, "scripts"))

LLVM_DIR = "/usr/lib/llvm-22"
LIT = os.path.join(LLVM_DIR, "bin", "lit")

# Which tests to run first for a mutated file (longest matching prefix wins).
# Units: "lit:<path under test/>" (a file or a folder), "gtest:<ctest name>".
RELATED = [
    ("lib/Layout/", ["gtest:TileLayoutTests", "gtest:TileTMATests",
                     "gtest:TileTMAPropertyTests"]),
    ("lib/TMA/", ["gtest:TileTMATests", "gtest:TileTMAPropertyTests",
                  "lit:Transforms/report-copy-plans.mlir"]),
    ("lib/TMA/HardwareModel.cpp", ["gtest:TileTMAPropertyTests",
                                   "gtest:TileTMATests"]),
    ("lib/Dialect/", ["lit:Dialect", "gtest:TileDialectTests",
                      "lit:Transforms", "lit:Conversion"]),
    ("lib/Dispatch/", ["gtest:TileDispatchTests", "lit:Dispatch"]),
    ("lib/MMA/", ["gtest:TileMMATests",
                  "lit:Dialect/Tile/wgmma-descriptor-invalid.mlir"]),
    ("lib/Conversion/TileToNVVM/", ["lit:Conversion",
                                    "gtest:TileConversionTests",
                                    "lit:Pipeline", "lit:Transforms"]),
    ("lib/Dialect/Tile/IR/CopyRequest.cpp",
     ["gtest:TileConversionTests", "lit:Transforms/report-copy-plans.mlir",
      "lit:Conversion"]),
    ("lib/Conversion/KernelABI/", ["lit:Conversion/KernelABI", "lit:Pipeline"]),
    ("lib/Conversion/HostToLLVM/", ["lit:Conversion/HostToLLVM",
                                    "lit:Pipeline"]),
    ("lib/Transforms/", ["lit:Transforms", "lit:Pipeline"]),
    ("lib/Pipelines/", ["lit:Pipeline", "lit:Tools"]),
    ("lib/Transforms/CheckHostArguments.cpp",
     ["lit:Transforms/check-host-arguments.mlir",
      "gtest:TileRuntimeEntryCheckTests"]),
    ("lib/Runtime/", ["gtest:TileRuntimeTests",
                      "gtest:TileRuntimeFakeDriverTests",
                      "gtest:TileRuntimeFakeNoDeviceTests"]),
    ("tools/tile-compile/", ["lit:Tools"]),
]

# ctest entries that never fail by design (fresh-seed report runs).
SKIP_CTEST = re.compile(r"FreshSeed")

CMAKE_ARGS = [
    "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
    "-DCMAKE_C_COMPILER=%s/bin/clang" % LLVM_DIR,
    "-DCMAKE_CXX_COMPILER=%s/bin/clang++" % LLVM_DIR,
    "-DLLVM_USE_LINKER=lld",
    "-DMLIR_DIR=%s/lib/cmake/mlir" % LLVM_DIR,
    "-DLLVM_EXTERNAL_LIT=%s" % LIT,
    "-DPython3_EXECUTABLE=/usr/bin/python3",
    # Benchmarks are not part of `make test`.
    "-DTILE_ENABLE_BENCHMARKS=OFF",
]


class PatternError(Exception):
    """A mutant whose anchor does not resolve: the message says what to
    change in the catalog."""


def load_mutants():
    import mutants
    return mutants.MUTANTS


def log(msg):
    print(msg, flush=True)


def sh(cmd, cwd=None, timeout=None, env=None):
    """Runs cmd; returns (returncode, output). Timeout gives rc None."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return None, out


def git(args, cwd=SRC, check=True):
    p = subprocess.run(["git"] + args, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        raise SystemExit("git %s failed: %s" % (" ".join(args), p.stderr))
    return p.stdout


#===------------------------------------------------------------------------===#
# C++ definitions: where a mutant's function is
#===------------------------------------------------------------------------===#
#
# A mutant names the definition that holds its pattern (`function`): a
# function, a method (`Class::method` where the plain name is not unique in
# the library), or for a pattern at namespace or class scope the variable,
# struct or enum it sits in. The scanner below finds those definitions in a
# file without a compiler: it blanks comments, literals and preprocessor
# lines, matches brackets, and classifies each brace block at namespace or
# class scope by the declaration that opens it. Function bodies are not
# looked into (a lambda belongs to the function around it).

SOURCE_SUFFIXES = (".cpp", ".h")


def blank_cpp(text):
    """text with its comments, string and character literals and
    preprocessor lines turned into spaces (newlines kept), so that offsets
    are the same as in text."""
    out = list(text)
    n = len(text)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":
            j = i
            while True:
                j = text.find("\n", j)
                if j < 0:
                    j = n
                    break
                if text[j - 1] != "\\":
                    break
                j += 1
            wipe(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
            continue
        if c == '"' and re.search(r"(?:^|[^A-Za-z0-9_])(?:u8|u|U|L)?R$",
                                  text[max(0, i - 4):i]):
            m = re.match(r'"([^()\\\s]{0,16})\(', text[i:])
            if m:
                j = text.find(")" + m.group(1) + '"', i)
                j = n if j < 0 else j + len(m.group(1)) + 2
                wipe(i, j)
                i = j
                continue
        if c == "'":
            # A digit separator (1'000) is no character literal.
            k = i
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_'."):
                k -= 1
            if k < i and text[k].isdigit():
                i += 1
                continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            wipe(i, j)
            i = j
            continue
        i += 1
    return "".join(out)


_CPP_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_.']*|::|->|\.\.\.|==|!=|<=|>=|"
    r"&&|\|\||<<=|>>=|<<|>>|[-+*/%&|^]=|[^\sA-Za-z0-9_]")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}
# Identifiers before a parenthesis that are not a function's name.
_NOT_A_NAME = {"decltype", "alignas", "alignof", "sizeof", "noexcept",
               "throw", "requires", "static_assert", "__attribute__",
               "__declspec", "if", "for", "while", "switch", "return",
               "template", "operator"}
# What may follow a function's parameter list before its body.
_FUNCTION_SUFFIX = {"const", "volatile", "&", "&&", "override", "final",
                    "mutable", "constexpr", "try"}


class Definition:
    """A definition at namespace or class scope: kind is function, class,
    enum or variable; path its qualified name (namespaces, classes, the
    qualifiers it is written with, its name); [start, end) its text (the
    declaration through its closing brace or semicolon)."""

    def __init__(self, kind, path, start, end):
        self.kind, self.path, self.start, self.end = kind, path, start, end

    @property
    def name(self):
        return "::".join(p for p in self.path if p)

    def __repr__(self):
        return "Definition(%s %s [%d, %d))" % (self.kind, self.name,
                                               self.start, self.end)


def _ident(tok):
    return bool(re.match(r"[A-Za-z_]", tok))


def _groups(toks):
    """Bracket depth of each token of a declaration (brackets only)."""
    depth, out = 0, []
    for t in toks:
        if t in _CLOSE:
            depth -= 1
        out.append(depth)
        if t in _OPEN:
            depth += 1
    return out


def _strip_prefix(toks):
    """Drops template headers and [[attributes]] from a declaration."""
    while toks:
        if toks[0] == "template" and len(toks) > 1 and toks[1] == "<":
            depth, k = 0, 1
            while k < len(toks):
                t = toks[k]
                if t == "<":
                    depth += 1
                elif t in (">", ">>"):
                    depth -= len(t)
                    if depth <= 0:
                        break
                k += 1
            toks = toks[k + 1:]
        elif toks[0] == "[" and len(toks) > 1 and toks[1] == "[":
            k = 2
            while k < len(toks) and toks[k] != "]":
                k += 1
            toks = toks[k + 2:]
        else:
            return toks
    return toks


def _qualifiers(toks, k):
    """The qualifiers written before the name at toks[k] (A<T>::B::name)."""
    quals = []
    while k >= 2 and toks[k - 1] == "::":
        j = k - 2
        if toks[j] == ">":
            depth = 0
            while j >= 0:
                if toks[j] in (">", ">>"):
                    depth += len(toks[j])
                elif toks[j] == "<":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            j -= 1
        if j < 0 or not _ident(toks[j]):
            break
        quals.insert(0, toks[j])
        k = j
    return quals


def _macro(tok):
    return bool(re.match(r"[A-Z_][A-Z0-9_]*$", tok))


def _function_name(toks, depth):
    """(qualifiers, name) when toks declare a function, else None: the
    first top-level parameter list after a name that only qualifiers
    (const, noexcept(...), override, macros), a trailing return type or a
    requires clause follow."""
    for k, t in enumerate(toks):
        if t != "(" or depth[k] != 0 or k == 0:
            continue
        if "operator" in toks[:k]:
            j = toks.index("operator")
            if k == j + 1 and toks[k + 1:k + 2] == [")"]:
                continue  # operator()(...): the first group is the name
            spelled = toks[j + 1:k]
            name = "operator" + (" " + " ".join(spelled) if _ident(
                spelled[0]) else "".join(spelled))
        else:
            j = k - 1
            if not _ident(toks[j]) or toks[j] in _NOT_A_NAME:
                continue
            name = toks[j]
            if j >= 1 and toks[j - 1] == "~":
                name, j = "~" + name, j - 1
        end = k + 1
        while not (toks[end] == ")" and depth[end] == 0):
            end += 1
        ok, group_allowed = True, False
        for x, d in zip(toks[end + 1:], depth[end + 1:]):
            if x in ("->", "requires"):
                break
            if d > 0:
                continue
            if x == "(":
                ok = group_allowed
            elif x == ")":
                group_allowed = False
            elif x in _FUNCTION_SUFFIX or x in ("noexcept", "throw") or \
                    _macro(x):
                group_allowed = x in ("noexcept", "throw") or _macro(x)
            else:
                ok = False
            if not ok:
                break
        if ok:
            return _qualifiers(toks, j), name
    return None


def _classify(toks):
    """(kind, qualifiers, name) of the declaration toks that a '{' ends."""
    toks = _strip_prefix(toks)
    while toks and toks[0] in ("public", "private", "protected") and \
            toks[1:2] == [":"]:
        toks = toks[2:]
    if not toks:
        return None, [], None
    depth = _groups(toks)
    top = [t for t, d in zip(toks, depth) if d == 0]
    if "namespace" in top:
        k = toks.index("namespace")
        name = "".join(toks[k + 1:])
        return "scope", [], name or None
    if top[-1] == "extern":
        return "scope", [], None
    if "enum" in top:
        cut = toks.index(":") if ":" in toks else len(toks)
        names = [t for t in toks[toks.index("enum") + 1:cut]
                 if _ident(t) and t not in ("class", "struct")]
        return "enum", [], names[-1] if names else None
    # A constructor's member initializers: `) : a(x), b{y} {`.
    for k, t in enumerate(toks):
        if t == ":" and depth[k] == 0 and k > 0 and \
                (toks[k - 1] == ")" or toks[k - 1] in _FUNCTION_SUFFIX or
                 toks[k - 1] == "noexcept"):
            if _ident(toks[-1]) or toks[-1] == ">":
                return "init-brace", [], None
            toks, depth = toks[:k], depth[:k]
            top = [x for x, d in zip(toks, depth) if d == 0]
            break
    if "=" in top and "operator" not in top:
        k = [i for i, (t, d) in enumerate(zip(toks, depth))
             if t == "=" and d == 0][0]
        name = _name_before(toks, depth, k)
        return ("variable", _qualifiers(toks, _index_before(toks, depth, k)),
                name) if name else (None, [], None)
    f = _function_name(toks, depth)
    if f:
        return "function", f[0], f[1]
    for kw in ("class", "struct", "union"):
        if kw in top:
            k = toks.index(kw)
            cut = len(toks)
            for j in range(k + 1, len(toks)):
                if toks[j] in (":", "<") and depth[j] == 0:
                    cut = j
                    break
            names = [t for t, d in zip(toks[k + 1:cut], depth[k + 1:cut])
                     if d == 0 and _ident(t) and t != "final" and
                     not _macro(t)]
            if not names:
                names = [t for t in toks[k + 1:cut] if _ident(t)]
            return "class", [], names[-1] if names else None
    name = _name_before(toks, depth, len(toks))
    if name:
        return "variable", _qualifiers(toks, _index_before(
            toks, depth, len(toks))), name
    return None, [], None


def _index_before(toks, depth, k):
    """The index of the declarator's name before toks[k], skipping
    array bounds."""
    j = k - 1
    while j >= 0 and toks[j] == "]":
        d = depth[j]
        j -= 1
        while j >= 0 and not (toks[j] == "[" and depth[j] == d):
            j -= 1
        j -= 1
    return j


def _name_before(toks, depth, k):
    j = _index_before(toks, depth, k)
    if j >= 0 and _ident(toks[j]) and toks[j] not in _NOT_A_NAME and \
            toks[j] not in _FUNCTION_SUFFIX and toks[j] != "noexcept":
        return toks[j]
    return None


_definitions_cache = {}


def cpp_definitions(text):
    """The definitions of a C++ file (Definition), outer ones before the
    ones they hold."""
    key = hash(text)
    hit = _definitions_cache.get(key)
    if hit is not None and hit[0] == text:
        return hit[1]
    blank = blank_cpp(text)
    found = [(m.group(), m.start(), m.end())
             for m in _CPP_TOKEN.finditer(blank)]
    toks = [t for t, _, _ in found]
    match = {}
    stack = []
    for k, t in enumerate(toks):
        if t in _OPEN:
            stack.append(k)
        elif t in _CLOSE:
            opener = _CLOSE[t]
            for s in range(len(stack) - 1, -1, -1):
                if toks[stack[s]] == opener:
                    match[stack[s]] = k
                    del stack[s:]
                    break
    out = []

    def next_semicolon(k, end):
        while k < end and toks[k] != ";":
            k = match.get(k, k) + 1 if toks[k] in _OPEN else k + 1
        return k

    def scan(i, end, scope):
        start = i
        while i < end:
            t = toks[i]
            if t == ";":
                decl = _strip_prefix(toks[start:i])
                if decl and decl[0] not in ("using", "typedef", "namespace",
                                            "static_assert", "friend"):
                    depth = _groups(decl)
                    eq = [k for k, (x, d) in enumerate(zip(decl, depth))
                          if x == "=" and d == 0]
                    if eq and "operator" not in decl:
                        name = _name_before(decl, depth, eq[0])
                        if name:
                            out.append(Definition(
                                "variable", scope + _qualifiers(
                                    decl, _index_before(decl, depth, eq[0]))
                                + [name], found[start][1], found[i][2]))
                i += 1
                start = i
                continue
            if t in ("(", "["):
                i = match.get(i, i) + 1
                continue
            if t == ":" and i == start + 1 and \
                    toks[start] in ("public", "private", "protected"):
                i += 1
                start = i
                continue
            if t != "{":
                i += 1
                continue
            close = match.get(i)
            if close is None or close > end:
                return
            kind, quals, name = _classify(toks[start:i])
            if kind == "init-brace":
                i = close + 1
                continue
            if kind == "scope":
                scan(i + 1, close, scope + (name.split("::") if name
                                            else []))
                i = start = close + 1
                continue
            if kind == "function":
                out.append(Definition("function", scope + quals + [name],
                                      found[start][1], found[close][2]))
                i = start = close + 1
                continue
            if kind == "class":
                j = next_semicolon(close + 1, end)
                if not name and j > close + 1 and _ident(toks[j - 1]):
                    name = toks[j - 1]  # typedef struct { ... } Name;
                d = Definition("class", scope + quals + [name],
                               found[start][1], found[close][2])
                out.append(d)
                scan(i + 1, close, scope + quals + [name])
                if j < end:
                    d.end = found[j][2]
                i = start = j + 1
                continue
            if kind in ("enum", "variable") and name:
                j = next_semicolon(close + 1, end)
                out.append(Definition(kind, scope + quals + [name],
                                      found[start][1],
                                      found[min(j, end - 1)][2]))
                i = start = j + 1
                continue
            i = start = close + 1

    scan(0, len(toks), [])
    out.sort(key=lambda d: (d.start, -d.end))
    _definitions_cache[key] = (text, out)
    return out


def enclosing_definition(text, offset):
    """The innermost definition of text that holds offset, or None."""
    best = None
    for d in cpp_definitions(text):
        if d.start <= offset < d.end and \
                (best is None or d.end - d.start <= best.end - best.start):
            best = d
    return best


def definition_matches(d, function):
    want = [p for p in function.split("::") if p]
    have = [p for p in d.path if p]
    return have[-len(want):] == want


#===------------------------------------------------------------------------===#
# Patterns: exact text, whitespace aside
#===------------------------------------------------------------------------===#

_PATTERN_TOKEN = re.compile(
    r"(?P<ws>\s+)|(?P<comment>//[^\n]*|/\*.*?(?:\*/|$))|"
    r"(?P<string>\"(?:\\.|[^\"\\\n])*(?:\"|$)|'(?:\\.|[^'\\\n])*(?:'|$))|"
    r"(?P<word>[A-Za-z0-9_]+)|"
    r"(?P<punct>::|->\*?|\.\.\.|\.\*|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||"
    r"\+\+|--|[-+*/%&|^]=|##|.)", re.S)


def pattern_regex(pattern, lead=True, trail=True):
    """A regex for pattern that ignores layout: a run of whitespace matches
    any run (newlines included), and whitespace may appear or disappear
    next to punctuation (after '(', before ')', around ',' and operators),
    never inside a token: `a b` does not match `ab`, nor `- >` '->'; a
    line comment may be reflowed onto several '//' lines. The
    pattern's leading and trailing whitespace match only on its line, and
    only with lead and trail (else the match leaves them out)."""
    toks = [(m.lastgroup, m.group()) for m in _PATTERN_TOKEN.finditer(
        pattern)]
    head = toks[0][1] if toks and toks[0][0] == "ws" else ""
    tail = toks[-1][1] if len(toks) > 1 and toks[-1][0] == "ws" else ""
    toks = toks[1 if head else 0:len(toks) - (1 if tail else 0)]
    parts = [r"[ \t]*"] if head and lead else []
    prev, spaced = None, False
    for kind, tok in toks:
        if kind == "ws":
            spaced = True
            continue
        if prev is not None:
            glued = prev in ("word", "string") and kind in ("word", "string")
            parts.append((r"\s+" if spaced else "") if glued else r"\s*")
        if kind == "comment":
            # A reflowed line comment continues after a new '//'.
            sep = r"\s+(?://\s*)?" if tok.startswith("//") else r"\s+"
            parts.append(sep.join(re.escape(w) for w in tok.split()))
        else:
            parts.append(re.escape(tok))
        prev, spaced = kind, False
    if tail and trail:
        parts.append(r"[ \t]*\n?" if "\n" in tail else r"[ \t]*")
    return re.compile("".join(parts))


def planting(m):
    """(regex, text): what m's pattern matches and what replaces the match.
    Leading or trailing whitespace that the pattern and its replacement
    share stays the source's own (so the planted line keeps its
    indentation); whitespace only the pattern has is replaced with it."""
    pattern, replacement = m["pattern"], m["replacement"]
    head = pattern[:len(pattern) - len(pattern.lstrip())]
    tail = pattern[len(pattern.rstrip()):]
    if pattern.strip() == "":
        return re.compile(re.escape(pattern)), replacement
    lead = not (head and replacement.startswith(head))
    trail = not (tail and replacement.endswith(tail) and
                 len(replacement) >= len(head) + len(tail))
    if not lead:
        replacement = replacement[len(head):]
    if not trail:
        replacement = replacement[:len(replacement) - len(tail)]
    return pattern_regex(pattern, lead, trail), replacement


#===------------------------------------------------------------------------===#
# The list
#===------------------------------------------------------------------------===#

def library_folders(m):
    return m.get("library") or [os.path.dirname(m["file"])]


def library_files(root, folders):
    """The .cpp/.h files of a library's folders, relative to root."""
    files = []
    for folder in folders:
        base = os.path.join(root, folder)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(SOURCE_SUFFIXES):
                    files.append(os.path.relpath(os.path.join(dirpath, f),
                                                 root))
    return files


def _read(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read()


def _line(text, offset):
    return text.count("\n", 0, offset) + 1


def _where(rel, text, d):
    return "%s:%d-%d" % (rel, _line(text, d.start), _line(text, d.end))


def _occurrences(root, rel, regex, function):
    """(definitions named function in rel, [(start, end, definition)] of
    the pattern inside them)."""
    text = _read(root, rel)
    defs = [d for d in cpp_definitions(text)
            if definition_matches(d, function)]
    # A definition inside another that also matches (a class and its
    # constructor) is searched as part of the outer one.
    outer = [d for d in defs if not any(
        o is not d and o.start <= d.start and d.end <= o.end
        for o in defs)]
    hits = []
    for d in outer:
        for mo in regex.finditer(text, d.start, d.end):
            hits.append((mo.start(), mo.end(), d))
    return text, outer, hits


def _stale(m, what, todo):
    """The message of a mutant whose anchor does not resolve."""
    return ("%s (%s): %s\n    file %s, function %s, pattern %r\n"
            "    to do: %s" % (m.get("id", "?"),
                              m.get("module", "scripts/mutants"), what,
                              m.get("file"), m.get("function"),
                              m.get("pattern"), todo))


def _pattern_spots(root, files, regex, skip=()):
    """Where the pattern occurs in files, outside the definitions in skip:
    ["name at file:line"]."""
    spots = []
    for rel in files:
        text = _read(root, rel)
        for mo in regex.finditer(text):
            d = enclosing_definition(text, mo.start())
            if not any(rel == r and d is x for r, x in skip):
                spots.append("%s at %s:%d" % (
                    d.name if d else "namespace scope", rel,
                    _line(text, mo.start())))
    return spots


def _defined_elsewhere(root, function, folders):
    """The files of lib/, include/ and tools/ outside folders that define
    function."""
    found = []
    for rel in library_files(root, ["lib", "include", "tools"]):
        if any(rel.startswith(f + "/") for f in folders):
            continue
        text = _read(root, rel)
        if function.split("::")[-1] in text and any(
                definition_matches(d, function)
                for d in cpp_definitions(text)):
            found.append(rel)
    return found


def resolve(m, root=SRC, notes=None):
    """(file, start, end): where m's pattern is, in its function.

    The function is looked up by name in the hinted file first, then in
    every other .cpp/.h file of the library's folders (a function moved to
    another file of its library still resolves; notes, when given, gets a
    line saying so). The pattern must match exactly once inside it, layout
    aside (pattern_regex). Otherwise raises PatternError naming the mutant,
    the function, where it looked, and what to change."""
    regex = planting(m)[0]
    folders = library_folders(m)
    hint, function = m["file"], m.get("function")
    files = library_files(root, folders)
    hinted = [hint] if os.path.isfile(os.path.join(root, hint)) else []
    others = [f for f in files if f != hint]
    if not function:
        spots = _pattern_spots(root, hinted + others, regex)
        raise PatternError(_stale(
            m, "no function= anchor",
            "add function= naming the definition that holds the pattern" +
            (" (%s)" % spots[0] if len(spots) == 1 else "")))
    defs = []
    for stage in (hinted, others):
        hits = []
        for rel in stage:
            text, outer, found = _occurrences(root, rel, regex, function)
            defs += [(rel, text, d) for d in outer]
            hits += [(rel, text, start, end) for start, end, _ in found]
        if len(hits) == 1:
            rel, text, start, end = hits[0]
            if notes is not None and rel != hint:
                notes.append("%s: function %s is now in %s (the entry's "
                             "file says %s)" % (m["id"], function, rel,
                                                hint))
            return rel, start, end
        if hits:
            raise PatternError(_stale(
                m, "the pattern is ambiguous: it matches %d times in "
                "function %s (%s)" % (len(hits), function, ", ".join(
                    "%s:%d" % (rel, _line(text, start))
                    for rel, text, start, _ in hits)),
                "lengthen the pattern (and its replacement) until it "
                "matches once in the function"))
    if not defs:
        elsewhere = _defined_elsewhere(root, function, folders)
        spots = _pattern_spots(root, hinted + others, regex)
        if elsewhere:
            todo = ("the function moved to another library (it is defined "
                    "in %s): move the entry to that library's module under "
                    "scripts/mutants/ (a new one if it has none)" %
                    ", ".join(elsewhere))
        elif len(spots) == 1:
            todo = ("the function was renamed or the code moved: the "
                    "pattern now matches in %s; update function= and "
                    "file=" % spots[0])
        else:
            todo = ("the function was renamed or deleted: point the entry "
                    "at the code it mutates now, or delete it")
        raise PatternError(_stale(
            m, "function %s not found in %s nor in any other %s file of %s"
            % (function, hint, "/".join(SOURCE_SUFFIXES), ", ".join(folders)),
            todo))
    spots = _pattern_spots(root, hinted + others, regex,
                           skip=[(rel, d) for rel, _, d in defs])
    if len(spots) == 1:
        todo = ("the code moved to another function: the pattern now "
                "matches in %s; update function= and file=" % spots[0])
    else:
        todo = ("the text changed: update the pattern and its replacement "
                "to the function's code, or delete the entry if that code "
                "is gone")
    raise PatternError(_stale(
        m, "the pattern does not match in function %s (%s)" % (
            function, ", ".join(_where(rel, text, d)
                                for rel, text, d in defs)), todo))


def _entry_problems(m, root, notes, seen):
    mid = m.get("id", "?")
    problems = ["%s: missing '%s'" % (mid, key)
                for key in ("id", "file", "pattern", "why") if not m.get(key)]
    if not isinstance(m.get("replacement"), str):
        problems.append("%s: missing 'replacement'" % mid)
    if mid in seen:
        problems.append("%s: duplicate id" % mid)
    seen.add(mid)
    if m.get("pattern") == m.get("replacement"):
        problems.append("%s: replacement equals the pattern" % mid)
    if problems:
        return problems
    folders = library_folders(m)
    if not any(m["file"].startswith(f + "/") for f in folders):
        return ["%s (%s): file %s is outside its library's folders (%s)" % (
            mid, m.get("module", "?"), m["file"], ", ".join(folders))]
    try:
        resolve(m, root, notes)
    except PatternError as e:
        return [str(e)]
    return []


def check_list(mutants, root=SRC, notes=None, stale=None):
    """Every mutant is well formed and its pattern occurs exactly once in
    its function (resolve). Returns the problems, one message each; stale,
    when given, gets the ids of the mutants they are about."""
    problems = []
    seen = set()
    for m in mutants:
        found = _entry_problems(m, root, notes, seen)
        problems += found
        if found and stale is not None:
            stale.add(m.get("id", "?"))
    return problems


class Planted:
    """What apply_mutant changed: the file (relative to the tree) and its
    text before."""

    def __init__(self, path, text):
        self.path, self.text = path, text


def apply_mutant(m, root):
    path, start, end = resolve(m, root)
    with open(os.path.join(root, path)) as f:
        original = f.read()
    with open(os.path.join(root, path), "w") as f:
        f.write(original[:start] + planting(m)[1] + original[end:])
    return Planted(path, original)


def restore(m, root, original):
    if isinstance(original, Planted):
        path, text = original.path, original.text
    else:
        path, text = m["file"], original
    with open(os.path.join(root, path), "w") as f:
        f.write(text)


#===------------------------------------------------------------------------===#
# Scratch worktree and build
#===------------------------------------------------------------------------===#

def prepare_scratch(scratch, jobs):
    """Creates or resets the scratch worktree to HEAD plus the working tree's
    uncommitted changes, and configures its build."""
    src = os.path.join(scratch, "src")
    head = git(["rev-parse", "HEAD"]).strip()
    git(["worktree", "prune"])
    if not os.path.isdir(os.path.join(src, ".git")) and \
            not os.path.isfile(os.path.join(src, ".git")):
        os.makedirs(scratch, exist_ok=True)
        if os.path.exists(src):
            shutil.rmtree(src)
        git(["worktree", "add", "--detach", src, head])
    else:
        git(["checkout", "--detach", "-f", "-q", head], cwd=src)
        git(["reset", "--hard", "-q", head], cwd=src)
        git(["clean", "-fdq"], cwd=src)
    # Uncommitted changes of the source tree (tracked and new files).
    diff = git(["diff", "HEAD", "--binary"])
    if diff.strip():
        p = subprocess.run(["git", "apply", "--whitespace=nowarn"], cwd=src,
                           input=diff, text=True, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit("cannot apply the working tree's changes to the "
                             "scratch tree: " + p.stderr)
    for rel in git(["ls-files", "--others", "--exclude-standard"]).split(
            "\n"):
        if rel and not rel.startswith("build"):
            dst = os.path.join(src, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(SRC, rel), dst)
    build = os.path.join(src, "build")
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        rc, out = sh(["cmake", "-S", src, "-B", build] + CMAKE_ARGS)
        if rc != 0:
            raise SystemExit("configuring the scratch build failed:\n" + out)
    return src, build


def ninja(build, targets, jobs, timeout):
    return sh(["ninja", "-C", build, "-j", str(jobs)] + targets,
              timeout=timeout)


#===------------------------------------------------------------------------===#
# Test units
#===------------------------------------------------------------------------===#

class Suites:
    """The test units of `make test` in the scratch build."""

    def __init__(self, src, build, jobs):
        self.src, self.build, self.jobs = src, build, jobs
        self.lit_tests = sorted(self._find_lit_tests())
        self.ctests = self._find_ctests()

    def _find_lit_tests(self):
        root = os.path.join(self.src, "test")
        for dirpath, dirnames, filenames in os.walk(root):
            rel = os.path.relpath(dirpath, root)
            if rel.split(os.sep)[0] in ("GPU",) or "Inputs" in rel.split(
                    os.sep):
                continue
            for f in filenames:
                if f.endswith((".mlir", ".test")):
                    yield os.path.normpath(os.path.join(rel, f))

    def _find_ctests(self):
        rc, out = sh(["ctest", "--test-dir", self.build,
                      "--show-only=json-v1"])
        if rc != 0:
            raise SystemExit("ctest --show-only failed:\n" + out)
        tests = {}
        for t in json.loads(out[out.index("{"):])["tests"]:
            if SKIP_CTEST.search(t["name"]):
                continue
            props = {p["name"]: p["value"] for p in t.get("properties", [])}
            # Not built yet (--no-baseline): ctest lists no command; the
            # target is the test's name and the binary is found once built.
            tests[t["name"]] = (t.get("command"),
                                props.get("WORKING_DIRECTORY"))
        return tests

    def all_units(self):
        units = ["lit:" + t for t in self.lit_tests]
        units += ["gtest:" + n for n in self.ctests]
        if os.path.isdir(os.path.join(self.src, "python", "tests")):
            units.append("pytest:")
        return units

    def expand(self, unit):
        """A folder unit as its lit files; unknown units dropped."""
        kind, _, name = unit.partition(":")
        if kind == "lit":
            name = name.rstrip("/")
            return ["lit:" + t for t in self.lit_tests
                    if t == name or t.startswith(name + "/")]
        if kind == "gtest":
            return [unit] if name in self.ctests else []
        return [unit]

    def targets(self, unit):
        kind, _, name = unit.partition(":")
        if kind == "lit":
            # The tools' tests run every tool lit.cfg.py names: without one
            # a test fails for every mutant, which then counts as killed.
            if name.startswith("Tools/") or name.startswith("Pipeline/"):
                return ["tile-opt", "tile-compile", "tile_runtime",
                        "tile-lsp-server", "TilePlugin"]
            if name == "docs-up-to-date.test":
                return ["tile-opt", "mlir-doc", "tile-rules-md"]
            # The C API's test programs link TileCAPI; without them every
            # mutant would count as killed.
            if name.startswith("CAPI/"):
                return ["tile-opt", "tile-capi-test", "tile-capi-maps"]
            return ["tile-opt"]
        if kind == "gtest":
            cmd = self.ctests[name][0]
            target = os.path.basename(cmd[0]) if cmd else name
            deps = [target]
            if target.startswith("TileRuntimeFake"):
                deps += ["tile_fake_cuda", "tile_fake_cuda_no_device"]
            return deps
        return ["all"]

    def run_lit(self, tests, timeout):
        paths = [os.path.join(self.build, "test", t) for t in tests]
        rc, out = sh([LIT, "-q", "--max-failures=1", "-j", str(self.jobs)] +
                     paths, timeout=timeout)
        if rc is None:
            return "timeout", out
        if rc == 0:
            return None, out
        m = re.search(r"^(?:FAIL|UNRESOLVED|TIMEOUT|XPASS): TILE :: (\S+)",
                      out, re.MULTILINE)
        return ("lit:" + m.group(1)) if m else "lit:?", out

    def run_gtest(self, name, timeout):
        cmd, cwd = self.ctests[name]
        if not cmd:
            found = glob.glob(os.path.join(self.build, "unittests", "*", name))
            if not found:
                return "gtest:%s:(not built)" % name, ""
            cmd = [found[0]]
        rc, out = sh(cmd + ["--gtest_brief=1", "--gtest_fail_fast"],
                     cwd=cwd, timeout=timeout)
        if rc is None:
            return "timeout", out
        if rc == 0:
            return None, out
        m = re.search(r"^\[  FAILED  \] ([^\s,]+)", out, re.MULTILINE)
        return "gtest:%s:%s" % (name, m.group(1) if m else
                                "(exit %d)" % rc), out

    def run_pytest(self, timeout):
        env = dict(os.environ)
        env["TILE_BUILD_DIR"] = self.build
        rc, out = sh([sys.executable, "-m", "pytest", "-q", "-x",
                      os.path.join(self.src, "python", "tests")],
                     timeout=timeout, env=env)
        if rc is None:
            return "timeout", out
        if rc in (0, 5):
            return None, out
        # An interpreter without pytest says nothing about the mutant.
        if "No module named pytest" in out:
            raise SystemExit("mutation: %s has no pytest; run the tool with "
                             "an interpreter that has it (make mutation "
                             "does)" % sys.executable)
        m = re.search(r"^FAILED (\S+)", out, re.MULTILINE)
        return "pytest:" + (m.group(1) if m else "?"), out


def unit_of(test):
    """The unit to rerun for a recorded killing test."""
    if not test:
        return None
    kind, _, rest = test.partition(":")
    if kind == "gtest":
        return "gtest:" + rest.split(":")[0]
    if kind in ("lit", "pytest"):
        return kind + ":" + (rest if kind == "lit" else "")
    return None


def related_units(path):
    best = []
    best_len = -1
    for prefix, units in RELATED:
        if path.startswith(prefix) and len(prefix) > best_len:
            best, best_len = units, len(prefix)
    return best


def ordered_units(m, suites, previous):
    order = []
    hints = []
    prev = previous.get(m["id"], {})
    if prev.get("status") == "killed":
        hints.append(unit_of(prev.get("test")))
    hints += m.get("tests", [])
    hints += related_units(m["file"])
    for h in hints:
        if not h:
            continue
        for u in suites.expand(h):
            if u not in order:
                order.append(u)
    for u in suites.all_units():
        if u not in order:
            order.append(u)
    return order


def run_mutant(m, suites, args):
    """Plants m, builds and tests lazily; returns the result record."""
    start = time.time()
    original = apply_mutant(m, suites.src)
    result = {"status": "survived", "test": None}
    try:
        units = ordered_units(m, suites, args.previous)
        built = set()
        i = 0
        while i < len(units):
            unit = units[i]
            kind = unit.partition(":")[0]
            # Consecutive lit files after the prioritized ones run as one
            # lit invocation.
            batch = [unit]
            if kind == "lit":
                j = i + 1
                while j < len(units) and units[j].startswith("lit:") and \
                        units[j] not in args.priority_cache:
                    batch.append(units[j])
                    j += 1
                if unit in args.priority_cache:
                    batch = [unit]
            targets = []
            for u in batch:
                for t in suites.targets(u):
                    if t not in built and t not in targets:
                        targets.append(t)
            if targets:
                rc, out = ninja(suites.build, targets, args.jobs,
                                args.build_timeout)
                if rc != 0:
                    errors = [l for l in out.splitlines()
                              if "error" in l][:3]
                    result = {"status": "build-error",
                              "test": None,
                              "detail": " | ".join(errors) or
                              ("build timed out" if rc is None else
                               out[-300:])}
                    break
                built.update(targets)
            if kind == "lit":
                failed, out = suites.run_lit([u[4:] for u in batch],
                                             args.test_timeout)
            elif kind == "gtest":
                failed, out = suites.run_gtest(unit[6:], args.test_timeout)
            else:
                failed, out = suites.run_pytest(args.test_timeout)
            if failed:
                if failed == "timeout":
                    failed = "timeout:" + unit
                result = {"status": "killed", "test": failed}
                break
            i += len(batch)
    finally:
        restore(m, suites.src, original)
    result["seconds"] = round(time.time() - start, 1)
    return result


#===------------------------------------------------------------------------===#
# Reporting
#===------------------------------------------------------------------------===#

def summarize(mutants, results):
    counts = {"killed": 0, "survived": 0, "build-error": 0, "equivalent": 0}
    for m in mutants:
        r = results.get(m["id"])
        if r:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
    scored = counts["killed"] + counts["survived"]
    score = counts["killed"] / scored if scored else 0.0
    return counts, scored, score


def write_results(path, meta, results):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1,
                  sort_keys=True)
    os.replace(tmp, path)


def area_of(m):
    """The report's area of a mutant: its library's first folder, cut to
    lib/<name> (the TileToNVVM and KernelABI conversions both count as
    lib/Conversion)."""
    parts = library_folders(m)[0].split("/")
    return "/".join(parts[:2]) if parts[0] in ("lib", "tools") else parts[0]


def markdown_report(mutants, results, meta):
    """The score table and survivor list of docs/testing.md."""
    lines = []
    lines.append("Measured %s on %s (commit %s%s): `%s`." % (
        meta.get("date", "?"), meta.get("machine", "?"),
        meta.get("commit", "?")[:10], ", with uncommitted changes"
        if meta.get("dirty") else "", meta.get("command", "?")))
    lines.append("")
    lines.append("| area | mutants | run | killed | survived | build-error |"
                 " equivalent | score |")
    lines.append("|---|---|---|---|---|---|---|---|")
    areas = []
    for m in mutants:
        a = area_of(m)
        if a not in areas:
            areas.append(a)
    rows = areas + ["all"]
    for a in rows:
        ms = [m for m in mutants if a == "all" or area_of(m) == a]
        ran = [m for m in ms if m["id"] in results]
        c, scored, score = summarize(ran, results)
        lines.append("| %s | %d | %d | %d | %d | %d | %d | %s |" % (
            "**all**" if a == "all" else "`%s`" % a, len(ms), len(ran),
            c["killed"], c["survived"], c["build-error"], c["equivalent"],
            "%.0f%%" % (100 * score) if scored else "-"))
    lines.append("")
    lines.append("Survivors:")
    lines.append("")
    for m in mutants:
        r = results.get(m["id"])
        if r and r["status"] == "survived":
            lines.append("- `%s` (%s): %s" % (m["id"], m["file"], m["why"]))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--check", action="store_true",
                   help="verify every pattern matches exactly once in its "
                        "function; no build")
    p.add_argument("--list", action="store_true", help="list the mutants")
    p.add_argument("--report", action="store_true",
                   help="print the results as the markdown table of "
                        "docs/testing.md; no build")
    p.add_argument("--only", nargs="+", metavar="ID", help="run these ids")
    p.add_argument("--sample", type=int, metavar="N",
                   help="run N mutants picked at random")
    p.add_argument("--seed", type=int, default=0, help="seed for --sample")
    p.add_argument("--resume", action="store_true",
                   help="skip mutants that already have a result")
    p.add_argument("--scratch", default=os.path.join(SRC, "build-mutation"),
                   help="scratch folder (worktree in SCRATCH/src, build in "
                        "SCRATCH/src/build)")
    p.add_argument("--results", help="results JSON (default "
                   "SCRATCH/results.json)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--build-timeout", type=int, default=900,
                   help="seconds per rebuild")
    p.add_argument("--test-timeout", type=int, default=300,
                   help="seconds per test command (a timeout kills)")
    p.add_argument("--no-baseline", action="store_true",
                   help="skip building the unmutated tree first (a broken "
                        "tree then shows as build errors)")
    p.add_argument("--max-minutes", type=float, default=0,
                   help="stop starting new mutants after this long")
    args = p.parse_args()

    mutants = load_mutants()
    if args.list:
        for m in mutants:
            eq = "  [equivalent: %s]" % m["equivalent"] \
                if m.get("equivalent") else ""
            log("%-24s %-48s %-32s %s%s" % (m["id"], m["file"],
                                             m.get("function"), m["why"],
                                             eq))
        log("%d mutants" % len(mutants))
        return 0

    if args.report:
        path = args.results or os.path.join(os.path.abspath(args.scratch),
                                            "results.json")
        with open(path) as f:
            data = json.load(f)
        log(markdown_report(mutants, data.get("results", {}),
                            data.get("meta", {})))
        return 0

    selected = mutants
    if args.only:
        ids = {m["id"] for m in mutants}
        unknown = [i for i in args.only if i not in ids]
        if unknown:
            log("unknown mutant id(s): " + " ".join(unknown))
            return 2
        selected = [m for m in mutants if m["id"] in args.only]
    if args.sample:
        rng = random.Random(args.seed)
        pool = [m for m in selected if not m.get("equivalent")]
        selected = rng.sample(pool, min(args.sample, len(pool)))

    # --check (the gate of make test) fails on any stale entry; a run fails
    # on a stale entry it would plant and only reports the others.
    notes, stale = [], set()
    problems = check_list(mutants, notes=notes, stale=stale)
    for note in notes:
        log("note: " + note)
    for pr in problems:
        log("STALE: " + pr)
    blocking = [m["id"] for m in selected if m["id"] in stale]
    if problems and (args.check or blocking):
        log("mutant list check: %d problem(s) in %d mutants; the catalog is "
            "scripts/mutants/ (one module per library, the format in its "
            "__init__.py)" % (len(problems), len(mutants)))
        return 1
    if args.check:
        log("mutant list check: %d mutants, every pattern matches exactly "
            "once in its function" % len(mutants))
        return 0
    if problems:
        log("mutant list check: %d stale entr%s, none of them run now "
            "(--check fails on them)" % (len(stale), "y" if len(stale) == 1
                                         else "ies"))

    scratch = os.path.abspath(args.scratch)
    results_path = args.results or os.path.join(scratch, "results.json")
    os.makedirs(scratch, exist_ok=True)
    previous = {}
    if os.path.exists(results_path):
        with open(results_path) as f:
            previous = json.load(f).get("results", {})
    args.previous = previous
    results = dict(previous)

    log("preparing the scratch worktree in %s" % scratch)
    t0 = time.time()
    src, build = prepare_scratch(scratch, args.jobs)
    if not args.no_baseline:
        rc, out = ninja(build, ["all"], args.jobs, None)
        if rc != 0:
            log(out[-3000:])
            log("the unmutated scratch tree does not build")
            return 1
    log("scratch tree ready (%.0f s)" % (time.time() - t0))
    suites = Suites(src, build, args.jobs)

    meta = {
        "commit": git(["rev-parse", "HEAD"]).strip(),
        "dirty": bool(git(["status", "--porcelain", "--untracked-files=no"])
                      .strip()),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"),
        "machine": "%s, %d cores" % (platform.node(), os.cpu_count() or 0),
        "command": " ".join(sys.argv),
    }
    start = time.time()
    for n, m in enumerate(selected, 1):
        mid = m["id"]
        if m.get("equivalent"):
            results[mid] = {"status": "equivalent", "test": None,
                            "detail": m["equivalent"]}
            log("[%d/%d] %-24s equivalent" % (n, len(selected), mid))
            continue
        if args.resume and mid in previous and \
                previous[mid].get("status") != "error":
            log("[%d/%d] %-24s %s (resumed)" % (n, len(selected), mid,
                                                previous[mid]["status"]))
            continue
        if args.max_minutes and time.time() - start > args.max_minutes * 60:
            log("time limit reached; rerun with --resume to continue")
            break
        # The hinted units (previous killer, per-mutant, per-file) run one
        # by one, the rest in batches.
        args.priority_cache = set()
        hinted = []
        prev = previous.get(mid, {})
        if prev.get("status") == "killed":
            hinted.append(unit_of(prev.get("test")))
        for h in hinted + m.get("tests", []) + related_units(m["file"]):
            if h:
                args.priority_cache.update(suites.expand(h))
        r = run_mutant(m, suites, args)
        r["file"] = m["file"]
        r["function"] = m.get("function")
        results[mid] = r
        write_results(results_path, meta, results)
        log("[%d/%d] %-24s %-11s %6.1fs %s" % (
            n, len(selected), mid, r["status"], r["seconds"],
            r.get("test") or r.get("detail") or ""))

    write_results(results_path, meta, results)
    ran = [m for m in selected if m["id"] in results]
    counts, scored, score = summarize(ran, results)
    survivors = [m for m in ran if results[m["id"]]["status"] == "survived"]
    if survivors:
        log("survivors:")
        for m in survivors:
            log("  %-24s %s: %s" % (m["id"], m["file"], m["why"]))
    errors = [m for m in ran if results[m["id"]]["status"] == "build-error"]
    if errors:
        log("build errors (not scored): " + " ".join(m["id"] for m in errors))
    log("mutation score: %d killed / %d scored = %.1f%% (%d survived, %d "
        "equivalent, %d build-error; results in %s)" % (
            counts["killed"], scored, 100 * score, counts["survived"],
            counts["equivalent"], counts["build-error"], results_path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
