#!/usr/bin/env python3
"""Runs the kernels and commands of a docs page.

Each ```mlir block preceded by a `<!-- kernel: NAME -->` line is written to
NAME.mlir in a scratch folder and verified with `tile-opt --tile-verify-async`;
the script prints `NAME: clean` or `NAME: ` and the first diagnostic (its
location relative to the scratch folder). Then every ```sh block runs in that
folder (bash -euo pipefail, with tile-opt's folder first on PATH) and the
script prints `sh block N: ok` or its output. The exit status is 0 when every
block ran; what each kernel reports is for the caller to check.

  check-doc-kernels.py --tile-opt build/bin/tile-opt docs/async-protocol.md
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tile-opt", required=True)
    ap.add_argument("doc")
    args = ap.parse_args()
    with open(args.doc) as f:
        text = f.read()
    kernels = re.findall(r"^<!-- kernel: ([\w-]+) -->\n```mlir\n(.*?)^```$",
                         text, re.MULTILINE | re.DOTALL)
    shells = re.findall(r"^```sh\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    tile_opt = os.path.abspath(args.tile_opt)
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        for name, body in kernels:
            path = os.path.join(scratch, name + ".mlir")
            with open(path, "w") as f:
                f.write(body)
        for name, _ in kernels:
            proc = subprocess.run(
                [tile_opt, "--tile-verify-async", name + ".mlir", "-o",
                 os.devnull], cwd=scratch, capture_output=True, text=True)
            lines = proc.stderr.splitlines()
            if proc.returncode == 0 and not lines:
                print("%s: clean" % name)
            else:
                print("%s: %s" % (name, lines[0] if lines else
                                  "exit status %d" % proc.returncode))
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(tile_opt) + os.pathsep + env["PATH"]
        for number, script in enumerate(shells, 1):
            proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script],
                                  cwd=scratch, env=env, capture_output=True,
                                  text=True)
            if proc.returncode == 0:
                print("sh block %d: ok" % number)
            else:
                ok = False
                print("sh block %d: failed (%d)\n%s%s" %
                      (number, proc.returncode, proc.stdout, proc.stderr))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
