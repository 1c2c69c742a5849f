#!/usr/bin/env python3
"""Runs the libFuzzer harnesses of the sanitizer build for a bounded time.

Each harness starts from the seed corpus in fuzz/corpus/<name> plus the
corpus it grew in earlier runs (<build>/fuzz-corpus/<name>, where new inputs
go); crashes, sanitizer reports and harness findings are saved under
<build>/fuzz-artifacts/<name>/ and printed as `REPRODUCER: <path>` with the
command that replays it. One line per harness gives executions, executions
per second, coverage and the outcome; the last line is
`N passed, N failed, N skipped` (one test per harness).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"

# name: (dictionary, max_len, extra libFuzzer flags)
HARNESSES = {
    "layout": ("layout.dict", 256, []),
    "planner": (None, 128, []),
    "tile-opt": ("tile-opt.dict", 8192, []),
}


def sanitizer_env(env=None):
    """ASan/UBSan settings shared by the sanitized test suites and the fuzzers
    (docs/testing.md explains each)."""
    env = dict(os.environ if env is None else env)
    common = "abort_on_error=1:print_summary=1"
    env.setdefault("ASAN_OPTIONS",
                   common + ":detect_leaks=1:allow_user_poisoning=0:"
                   "check_initialization_order=1:"
                   "strict_init_order=1:detect_stack_use_after_return=1")
    lsan = common
    suppressions = os.path.join(SRC, "fuzz", "lsan.supp")
    if os.path.exists(suppressions):
        lsan += ":suppressions=" + suppressions
    env.setdefault("LSAN_OPTIONS", lsan)
    env.setdefault("UBSAN_OPTIONS", common + ":print_stacktrace=1:"
                   "halt_on_error=1")
    env.setdefault("ASAN_SYMBOLIZER_PATH",
                   os.path.join(LLVM_BIN, "llvm-symbolizer"))
    return env


def stat(pattern, text, default=0):
    found = re.findall(pattern, text, re.MULTILINE)
    return int(found[-1]) if found else default


# Executions per harness of the reproducible CI run (--ci), from the
# committed seeds with a fixed seed: about a minute each on the 2-core
# machine (layout ~11,000/s, planner ~200-300/s, tile-opt ~800/s).
CI_RUNS = {"layout": 1000000, "planner": 30000, "tile-opt": 100000}


def run_one(build, name, seconds, jobs, ci=False):
    dictionary, max_len, extra = HARNESSES[name]
    binary = os.path.join(build, "bin", "tile-fuzz-" + name)
    corpus = os.path.join(build, "fuzz-corpus", name)
    seeds = os.path.join(SRC, "fuzz", "corpus", name)
    artifacts = os.path.join(build, "fuzz-artifacts", name)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    limit = (["-seed=1", "-runs=%d" % CI_RUNS[name]] if ci else
             ["-max_total_time=%d" % seconds])
    if ci:  # start from the committed seeds alone, not an earlier run's corpus
        corpus = os.path.join(build, "fuzz-corpus-ci", name)
        if os.path.isdir(corpus):
            shutil.rmtree(corpus)
        os.makedirs(corpus)
    cmd = [binary] + limit + ["-max_len=%d" % max_len,
           "-timeout=60", "-rss_limit_mb=4096", "-print_final_stats=1",
           "-artifact_prefix=" + artifacts + "/"] + extra
    if dictionary:
        cmd.append("-dict=" + os.path.join(SRC, "fuzz", dictionary))
    if jobs > 1:
        cmd += ["-fork=%d" % jobs, "-ignore_crashes=0"]
    cmd += [corpus, seeds]
    print("$ " + " ".join(cmd), flush=True)
    start = time.time()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace", env=sanitizer_env())
    wall = time.time() - start
    out = proc.stdout
    execs = stat(r"^stat::number_of_executed_units:\s*(\d+)", out)
    if not execs:
        execs = stat(r"^#(\d+)\s", out)
    cov = stat(r"\bcov: (\d+)", out)
    ft = stat(r"\bft: (\d+)", out)
    corp = stat(r"\bcorp: (\d+)", out)
    rate = execs / wall if wall > 0 else 0
    reproducers = sorted(set(re.findall(r"Test unit written to (\S+)", out)))
    ok = proc.returncode == 0 and not reproducers
    if not ok:
        # The report (sanitizer stack, harness finding) before the summary.
        lines = out.splitlines()
        first = next((i for i, l in enumerate(lines)
                      if "ERROR:" in l or "finding:" in l or
                      "runtime error:" in l or "LLVM ERROR" in l),
                     max(0, len(lines) - 60))
        print("\n".join(lines[first:first + 80]))
        for path in reproducers:
            print("REPRODUCER: %s (replay: %s %s)" % (path, binary, path))
        if not reproducers:
            print("tile-fuzz-%s exited with %d and saved no input"
                  % (name, proc.returncode))
    print("tile-fuzz-%s: %d execs in %.0f s (%.0f/s), cov %d, ft %d, "
          "corpus %d: %s" % (name, execs, wall, rate, cov, ft, corp,
                             "passed" if ok else "FAILED"), flush=True)
    return ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build-asan")
    parser.add_argument("--seconds", type=int, default=60,
                        help="time per harness")
    parser.add_argument("--jobs", type=int, default=1,
                        help="parallel fuzzing processes per harness")
    parser.add_argument("--ci", action="store_true",
                        help="reproducible bounded run: fixed seed and "
                        "execution counts (CI_RUNS), no earlier corpus")
    parser.add_argument("harness", nargs="*", default=list(HARNESSES))
    args = parser.parse_args()
    passed = failed = 0
    for name in args.harness:
        if run_one(args.build, name, args.seconds, args.jobs, args.ci):
            passed += 1
        else:
            failed += 1
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
