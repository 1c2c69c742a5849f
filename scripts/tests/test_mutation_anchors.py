"""The mutant catalog (scripts/mutants/) against reformatted sources.

A mutant is anchored by the function that holds its pattern and matched
with layout ignored (scripts/mutation.py, resolve): these tests copy real
sources of several libraries to a scratch tree, reformat them the ways
clang-format might (other column limits and styles, lines joined and split,
another indentation) or move a function to another file of its library, and
check that every mutant anchored in them still matches exactly once and
plants the same change, whitespace aside. Then the rejections: a pattern
that matches twice in its function, an unknown function, a pattern that
left its function, and the message of each.

`make test` runs them in its mutation suite (scripts/run-tests.py).
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
sys.path.insert(0, os.path.join(SRC, "scripts"))

import mutation  # noqa: E402
import mutants  # noqa: E402

# Sources of six libraries, headers included, with many mutants between
# them (the fixture checks how many).
FILES = [
    "lib/Layout/Swizzle.cpp",
    "lib/Layout/Layout.cpp",
    "include/tile/Layout/Slice.h",
    "lib/MMA/WgmmaDescriptor.cpp",
    "lib/Runtime/TensorMap.cpp",
    "lib/Runtime/EntryTable.h",
    "lib/Conversion/TileToNVVM/ElementwiseCopy.cpp",
    "lib/Transforms/AsyncProtocol/AsyncWalker.cpp",
    "lib/Transforms/AsyncProtocol/TxBytesScan.cpp",
    "lib/Dispatch/CopyVariant.cpp",
]


def clang_format():
    for tool in ("/usr/lib/llvm-22/bin/clang-format",
                 shutil.which("clang-format")):
        if tool and os.path.isfile(tool):
            return tool
    return None


def squeeze(text):
    """text without its whitespace and its comments' text (a reformat may
    reflow comments), string literals kept."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/|("(?:\\.|[^"\\\n])*")',
                  lambda m: m.group(1) or " ", text, flags=re.S)
    return re.sub(r"\s+", "", text)


def make_tree(root, files=FILES):
    for rel in files:
        dst = os.path.join(root, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(SRC, rel), dst)


def planted(m, root):
    """(file, its text with m planted), leaving the tree as it was."""
    before = mutation.apply_mutant(m, root)
    try:
        with open(os.path.join(root, before.path)) as f:
            return before.path, f.read()
    finally:
        mutation.restore(m, root, before)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """The mutants anchored in FILES that resolve in an unchanged copy,
    with what they plant there. (A stale entry is --check's to report.)"""
    root = str(tmp_path_factory.mktemp("baseline"))
    make_tree(root)
    result = {}
    for m in mutants.MUTANTS:
        if m["file"] not in FILES:
            continue
        try:
            result[m["id"]] = (m,) + planted(m, root)
        except mutation.PatternError:
            continue
    assert len(result) >= 60, "too few mutants resolve in %s" % FILES
    assert {m["file"] for m, _, _ in result.values()} == set(FILES)
    return result


#===------------------------------------------------------------------------===#
# Reformats
#===------------------------------------------------------------------------===#

def code_positions(text):
    """Offsets of text that are code (not comments, literals or
    preprocessor lines)."""
    blank = mutation.blank_cpp(text)
    return [i for i, (a, b) in enumerate(zip(text, blank))
            if a == b and not a.isspace()]


def reindent(text):
    """Every indentation doubled, half of it as tabs; trailing blanks."""
    out = []
    for line in text.split("\n"):
        body = line.lstrip(" ")
        n = len(line) - len(body)
        out.append("\t" * (n // 2) + " " * n + body + ("  " if body else ""))
    return "\n".join(out)


def split_lines(text):
    """A line break after every '(' and ',' and before every ')' of code,
    each new line indented differently."""
    cut_after, cut_before = set(), set()
    for i in code_positions(text):
        if text[i] in "(,":
            cut_after.add(i)
        elif text[i] == ")":
            cut_before.add(i)
    out = []
    for i, c in enumerate(text):
        if i in cut_before:
            out.append("\n" + " " * (i % 7))
        out.append(c)
        if i in cut_after:
            out.append("\n" + " " * (i % 5))
    return "".join(out)


def join_lines(text):
    """Every line of code that does not end a statement or a block joined
    with the next (as a wider column limit would); lines with comments and
    preprocessor lines left alone."""
    blank = mutation.blank_cpp(text)
    lines, blanks = text.split("\n"), blank.split("\n")
    out = [lines[0]]
    for k in range(1, len(lines)):
        prev, prev_blank, cur = lines[k - 1], blanks[k - 1], lines[k]
        if prev_blank.strip() and "//" not in prev and "/*" not in prev and \
                prev_blank.rstrip()[-1] not in ";{}:" and cur.strip() and \
                not cur.lstrip().startswith(("#", "//", "/*")):
            out[-1] = out[-1].rstrip() + " " + cur.lstrip()
        else:
            out.append(cur)
    return "\n".join(out)


# String literals are not split and includes not sorted: both change more
# than layout.
STYLES = {
    "narrow": "{BasedOnStyle: LLVM, ColumnLimit: 40, BreakStringLiterals: "
              "false, SortIncludes: false}",
    "wide": "{BasedOnStyle: Google, ColumnLimit: 120, IndentWidth: 4, "
            "AllowShortIfStatementsOnASingleLine: AllIfsAndElse, "
            "AllowShortBlocksOnASingleLine: Always, "
            "AllowShortLoopsOnASingleLine: true, "
            "AllowShortFunctionsOnASingleLine: All, "
            "BreakStringLiterals: false, SortIncludes: false}",
    "spaced": "{BasedOnStyle: LLVM, BreakBeforeBraces: Allman, "
              "SpaceBeforeParens: Always, SpacesInParentheses: true, "
              "SpacesInConditionalStatement: true, "
              "BreakStringLiterals: false, SortIncludes: false}",
}


def with_style(style):
    def run(text):
        proc = subprocess.run([clang_format(), "--style=" + STYLES[style],
                               "--assume-filename=x.cpp"], input=text,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout
    return run


REFORMATS = [("reindent", reindent), ("split", split_lines),
             ("join", join_lines)] + \
    [("clang-format-" + s, with_style(s)) for s in STYLES]


@pytest.mark.parametrize("name, reformat", REFORMATS,
                         ids=[n for n, _ in REFORMATS])
def test_reformat_keeps_every_anchor(baseline, tmp_path, name, reformat):
    if name.startswith("clang-format") and not clang_format():
        pytest.skip("no clang-format")
    root = str(tmp_path)
    make_tree(root)
    changed = 0
    for rel in FILES:
        path = os.path.join(root, rel)
        with open(path) as f:
            text = f.read()
        new = reformat(text)
        assert squeeze(new) == squeeze(text), "%s changed more than " \
            "whitespace in %s" % (name, rel)
        changed += new != text
        with open(path, "w") as f:
            f.write(new)
    assert changed, "%s changed nothing" % name
    problems = []
    for mid, (m, rel, want) in sorted(baseline.items()):
        try:
            got_rel, got = planted(m, root)
        except mutation.PatternError as e:
            problems.append(str(e))
            continue
        if got_rel != rel or squeeze(got) != squeeze(want):
            problems.append("%s: planted another change" % mid)
    assert not problems, "\n".join(problems)


def test_reformats_change_layout():
    """The reformats do what they claim on a sample."""
    text = ("int f(int a, int b) {\n  return g(a,\n           b); "
            "// x, (y)\n}\n")
    assert "\n" in split_lines("f(a, b);")
    assert split_lines(text).count("// x, (y)") == 1
    assert "return g(a, b);" in join_lines(text)
    assert squeeze(reindent(text)) == squeeze(text)


def _move(root, rel, function, new_rel):
    """Moves the definition of function from rel to a new file new_rel."""
    path = os.path.join(root, rel)
    with open(path) as f:
        text = f.read()
    defs = [d for d in mutation.cpp_definitions(text)
            if mutation.definition_matches(d, function)]
    assert len(defs) == 1, (function, defs)
    d = defs[0]
    with open(path, "w") as f:
        f.write(text[:d.start] + text[d.end:])
    dst = os.path.join(root, new_rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w") as f:
        f.write("// Moved here.\n\nnamespace tile {\n" + text[d.start:d.end] +
                "\n} // namespace tile\n")
    return text[d.start:d.end]


@pytest.mark.parametrize("rel, new_rel", [
    ("lib/Layout/Swizzle.cpp", "lib/Layout/SwizzleXor.cpp"),
    ("lib/Layout/Layout.cpp", "include/tile/Layout/Moved.h"),
    ("lib/Runtime/TensorMap.cpp", "lib/Runtime/Validate/Box.cpp"),
])
def test_function_moved_within_its_library(baseline, tmp_path, rel, new_rel):
    root = str(tmp_path)
    make_tree(root)
    ms = [m for m, r, _ in baseline.values() if r == rel]
    function = ms[0]["function"]
    moved = [m for m in ms if m["function"] == function]
    stay = [m for m in ms if m["function"] != function]
    _move(root, rel, function, new_rel)
    for m in moved:
        notes = []
        assert mutation.check_list([m], root, notes) == []
        assert notes and new_rel in notes[0] and m["id"] in notes[0]
        got_rel, got = planted(m, root)
        assert got_rel == new_rel
        # The same change: the planted function is the baseline's.
        _, _, want = baseline[m["id"]]
        want_def = [d for d in mutation.cpp_definitions(want)
                    if mutation.definition_matches(d, function)][0]
        got_def = [d for d in mutation.cpp_definitions(got)
                   if mutation.definition_matches(d, function)][0]
        assert squeeze(got[got_def.start:got_def.end]) == \
            squeeze(want[want_def.start:want_def.end])
    for m in stay:
        got_rel, got = planted(m, root)
        assert got_rel == rel


#===------------------------------------------------------------------------===#
# Rejections, on a small tree of its own
#===------------------------------------------------------------------------===#

LIB_A = """\
namespace tile {
static int twice(int x) {
  int a = x + 1;
  int b = x + 1;
  return a * b;
}

int once(int x) {
  return x - 1;
}

int overload(int x) { return x * 3; }
int overload(float x) { return x * 4; }

struct Table {
  int width = 16;
  int height(int x) const { return x << 2; }
};

static const int kLimits[] = {
    256, 128, // box, pixels
};
} // namespace tile
"""


@pytest.fixture
def small(tmp_path):
    root = str(tmp_path)
    for rel, text in [("lib/Foo/A.cpp", LIB_A),
                      ("lib/Foo/B.cpp", "int other(int y) { return y; }\n"),
                      ("lib/Bar/C.cpp", "int elsewhere() { return 7; }\n")]:
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)
    return root


def mutant(function, pattern, replacement="0", file="lib/Foo/A.cpp"):
    return {"id": "test-mutant", "file": file, "function": function,
            "library": ["lib/Foo"], "pattern": pattern,
            "replacement": replacement, "why": "a test",
            "module": "scripts/mutants/foo.py"}


def problem(root, m):
    problems = mutation.check_list([m], root)
    assert len(problems) == 1, problems
    return problems[0]


def test_resolves_in_functions_methods_and_tables(small):
    for function, pattern in [("once", "x - 1"), ("twice", "a * b"),
                              ("Table::height", "x << 2"),
                              ("Table", "width = 16"),
                              ("kLimits", "256, 128"),
                              ("overload", "x * 4"),
                              ("tile::overload", "x * 3")]:
        assert mutation.check_list([mutant(function, pattern)], small) == [], \
            (function, pattern)


def test_twice_in_the_function_is_rejected(small):
    msg = problem(small, mutant("twice", "x + 1"))
    assert "test-mutant" in msg and "function twice" in msg
    assert "ambiguous" in msg and "matches 2 times" in msg
    assert "lib/Foo/A.cpp:3" in msg and "lib/Foo/A.cpp:4" in msg
    assert "lengthen the pattern" in msg
    # Whitespace does not tell the two apart either.
    assert "ambiguous" in problem(small, mutant("twice", "x  +\n  1;"))


def test_unknown_function_is_rejected_naming_it(small):
    msg = problem(small, mutant("nosuch", "x - 1"))
    assert "test-mutant (scripts/mutants/foo.py)" in msg
    assert "function nosuch not found in lib/Foo/A.cpp" in msg
    assert "of lib/Foo" in msg
    # It says where the pattern is now.
    assert "once at lib/Foo/A.cpp:9" in msg
    with pytest.raises(mutation.PatternError, match="nosuch"):
        mutation.apply_mutant(mutant("nosuch", "x - 1"), small)
    stale = set()
    good = dict(mutant("once", "x - 1"), id="good-mutant")
    mutation.check_list([mutant("nosuch", "x - 1"), good], small, stale=stale)
    assert stale == {"test-mutant"}


def test_function_in_another_library_is_named(small):
    msg = problem(small, mutant("elsewhere", "return 7"))
    assert "function elsewhere not found" in msg
    assert "moved to another library" in msg and "lib/Bar/C.cpp" in msg


def test_pattern_that_left_its_function_is_rejected(small):
    msg = problem(small, mutant("once", "a * b"))
    assert "does not match in function once (lib/Foo/A.cpp:8-10)" in msg
    assert "code moved to another function" in msg
    assert "twice at lib/Foo/A.cpp:5" in msg
    msg = problem(small, mutant("once", "x - 2"))
    assert "the text changed" in msg


def test_missing_anchor_is_rejected(small):
    msg = problem(small, mutant(None, "x - 1"))
    assert "no function= anchor" in msg and "once at lib/Foo/A.cpp" in msg


def test_file_outside_the_library_is_rejected(small):
    msg = problem(small, mutant("elsewhere", "return 7",
                                file="lib/Bar/C.cpp"))
    assert "outside its library" in msg


def test_layout_is_ignored_but_tokens_are_not():
    rx = mutation.pattern_regex
    assert rx("f(a, b)").search("f(\n    a,\n    b )")
    assert rx("if (x)\n  return y;").search("if ( x ) return y;")
    assert rx("a->b").search("a -> b")
    assert not rx("a->b").search("a- >b")
    assert not rx("int x").search("intx")
    assert not rx("a == b").search("a = = b")
    assert rx('"a  b"').search('"a  b"')
    assert not rx('"a  b"').search('"a b"')
    assert rx("x; // one two").search("x;  // one\n  // two")


def test_planting_keeps_the_source_indentation(small):
    m = mutant("twice", "  int b = x + 1;\n", "  int b = x;\n")
    before = mutation.apply_mutant(m, small)
    with open(os.path.join(small, "lib/Foo/A.cpp")) as f:
        text = f.read()
    assert "  int a = x + 1;\n  int b = x;\n  return" in text
    mutation.restore(m, small, before)
    with open(os.path.join(small, "lib/Foo/A.cpp")) as f:
        assert f.read() == LIB_A
    # A deleted line goes with its indentation and line break.
    m = mutant("twice", "  int a = x + 1;\n", "")
    before = mutation.apply_mutant(m, small)
    with open(os.path.join(small, "lib/Foo/A.cpp")) as f:
        assert "{\n  int b = x + 1;" in f.read()
    mutation.restore(m, small, before)


#===------------------------------------------------------------------------===#
# The catalog itself
#===------------------------------------------------------------------------===#

def test_catalog_is_split_per_library():
    folder = os.path.join(SRC, "scripts", "mutants")
    names = sorted(f[:-3] for f in os.listdir(folder)
                   if f.endswith(".py") and not f.startswith("_"))
    assert sorted(m.__name__.split(".")[-1] for m in mutants.MODULES) == \
        names, "a module of scripts/mutants/ is missing from MODULES"
    ids = [m["id"] for m in mutants.MUTANTS]
    assert len(ids) == len(set(ids))
    assert set(mutants.CI_SAMPLE) <= set(ids)
    for m in mutants.MUTANTS:
        assert m["function"], m["id"]
        assert any(m["file"].startswith(f + "/") for f in m["library"]), \
            m["id"]
    # Modules do not share folders.
    folders = [f for mod in mutants.MODULES for f in mod.LIBRARY.folders]
    assert len(folders) == len(set(folders))


def test_testing_doc_lists_the_modules():
    """docs/testing.md names every module of the catalog and states no
    count that could go stale (`--list` prints it)."""
    with open(os.path.join(SRC, "docs", "testing.md")) as f:
        doc = f.read()
    section = doc[doc.index("### The mutant list"):]
    section = section[:section.index("\n### ", 1)]
    named = set(re.findall(r"`(\w+)\.py`", section))
    assert named == {m.__name__.split(".")[-1] for m in mutants.MODULES}
    assert not re.search(r"\d+ mutants", section)
