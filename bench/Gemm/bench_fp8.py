#!/usr/bin/env python3
"""FP8 GEMM benchmark and check, run on the GPU machine from .gpu/gemm/
(build.sh builds gemm_fp8*.so from `gen_gemm.py --fp8`).

Ours: C = scale_a * scale_b * (A @ Bt^T), A (M x K) and Bt (N x K) e4m3,
K-major, f32 accumulation in the tensor cores, per-tensor f32 scales read
from device memory, bf16 output. Against torch._scaled_mm (cuBLASLt FP8, the
same operands: mat2 = Bt.T, column-major) with use_fast_accum off and on, in
the same run.

Check: max |C - ref| <= TOL * max |ref|, ref the f32 GEMM of the e4m3 values
(widened exactly) times the scales, TF32 off; bf16 output rounding is
2^-9 relative. Timing as bench.py: CUDA events, 20 launches per round,
alternating rounds, median; TFLOP/s = 2 M N K / time.

    python3 bench/Gemm/bench_fp8.py [--dir .gpu/gemm] [--json OUT] [--shapes ...]
"""
import argparse
import ctypes as C
import json
import math
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from memrefs import memref  # noqa: E402
from timing import alternate  # noqa: E402
from bench import (Workspace, copy_tbps, least_bytes, refused,  # noqa: E402
                   takes_workspace)

TOL = 1e-2
ROUNDS = 3
CHECK_SHAPES = [(128, 256, 128), (200, 136, 144), (1000, 1000, 1024),
                (129, 264, 528), (4096, 4096, 4096), (256, 384, 8192),
                # M = 1, K below one stage, split-K in 3 shares with edges
                (1, 4096, 4096), (300, 520, 64), (200, 1000, 3072),
                # stream-K: every tile shared; 3 k-steps a tile; a partial
                # last wave of 104 tiles
                (1152, 3840, 1024), (2000, 4000, 272), (4000, 4000, 4000),
                # one per kernel of the FP8 chooser (--choose --fp8
                # --persistent --swizzle-c --by-waves), edge tiles in each:
                # gemm, gemm_n192, gemm_n128
                (2000, 2000, 208), (3000, 5000, 208), (256, 8192, 144),
                # rows of 1000 and 1001 bytes, not 16-byte aligned: the
                # chooser pads them into aligned copies (gemm_pad_k), a
                # single kernel runs its fallback version
                (2000, 2000, 1000), (129, 264, 1001),
                # C's rows of 2002 and 514 bytes: the chooser's kernel whose
                # consumer threads copy C (gemm_cthreads)
                (300, 1001, 256), (129, 257, 528),
                # empty problems: no C, and no K (C is zeros)
                (0, 256, 256), (256, 0, 256), (256, 256, 0)]
BENCH_SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (4096, 14336, 4096),
                (14336, 4096, 4096), (2048, 2048, 2048), (256, 8192, 8192),
                (64, 8192, 8192)]


class Fp8Gemm:
    """A gemm_fp8*.so's async entry on torch's current stream."""

    def __init__(self, folder, lib):
        self.rt = C.CDLL(os.path.join(folder, "libtile_runtime.so"),
                         mode=C.RTLD_GLOBAL)
        self.rt.tileRuntimeConsumeStatus.restype = C.c_int32
        self.rt.tileRuntimeLastError.restype = C.c_char_p
        self.name = lib
        self.fn = C.CDLL(os.path.join(folder, lib))._mlir_ciface_gemm_async
        # Split-K (--split-k, also in --choose): the workspace (partials,
        # counters) follows the scales.
        self.workspace = Workspace() if takes_workspace(lib) else None
        self.fn.argtypes = [C.c_void_p] * (8 if self.workspace else 6)
        self.fn.restype = C.c_void_p

    def status(self):
        if self.rt.tileRuntimeConsumeStatus() != 0:
            raise RuntimeError(self.rt.tileRuntimeLastError().decode())

    def prepare(self, A, Bt, Cout, sa, sb):
        descs = [memref(t) for t in (A, Bt, Cout, sa, sb)]
        if self.workspace:
            descs += [memref(t) for t in self.workspace.get(A.shape[0],
                                                            Bt.shape[0])]
        ptrs = [C.addressof(d) for d in descs]
        stream = C.c_void_p(torch.cuda.current_stream().cuda_stream)

        def run():
            self.fn(*ptrs, stream)
        run.keep = descs
        return run


def inputs(M, N, K, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = (torch.randn(M, K, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn)
    Bt = (torch.randn(N, K, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn)
    sa = torch.tensor([0.5], device="cuda")
    sb = torch.tensor([0.25], device="cuda")
    return A, Bt, sa, sb


def reference(A, Bt, sa, sb):
    torch.backends.cuda.matmul.allow_tf32 = False
    return (A.float() @ Bt.float().T) * (sa * sb)


def error(Cout, ref):
    """max |C - ref| / max |ref| (where ref is all zeros, as for K = 0,
    any C but zeros fails; an empty C has no error)."""
    if Cout.numel() == 0:
        return 0.0
    return ((Cout.float() - ref).abs().max()
            / ref.abs().max().clamp_min(1e-30)).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/gemm")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--shapes", default=None, metavar="MxNxK,...")
    ap.add_argument("--check-shapes", default=None, metavar="MxNxK,...",
                    help="the checked shapes instead of the built-in list")
    args = ap.parse_args()
    libs = sorted(f for f in os.listdir(args.dir)
                  if f.startswith("gemm_fp8") and f.endswith(".so"))
    kernels = [Fp8Gemm(args.dir, lib) for lib in libs]
    results = {"check": [], "bench": []}
    ok = True
    print(f"device {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"check: max |C - ref| / max |ref| <= {TOL} (ref: f32 GEMM of the "
          "e4m3 values times the scales, TF32 off)")
    check_shapes = CHECK_SHAPES
    if args.check_shapes:
        check_shapes = [tuple(int(x) for x in shape.split("x"))
                        for shape in args.check_shapes.split(",")]
    for i, (M, N, K) in enumerate(check_shapes):
        A, Bt, sa, sb = inputs(M, N, K, i)
        ref = reference(A, Bt, sa, sb)
        for t in kernels:
            Cout = torch.full((M, N), float("nan"), device="cuda",
                              dtype=torch.bfloat16)
            t.prepare(A, Bt, Cout, sa, sb)()
            torch.cuda.synchronize()
            if refused(t, (M, N, K), results):
                ok = False
                continue
            err = error(Cout, ref)
            good = err <= TOL
            ok &= good
            print(f"  {'PASS' if good else 'FAIL'} {t.name} {M}x{N}x{K}: "
                  f"relative max error {err:.2e}")
            results["check"].append({"lib": t.name, "shape": [M, N, K],
                                     "error": err, "pass": good})
    if args.check_only:
        print(f"SUMMARY fp8 check {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1
    shapes = BENCH_SHAPES
    if args.shapes:
        shapes = [tuple(int(d) for d in s.split("x"))
                  for s in args.shapes.split(",")]
    copy = copy_tbps()
    results["copy_tbps"] = copy
    print(f"memory: 2 GiB device-to-device copy {copy:.2f} TB/s (read + write)")
    print(f"TFLOP/s (CUDA events, 20 launches per round, {ROUNDS} alternating "
          "rounds, median)")
    for M, N, K in shapes:
        A, Bt, sa, sb = inputs(M, N, K, 7)
        flops = 2.0 * M * N * K
        Cout = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        B = Bt.T

        def scaled(fast):
            return lambda: torch._scaled_mm(A, B, scale_a=sa, scale_b=sb,
                                            out_dtype=torch.bfloat16,
                                            use_fast_accum=fast)
        contenders = [(t.name, t.prepare(A, Bt, Cout, sa, sb)) for t in kernels]
        try:
            scaled(False)()
            peers = ["cublaslt", "cublaslt_fast_accum"]
            contenders += [("cublaslt", scaled(False)),
                           ("cublaslt_fast_accum", scaled(True))]
        except RuntimeError as e:
            # torch._scaled_mm takes dimensions divisible by 16 only.
            print(f"  {M}x{N}x{K}: cuBLASLt declines ({e}); ours only")
            peers = []
        times = alternate(contenders, ROUNDS, warm=5, hide_host=True)
        for t in kernels:
            t.status()
        ref = reference(A, Bt, sa, sb)
        row = {"shape": [M, N, K]}
        for n in times:
            ms = statistics.median(times[n])
            row[n] = {"ms": ms, "tflops": flops / ms / 1e9}
        for t in kernels:
            t.prepare(A, Bt, Cout, sa, sb)()
            torch.cuda.synchronize()
            row[t.name]["error"] = error(Cout, ref)
        for base in peers:
            row[base]["error"] = error(scaled(base == "cublaslt_fast_accum")(), ref)
        results["bench"].append(row)
        print(f"  {M}x{N}x{K}: " + ", ".join(
            f"{n} {row[n]['tflops']:.0f} (err {row[n]['error']:.1e})"
            for n in times))
        # Against the memory ceiling: the fewest bytes (e4m3 operands, bf16
        # output) over the best time of ours and of cuBLASLt.
        least = least_bytes(M, N, K, 1, 2)
        row["least_bytes"] = least
        ours = min(row[t.name]["ms"] for t in kernels)
        theirs = (f", cuBLASLt at {least / row['cublaslt']['ms'] / 1e9:.2f}"
                  if peers else "")
        print(f"    fewest bytes {least / 1e6:.0f} MB: ours at "
              f"{least / ours / 1e9:.2f} TB/s{theirs} (copy {copy:.2f})")
    # Ours (the best kernel per shape) against cuBLASLt FP8, both
    # accumulation modes.
    names = [t.name for t in kernels]
    for base in ("cublaslt", "cublaslt_fast_accum"):
        ratios = [max(r[n]["tflops"] for n in names) / r[base]["tflops"]
                  for r in results["bench"] if base in r]
        if ratios:
            geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            print(f"best tile kernel / {base} over {len(ratios)} shapes: "
                  f"geometric mean {geomean:.3f}, lowest {min(ratios):.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print(f"SUMMARY fp8 check {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
