#!/usr/bin/env python3
"""The GPU suite's view of mutants the CPU suites may not see.

Builds the GPU suite (scripts/gpu-suite.sh build) once per mutant of
scripts/mutants.py, each planted in the mutation tool's scratch worktree,
into .gpu-mutants/<id>/; a GPU machine then runs the runner on each folder
and reports which cases fail (kill the mutant):

  scripts/gpu-mutants.py build ID...    here, with the MLIR build
  scripts/gpu-mutants.py run            on the GPU machine (needs only
                                        .gpu-mutants/); prints one line per
                                        mutant: the failing cases or
                                        "survived"

A case that hangs (a mutant that breaks a barrier protocol) is cut off by a
per-mutant timeout and counts as a kill by the cases that did not finish.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".gpu-mutants")
sys.path.insert(0, os.path.join(ROOT, "scripts"))


def build(ids):
    import mutation
    mutants = {m["id"]: m for m in mutation.load_mutants()}
    # Its own scratch tree: the CPU mutation run may use build-mutation.
    scratch = os.path.join(ROOT, "build-mutation-gpu")
    src, bld = mutation.prepare_scratch(scratch, 2)
    for mid in ids:
        m = mutants[mid]
        original = mutation.apply_mutant(m, src)
        try:
            rc, out = mutation.ninja(bld, ["tile-compile", "tile_runtime"], 2,
                                     1800)
            if rc != 0:
                print("%s: build failed\n%s" % (mid, out[-2000:]))
                continue
            env = dict(os.environ, TILE_BUILD=bld,
                       GPU_OUT=os.path.join(OUT, mid))
            p = subprocess.run([os.path.join(src, "scripts", "gpu-suite.sh"),
                                "build"], cwd=src, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            print("%s: %s" % (mid, p.stdout.strip().splitlines()[-1]))
            with open(os.path.join(OUT, mid, "why.txt"), "w") as f:
                f.write(m["why"] + "\n")
        finally:
            mutation.restore(m, src, original)
    # Leave the scratch build unmutated for the next user.
    mutation.ninja(bld, ["tile-compile", "tile_runtime"], 2, 1800)


def run(timeout):
    for mid in sorted(os.listdir(OUT)):
        d = os.path.join(OUT, mid)
        try:
            p = subprocess.run([os.path.join(d, "runner"), "--dir", d],
                               text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout)
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (
                e.stdout or "")
            rc = "timeout"
        fails = [l.split()[1] for l in out.splitlines() if l.startswith("FAIL")]
        passed = sum(1 for l in out.splitlines() if l.startswith("PASS"))
        verdict = ("killed by " + ", ".join(fails)) if fails else (
            "killed (hang after %d passing cases)" % passed
            if rc == "timeout" else "survived")
        print("%-34s %3d passed  %s" % (mid, passed, verdict), flush=True)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "build":
        build(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "run":
        run(int(sys.argv[2]) if len(sys.argv) > 2 else 120)
    else:
        print(__doc__)
        sys.exit(2)
