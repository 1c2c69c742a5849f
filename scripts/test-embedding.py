#!/usr/bin/env python3
"""Runs docs/embedding.md: every ```sh block, in order, in one scratch folder
(SRC = the checkout, BUILD = the build folder, PREFIX = a fresh install
prefix), each block one test that fails on a non-zero exit status (the blocks
end in `grep -o`, so missing output fails them). After the install block it
also checks the installed layout. The last line is
`N passed, N failed, N skipped`.

Usage: test-embedding.py --build BUILD [--work DIR]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

# What the install must hold (docs/embedding.md, "Install").
INSTALLED = [
    "include/tile/InitAllTile.h",
    "include/tile/Dialect/Tile/IR/TileOps.h",
    "include/tile/Dialect/Tile/IR/TileOps.h.inc",
    "include/tile/Dialect/Tile/IR/TileOps.td",
    "include/tile/Transforms/Passes.h.inc",
    "include/tile/Pipelines/Pipelines.h",
    "include/tile/Support/RuleIds.def",
    "include/tile/Runtime/TileRuntime.h",
    "include/tile-c/Dialects.h",
    "lib/libMLIRTile.a",
    "lib/libMLIRTileTransforms.a",
    "lib/libMLIRTilePipelines.a",
    "lib/libTileRegistration.a",
    "lib/libTileLayout.a",
    "lib/libTileTMA.a",
    "lib/libtile_runtime.so",
    "lib/libTileCAPI.so",
    "lib/TilePlugin.so",
    "lib/cmake/TileMLIR/TileMLIRConfig.cmake",
    "lib/cmake/TileMLIR/TileMLIRTargets.cmake",
    "bin/tile-opt",
    "bin/tile-compile",
    "bin/tile-lsp-server",
    "share/doc/tile-mlir/embedding.md",
    "share/tile-mlir/examples/copy_async_tma.mlir",
]


def shell_blocks(markdown):
    return re.findall(r"^```sh\n(.*?)^```", markdown, re.M | re.S)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--work", default=None,
                        help="scratch folder (default BUILD/embedding-test)")
    args = parser.parse_args()
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(args.build)
    work = os.path.abspath(args.work or os.path.join(build, "embedding-test"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, SRC=src, BUILD=build,
               PREFIX=os.path.join(work, "prefix"))
    # The consumer compiles one file; ccache (when present) makes a rerun
    # with the same sources a cache hit. CMake reads the launcher from here.
    if shutil.which("ccache"):
        env.setdefault("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
        env.setdefault("CMAKE_C_COMPILER_LAUNCHER", "ccache")
    with open(os.path.join(src, "docs", "embedding.md")) as f:
        blocks = shell_blocks(f.read())

    passed = failed = 0
    for i, block in enumerate(blocks, 1):
        first = block.strip().splitlines()[0]
        start = time.time()
        proc = subprocess.run(["bash", "-euo", "pipefail", "-c", block],
                              cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        ok = proc.returncode == 0
        print("%s: docs/embedding.md block %d (%s) [%.1f s]"
              % ("PASS" if ok else "FAIL", i, first, time.time() - start))
        if not ok:
            print(proc.stdout[-6000:])
        passed, failed = passed + ok, failed + (not ok)
        if i == 1:
            missing = [p for p in INSTALLED
                       if not os.path.exists(os.path.join(env["PREFIX"], p))]
            print("%s: installed layout%s" % (
                "FAIL" if missing else "PASS",
                (": missing " + ", ".join(missing)) if missing else ""))
            passed, failed = passed + (not missing), failed + bool(missing)
    if not blocks:
        print("FAIL: no sh blocks in docs/embedding.md")
        failed += 1
    print("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
