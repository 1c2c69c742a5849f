#!/usr/bin/env python3
"""One call of a tile GEMM kernel and one of cuBLAS (torch.matmul, bf16
out) per shape, after warm-up calls, for Nsight Compute to profile side by
side:

    ncu --clock-control none -k 'regex:gemm|nvjet|xmma' --launch-skip-before-match 0 \\
        --section SpeedOfLight --section WarpStateStats ... \\
        python3 bench/Gemm/profile.py --dir DIR --lib gemm_X.so --shapes MxNxK,...

Each kernel runs WARM times first (unprofiled only if the ncu filter skips
them: pass --launch-skip to ncu), then once more; the output check is
bench.py's."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--warm", type=int, default=2)
    a = ap.parse_args()
    tile = bench.Tile(a.dir, a.lib)
    for shape in a.shapes.split(","):
        _, A, Bt, Cout, run = bench.tool_problem(tile, shape)
        for _ in range(a.warm + 1):
            run()
        tile.status()
        for _ in range(a.warm + 1):
            ref = torch.matmul(A, Bt.t())
        torch.cuda.synchronize()
        err = bench.error(Cout, ref.float())
        print(f"{shape}: relative max error {err:.2e}", flush=True)


if __name__ == "__main__":
    main()
