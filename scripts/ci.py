#!/usr/bin/env python3
"""Continuous integration: every stage, one summary.

1. `make test`: the release build and every CPU suite (lit, unit, Python).
   Then `make demo` (its CPU part), with its output checked for the plan
   line, the hoisted encode call and the PTX TMA instruction
   (scripts/check-demo.py).
2. `make sanitize`: the ASan/UBSan build (asserts on) and the lit and unit
   suites under the sanitizers.
3. The libFuzzer harnesses: a reproducible bounded run (fixed seed, a fixed
   number of executions each, about a minute; `run-fuzzers.py --ci`), or
   FUZZ_SECONDS each when that is set.

Later stages run even when an earlier one failed, so one run reports
everything. Each stage's time is printed; the last line is
`N passed, N failed, N skipped` over all stages together (a stage that cannot
build or run counts as one failure). The exit status is non-zero when
anything failed.
"""
import os
import re
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$")


def stage(name, cmd):
    print("==== CI stage: %s: %s" % (name, " ".join(cmd)), flush=True)
    start = time.time()
    proc = subprocess.Popen(cmd, cwd=SRC, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    last = None
    for line in proc.stdout:
        sys.stdout.write(line)
        m = SUMMARY.match(line.strip())
        if m:
            last = [int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)]
    rc = proc.wait()
    elapsed = time.time() - start
    if last is None:
        last = [0, 1, 0]  # it did not get as far as its tests
    elif rc != 0 and last[1] == 0:
        last[1] = 1
    print("==== CI stage: %s: %d passed, %d failed, %d skipped in %.0f s"
          % ((name,) + tuple(last) + (elapsed,)), flush=True)
    return last, elapsed


def main():
    # Reproducible by default (fixed seed and execution counts); FUZZ_SECONDS
    # asks for a timed run instead.
    seconds = os.environ.get("FUZZ_SECONDS", "")
    python = sys.executable
    stages = [
        ("test", ["make", "test"]),
        ("demo", [python, "scripts/check-demo.py", "--build", "build"]),
        ("sanitize", ["make", "sanitize"]),
        ("fuzz", ["make", "fuzz", "PYTHON=" + python] + (
            ["FUZZ_SECONDS=" + seconds] if seconds else ["FUZZ_CI=1"])),
    ]
    totals = [0, 0, 0]
    times = []
    for name, cmd in stages:
        result, elapsed = stage(name, cmd)
        totals = [a + b for a, b in zip(totals, result)]
        times.append("%s %.0f s" % (name, elapsed))
    print("CI times: " + ", ".join(times))
    print("%d passed, %d failed, %d skipped" % tuple(totals))
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
