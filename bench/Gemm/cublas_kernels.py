#!/usr/bin/env python3
"""The kernel cuBLAS runs for torch.matmul (bf16 in, bf16 out) per shape,
with its time: the tile shape in its name is what the choice per problem
is compared against (docs/gemm.md).

    python3 bench/Gemm/cublas_kernels.py --shapes MxNxK,...
"""
import argparse

import torch
from torch.profiler import ProfilerActivity, profile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", required=True)
    a = ap.parse_args()
    for shape in a.shapes.split(","):
        M, N, K = (int(d) for d in shape.split("x"))
        A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        Bt = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        for _ in range(3):
            torch.matmul(A, Bt.t())
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                torch.matmul(A, Bt.t())
            torch.cuda.synchronize()
        for e in prof.key_averages():
            if e.device_type.name == "CUDA" and e.count >= 5:
                us = e.device_time_total / e.count
                print(f"{shape}: {e.key} {us:.1f} us, "
                      f"{2 * M * N * K / us / 1e6:.0f} TFLOP/s", flush=True)


if __name__ == "__main__":
    main()
