#!/usr/bin/env python3
"""Cold and warm `tile_mlir.compile` of the reference demo, in process.

cold: an empty cache folder each round (parse, pipeline, PTX and cubin,
      host object, link);
warm: the compile cache on disk hit in a fresh state (the in-process memo
      cleared: read meta.json and the PTX, dlopen the library);
memo: the same call again in one process.

    /usr/bin/python3 bench/Python/compile_bench.py [--rounds N]
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import tile_mlir  # noqa: E402
from tile_mlir import compiler  # noqa: E402

DEMO = os.path.join(ROOT, "examples", "copy_async_tma.mlir")


def timed(fn, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="tile-compile-bench-")
    os.environ["TILE_MLIR_CACHE_DIR"] = root
    tile_mlir.compile(DEMO)  # load the libraries once

    def cold():
        compiler._memo.clear()
        shutil.rmtree(root)
        os.makedirs(root)
        tile_mlir.compile(DEMO)

    def warm():
        compiler._memo.clear()
        tile_mlir.compile(DEMO)

    def memo():
        tile_mlir.compile(DEMO)

    print("tile_mlir.compile of examples/copy_async_tma.mlir, %d rounds:"
          % args.rounds)
    for name, fn, rounds, unit, scale in (
            ("cold", cold, args.rounds, "ms", 1e3),
            ("warm (disk cache)", warm, args.rounds * 10, "ms", 1e3),
            ("memo (same process)", memo, args.rounds * 100, "us", 1e6)):
        med, low, high = timed(fn, rounds)
        print("  %-20s median %8.2f %s  (min %.2f, max %.2f)"
              % (name, med * scale, unit, low * scale, high * scale))
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
