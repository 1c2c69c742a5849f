#!/usr/bin/env python3
"""Runs every CPU test suite (lit, GoogleTest, pytest, the embedding test of
docs/embedding.md, and a quick check of the mutation-testing tool) and prints
one summary.

The last line is `N passed, N failed, N skipped` over all suites together; the
exit status is non-zero when anything failed or a suite could not run.

With --sanitized (the ASan/UBSan build, `make sanitize`) the lit and unit
suites run with the sanitizer options of scripts/run-fuzzers.py; the Python
suite is left out there (it loads the runtime into an uninstrumented
interpreter).
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

LLVM_BIN = "/usr/lib/llvm-22/bin"


def sanitizer_env():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "run-fuzzers.py")
    spec = importlib.util.spec_from_file_location("run_fuzzers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.sanitizer_env()


def run(cmd, env=None):
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env)
    return proc.returncode, proc.stdout


def count(pattern, text):
    m = re.search(pattern, text, re.MULTILINE)
    return int(m.group(1)) if m else 0


def lit_suite(build, env=None):
    rc, out = run([os.path.join(LLVM_BIN, "lit"), "-sv",
                   os.path.join(build, "test")], env=env)
    passed = count(r"^\s*Passed\s*:\s*(\d+)", out) + \
        count(r"^\s*Expectedly Failed\s*:\s*(\d+)", out)
    failed = sum(count(r"^\s*%s\s*:\s*(\d+)" % k, out) for k in
                 ("Failed", "Unresolved", "Unexpectedly Passed", "Timed Out"))
    skipped = count(r"^\s*Unsupported\s*:\s*(\d+)", out)
    if rc != 0 and failed == 0:
        failed = 1
    tail = out if failed else "\n".join(out.splitlines()[-6:])
    print(tail)
    return passed, failed, skipped


def gtest_suite(build, env=None):
    """Runs every ctest-registered unit test; GoogleTest binaries count their
    individual tests, other commands count as one test each."""
    rc, out = run(["ctest", "--test-dir", build, "--show-only=json-v1"])
    if rc != 0:
        print(out)
        return 0, 1, 0
    tests = json.loads(out[out.index("{"):])["tests"]
    passed = failed = skipped = 0
    for test in tests:
        cmd = test["command"]
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        cwd = props.get("WORKING_DIRECTORY")
        proc = subprocess.run(cmd + ["--gtest_brief=1"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, cwd=cwd,
                              env=env)
        out = proc.stdout
        if "[==========]" in out:
            p = count(r"\[  PASSED  \] (\d+) test", out)
            f = count(r"\[  FAILED  \] (\d+) test", out)
            s = count(r"\[  SKIPPED \] (\d+) test", out)
        else:
            p, f, s = (1, 0, 0) if proc.returncode == 0 else (0, 1, 0)
        if proc.returncode != 0 and f == 0:
            f = 1
        print("%s: %d passed, %d failed, %d skipped" % (test["name"], p, f, s))
        if f:
            print(out)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    return passed, failed, skipped


def pytest_suite(build, src):
    tests = os.path.join(src, "python", "tests")
    if not os.path.isdir(tests):
        return 0, 0, 0
    env = dict(os.environ)
    env["TILE_BUILD_DIR"] = os.path.abspath(build)
    # The package in place: it finds libTileCAPI.so in TILE_BUILD_DIR.
    env["PYTHONPATH"] = os.path.join(src, "python") + \
        os.pathsep + env.get("PYTHONPATH", "")
    rc, out = run([sys.executable, "-m", "pytest", "-q", tests], env=env)
    print("\n".join(out.splitlines()[-15:]))
    p = count(r"(\d+) passed", out)
    f = count(r"(\d+) failed", out) + count(r"(\d+) error", out)
    s = count(r"(\d+) skipped", out)
    if rc not in (0, 5) and f == 0:
        f = 1
    return p, f, s


def embedding_suite(build, src):
    """Installs the build into a scratch prefix and runs every shell block of
    docs/embedding.md against it (scripts/test-embedding.py): the consumer
    build of examples/embedding through find_package, the mlir-opt plugin,
    the C API, the kernel ABI attribute."""
    tool = os.path.join(src, "scripts", "test-embedding.py")
    rc, out = run([sys.executable, tool, "--build", build])
    lines = [l for l in out.splitlines() if l.startswith(("PASS", "FAIL"))]
    print("\n".join(lines))
    m = re.search(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", out, re.M)
    if not m:
        print(out)
        return 0, 1, 0
    p, f, s = (int(g) for g in m.groups())
    if rc != 0 and f == 0:
        f = 1
    if f:
        print(out)
    return p, f, s


def mutation_suite(build, src):
    """Keeps the mutation tool from rotting: every mutant's pattern must still
    match exactly once in its function (scripts/mutants/), the anchors must
    survive reformatted sources (scripts/tests), and a fixed quick sample of
    mutants (cheap files, killed by fast tests) must be planted, rebuilt and
    killed in a scratch worktree under the build folder."""
    tool = os.path.join(src, "scripts", "mutation.py")
    rc, out = run([sys.executable, tool, "--check"])
    print(out.strip())
    passed, failed = (1, 0) if rc == 0 else (0, 1)
    rc, out = run([sys.executable, "-m", "pytest", "-q",
                   os.path.join(src, "scripts", "tests")])
    print("\n".join(out.splitlines()[-15:]))
    passed += count(r"(\d+) passed", out)
    f = count(r"(\d+) failed", out) + count(r"(\d+) error", out)
    failed += f if f or rc in (0, 5) else 1
    sys.path.insert(0, os.path.join(src, "scripts"))
    import mutants
    scratch = os.path.join(os.path.abspath(build), "mutation-ci")
    results = os.path.join(scratch, "results.json")
    if os.path.exists(results):
        os.remove(results)
    # Through the README's command (`make mutation`), narrowed to the sample.
    args = ["--no-baseline", "--scratch", scratch, "--results", results,
            "--only"] + mutants.CI_SAMPLE
    rc, out = run(["make", "-s", "-C", src, "mutation",
                   "PYTHON=" + sys.executable,
                   "MUTATION_ARGS=" + " ".join(args)])
    print("\n".join(out.splitlines()[-(len(mutants.CI_SAMPLE) + 2):]))
    got = {}
    if os.path.exists(results):
        with open(results) as f:
            got = json.load(f).get("results", {})
    for mid in mutants.CI_SAMPLE:
        status = got.get(mid, {}).get("status")
        if status == "killed":
            passed += 1
        else:
            failed += 1
            print("mutant %s: %s (expected killed)" % (mid, status))
            if rc != 0:
                print(out)
    return passed, failed, 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--sanitized", action="store_true",
                        help="the sanitizer build: sanitizer options, no "
                        "Python suite")
    args = parser.parse_args()
    env = sanitizer_env() if args.sanitized else None
    tag = " (sanitized)" if args.sanitized else ""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    totals = [0, 0, 0]
    suites = [("lit", lambda: lit_suite(args.build, env)),
              ("unit", lambda: gtest_suite(args.build, env))]
    if not args.sanitized:
        suites.append(("python", lambda: pytest_suite(args.build, src)))
        suites.append(("embedding", lambda: embedding_suite(args.build, src)))
        suites.append(("mutation", lambda: mutation_suite(args.build, src)))
    for name, suite in suites:
        print("==== %s tests%s" % (name, tag), flush=True)
        result = suite()
        print("---- %s%s: %d passed, %d failed, %d skipped"
              % ((name, tag) + tuple(result)))
        totals = [a + b for a, b in zip(totals, result)]
    print("%d passed, %d failed, %d skipped" % tuple(totals))
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
