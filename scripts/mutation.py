#!/usr/bin/env python3
"""Mutation testing of the CPU test suites.

Each mutant in scripts/mutants.py is one small, realistic bug: an exact
pattern in one source file and its replacement. The tool plants the mutants
one at a time in a scratch git worktree (default: build-mutation/src, with its
own Release build in build-mutation/src/build), rebuilds only what the next
test needs, and runs the suites of `make test` (lit, the ctest-registered
GoogleTest binaries, pytest where present) until the first failure:

  killed       a test failed (the killing test is recorded)
  survived     every test passed: no test notices the bug
  build-error  the mutant does not compile (reported apart, not scored)
  equivalent   marked in the list as changing no behaviour (not run, not
               scored)

score = killed / (all - equivalent - build-error).

Tests run cheapest-first: the test that killed the mutant last time, then the
tests related to the mutated file, then the rest (lit --max-failures=1,
gtest --gtest_fail_fast).

  scripts/mutation.py --check             every pattern applies exactly once
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
    ("lib/Transforms/", ["lit:Transforms", "lit:Pipeline"]),
    ("lib/Transforms/Pipelines.cpp", ["lit:Pipeline", "lit:Tools"]),
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
    pass


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
# The list
#===------------------------------------------------------------------------===#

def check_list(mutants, root=SRC):
    """Every mutant is well formed and its pattern occurs exactly once."""
    problems = []
    seen = set()
    for m in mutants:
        mid = m.get("id", "?")
        for key in ("id", "file", "pattern", "why"):
            if not m.get(key):
                problems.append("%s: missing '%s'" % (mid, key))
        if not isinstance(m.get("replacement"), str):
            problems.append("%s: missing 'replacement'" % mid)
        if mid in seen:
            problems.append("%s: duplicate id" % mid)
        seen.add(mid)
        if m.get("pattern") == m.get("replacement"):
            problems.append("%s: replacement equals the pattern" % mid)
        path = os.path.join(root, m.get("file", ""))
        if not os.path.isfile(path):
            problems.append("%s: no file %s" % (mid, m.get("file")))
            continue
        with open(path) as f:
            text = f.read()
        n = text.count(m["pattern"])
        if n != 1:
            problems.append("%s: pattern occurs %d times in %s (must be "
                            "exactly once): %r" % (mid, n, m["file"],
                                                   m["pattern"]))
    return problems


def apply_mutant(m, root):
    path = os.path.join(root, m["file"])
    with open(path) as f:
        original = f.read()
    if original.count(m["pattern"]) != 1:
        raise PatternError("%s: pattern does not occur exactly once in %s" %
                           (m["id"], m["file"]))
    with open(path, "w") as f:
        f.write(original.replace(m["pattern"], m["replacement"], 1))
    return original


def restore(m, root, original):
    with open(os.path.join(root, m["file"]), "w") as f:
        f.write(original)


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
                return ["tile-opt", "mlir-doc"]
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


def area_of(path):
    parts = path.split("/")
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
        a = area_of(m["file"])
        if a not in areas:
            areas.append(a)
    rows = areas + ["all"]
    for a in rows:
        ms = [m for m in mutants if a == "all" or area_of(m["file"]) == a]
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
                   help="verify every pattern applies exactly once; no build")
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
            log("%-24s %-48s %s%s" % (m["id"], m["file"], m["why"], eq))
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

    problems = check_list(mutants)
    if problems:
        for pr in problems:
            log("STALE: " + pr)
        log("mutant list check: %d problem(s) in %d mutants" %
            (len(problems), len(mutants)))
        return 1
    if args.check:
        log("mutant list check: %d mutants, every pattern applies exactly "
            "once" % len(mutants))
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
