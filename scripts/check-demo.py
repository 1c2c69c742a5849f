#!/usr/bin/env python3
"""Runs `make demo` (the README's main job) and checks what it must show: a
clean exit, the plan report line of the reference demo's TMA copy, the
hoisted host-side tensor-map encode call, the PTX `cp.async.bulk.tensor`
instruction and the run of the host program built on the shared library. Prints the demo's output, one PASS/FAIL line per check and
`N passed, N failed`; exits non-zero when a check failed. CI runs it after
`make test` (scripts/ci.py)."""
import argparse
import os
import re
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (what, pattern a line of the output must match)
EXPECTED = [
    ("the plan report line of the TMA copy",
     r'^\{"loc":"[^"]*copy_async_tma\.mlir:\d+:\d+","op":"tile\.copy_async",'
     r'"direction":"g2s","selected":"tma",'),
    ("the hoisted host-side encode call",
     r"^call tileTensorMapGetCached\(data_type=\d+ \(\w+\), rank=\d+, "),
    ("the launch after the encode", r"^then: gpu\.launch_func "),
    ("the PTX TMA instruction", r"^cp\.async\.bulk\.tensor\.\dd\."),
    ("the host program's run (exact on a GPU, a skip without a driver)",
     r"^(copy_async: B equals A|skipped: tileRuntimeInit: no CUDA driver)"),
]


def check_output(returncode, output):
    """(what, passed) for each check of a demo run's exit status and
    output."""
    lines = output.splitlines()
    results = [("make demo exits 0", returncode == 0)]
    for what, pattern in EXPECTED:
        regex = re.compile(pattern)
        results.append((what, any(regex.search(l) for l in lines)))
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    args = parser.parse_args()
    proc = subprocess.run(["make", "demo", "BUILD=" + args.build], cwd=SRC,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")
    sys.stdout.write(proc.stdout)
    results = check_output(proc.returncode, proc.stdout)
    for what, passed in results:
        print("%s: %s" % ("PASS" if passed else "FAIL", what))
    failed = sum(1 for _, passed in results if not passed)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
