#!/usr/bin/env python3
"""Grouped (MoE) GEMM check and benchmark, run on the GPU machine from
.gpu/grouped_gemm/ (build.sh).

Our kernel (examples/grouped_gemm/grouped_gemm.mlir: for each group g,
C[off_g:off_g+M_g] = A[off_g:off_g+M_g] @ B[g]^T, bf16 in, f32 accumulation,
bf16 out; the counts M_g int32 in device memory) against, in the same run:
  grouped_mm  torch._grouped_mm(A, B.transpose(1, 2), offs=cumsum(counts)
              as int32 on the device) (PyTorch's grouped GEMM);
  loop        a Python loop of torch.mm over the groups (cuBLAS; the counts
              read on the host once, outside the timing).

Check: per group against an f32 reference (bf16 inputs widened to f32, TF32
off): max |C_g - ref_g| <= TOL * max |ref_g|; output rows outside every group
must keep their NaN fill. Timing: CUDA events around each call on one
stream, warm-up then the median of 20 calls per round, 3 rounds alternating
the contenders (each round starting one later, timing.alternate); TFLOP/s = 2 sum_g M_g N K / time.

    python3 bench/GroupedGemm/bench.py [--dir .gpu/grouped_gemm] [--json OUT]
                                       [--check-only]
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

TOL = 8e-3  # bf16 output: rounding is 2^-9 relative (bench/Gemm's TOL_BF16)
ROUNDS = 3
TOKENS = 16384

# (name, T, N, K, counts): counts sum to at most T; rows past the sum are
# outside every group.
CHECK_CASES = [
    ("3 groups 0,1,130", 131, 256, 128, [0, 1, 130]),
    ("4 groups 200,0,77,300", 577, 512, 256, [200, 0, 77, 300]),
    ("3 groups, rows past the sum", 100, 256, 64, [5, 0, 64]),
    ("1 group", 300, 768, 512, [300]),
    ("8 groups, empty last", 1000, 1024, 1024, [129, 127, 1, 0, 256, 383, 104, 0]),
    ("8 groups, N not of 256", 700, 384, 192, [100] * 7),
    # 190 tiles: a persistent CTA walks two, across groups (its map pointed
    # at another group's rows while its previous store may be in flight).
    ("9 groups, more tiles than SMs", 4600, 1280, 192,
     [700, 0, 1, 1200, 129, 0, 900, 1000, 300]),
]


class MemRef3(C.Structure):
    _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                ("offset", C.c_int64), ("sizes", C.c_int64 * 3),
                ("strides", C.c_int64 * 3)]


def memref3(t):
    p = t.data_ptr()
    return MemRef3(p, p, 0, tuple(t.shape), tuple(t.stride()))


class Tile:
    """grouped_gemm*.so's async entry on torch's current stream."""

    def __init__(self, folder, lib):
        self.rt = C.CDLL(os.path.join(folder, "libtile_runtime.so"), mode=C.RTLD_GLOBAL)
        self.rt.tileRuntimeConsumeStatus.restype = C.c_int32
        self.rt.tileRuntimeLastError.restype = C.c_char_p
        self.rt.tileRuntimeLaunchVersionCount.restype = C.c_int64
        self.rt.tileRuntimeLaunchVersionCount.argtypes = [C.c_int32]
        self.name = lib[:-3]
        self.lib = C.CDLL(os.path.join(folder, lib))
        self.fn = self.lib._mlir_ciface_grouped_gemm_async
        self.fn.argtypes = [C.c_void_p] * 5
        self.fn.restype = C.c_void_p

    def status(self):
        s = self.rt.tileRuntimeConsumeStatus()
        if s != 0:
            raise RuntimeError(self.rt.tileRuntimeLastError().decode())

    def prepare(self, A, B, Cout, counts):
        descs = [memref(A), memref3(B), memref(Cout), memref(counts)]
        ptrs = [C.addressof(d) for d in descs]
        stream = C.c_void_p(torch.cuda.current_stream().cuda_stream)

        def run():
            self.fn(*ptrs, stream)
        run.keep = descs
        return run


def inputs(T, N, K, G, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.randn(T, K, device="cuda", generator=g).to(torch.bfloat16)
    B = torch.randn(G, N, K, device="cuda", generator=g).to(torch.bfloat16)
    return A, B


def offsets(counts):
    offs, o = [], 0
    for m in counts:
        offs.append(o)
        o += m
    return offs


def check_output(Cout, A, B, counts):
    """The largest per-group relative error, and whether rows outside every
    group kept their NaN fill."""
    torch.backends.cuda.matmul.allow_tf32 = False
    worst = 0.0
    offs = offsets(counts)
    for g, (o, m) in enumerate(zip(offs, counts)):
        if m == 0:
            continue
        ref = A[o:o + m].float() @ B[g].float().T
        err = ((Cout[o:o + m].float() - ref).abs().max()
               / ref.abs().max().clamp_min(1e-30)).item()
        if math.isnan(err):
            err = float("inf")
        worst = max(worst, err)
    rest = Cout[sum(counts):]
    untouched = bool(torch.isnan(rest.float()).all().item()) if rest.numel() else True
    return worst, untouched


def uniform(T, G):
    return [T // G + (1 if g < T % G else 0) for g in range(G)]


def skewed(T, G):
    """Counts proportional to 1..G, summing to T."""
    total = G * (G + 1) // 2
    counts = [T * (g + 1) // total for g in range(G)]
    counts[-1] += T - sum(counts)
    return counts


BENCH_CASES = [
    ("8 experts uniform", TOKENS, 14336, 4096, uniform(TOKENS, 8)),
    ("8 experts skewed 1..8", TOKENS, 14336, 4096, skewed(TOKENS, 8)),
    ("64 experts uniform", TOKENS, 2048, 7168, uniform(TOKENS, 64)),
    ("64 experts skewed 1..64", TOKENS, 2048, 7168, skewed(TOKENS, 64)),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/grouped_gemm")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check-only", action="store_true")
    args = ap.parse_args()
    libs = sorted(f for f in os.listdir(args.dir)
                  if f.startswith("grouped_gemm") and f.endswith(".so"))
    tiles = [Tile(args.dir, lib) for lib in libs]
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "check": [], "bench": []}
    print(f"device {results['device']}, torch {torch.__version__}")
    print(f"check: per group max |C - ref| / max |ref| <= {TOL} (ref: f32 GEMM "
          "of the bf16 inputs, TF32 off); rows outside the groups keep NaN")
    ok = True
    have_grouped_mm = hasattr(torch, "_grouped_mm")
    for i, (name, T, N, K, counts) in enumerate(CHECK_CASES):
        G = len(counts)
        A, B = inputs(T, N, K, G, i)
        dcounts = torch.tensor(counts, device="cuda", dtype=torch.int32)
        for t in tiles:
            Cout = torch.full((T, N), float("nan"), device="cuda", dtype=torch.bfloat16)
            t.prepare(A, B, Cout, dcounts)()
            torch.cuda.synchronize()
            t.status()
            err, untouched = check_output(Cout, A, B, counts)
            good = err <= TOL and untouched
            ok &= good
            print(f"  {'PASS' if good else 'FAIL'} {t.name} {name} (T={T} N={N} "
                  f"K={K} counts={counts}): max error {err:.2e}, rows outside "
                  f"{'untouched' if untouched else 'WRITTEN'}")
            results["check"].append({"lib": t.name, "case": name, "T": T, "N": N,
                                     "K": K, "counts": counts, "error": err,
                                     "untouched": untouched, "pass": good})
    versions = (tiles[0].rt.tileRuntimeLaunchVersionCount(0),
                tiles[0].rt.tileRuntimeLaunchVersionCount(1))
    print(f"  launches: TMA version {versions[0]}, fallback {versions[1]}")
    results["versions"] = versions
    if args.check_only:
        print(f"SUMMARY check {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1

    print(f"TFLOP/s = 2 sum(M_g) N K / time (CUDA events, 20 calls per round, "
          f"{ROUNDS} alternating rounds, median)")
    for name, T, N, K, counts in BENCH_CASES:
        G = len(counts)
        A, B = inputs(T, N, K, G, 7)
        dcounts = torch.tensor(counts, device="cuda", dtype=torch.int32)
        offs = torch.cumsum(dcounts, 0, dtype=torch.int32)
        flops = 2.0 * sum(counts) * N * K
        outs = {t.name: torch.empty(T, N, device="cuda", dtype=torch.bfloat16)
                for t in tiles}
        contenders = [(t.name, t.prepare(A, B, outs[t.name], dcounts)) for t in tiles]
        Bt = B.transpose(1, 2)  # [G, K, N], K-major: what _grouped_mm takes
        row = {"case": name, "T": T, "N": N, "K": K, "G": G, "counts": counts}
        if have_grouped_mm:
            try:
                gm = torch._grouped_mm(A, Bt, offs=offs, out_dtype=torch.bfloat16)
                torch.cuda.synchronize()
                gerr, _ = check_output(gm, A, B, counts)
                row["grouped_mm_error"] = gerr
                contenders.append(("grouped_mm", lambda: torch._grouped_mm(
                    A, Bt, offs=offs, out_dtype=torch.bfloat16)))
            except (RuntimeError, TypeError) as e:
                print(f"  torch._grouped_mm failed: {e}")
                row["grouped_mm_failed"] = str(e)
        Cl = torch.empty(T, N, device="cuda", dtype=torch.bfloat16)
        pieces = [(A[o:o + m], B[g].T, Cl[o:o + m])
                  for g, (o, m) in enumerate(zip(offsets(counts), counts)) if m]

        def loop():
            for a, b, c in pieces:
                torch.mm(a, b, out=c)
        contenders.append(("loop", loop))
        times = alternate(contenders, ROUNDS, warm=5)
        for t in tiles:
            t.status()
        for n in times:
            ms = statistics.median(times[n])
            row[n] = {"ms": ms, "tflops": flops / ms / 1e9,
                      "rounds_ms": times[n]}
        for t in tiles:
            err, _ = check_output(outs[t.name], A, B, counts)
            row[t.name]["error"] = err
        lerr, _ = check_output(Cl, A, B, counts)
        row["loop"]["error"] = lerr
        if "grouped_mm" in row:
            row["grouped_mm"]["error"] = row["grouped_mm_error"]
        results["bench"].append(row)
        parts = ", ".join(f"{n} {row[n]['tflops']:.0f} ({row[n]['ms']:.3f} ms, "
                          f"err {row[n].get('error', float('nan')):.1e})"
                          for n in times)
        print(f"  {name} (T={T} N={N} K={K}): {parts}")
    # Geometric means of our best kernel over each contender.
    best = {}
    for row in results["bench"]:
        ours = max((t.name for t in tiles), key=lambda n: row[n]["tflops"])
        row["ours_best"] = ours
        for other in ("grouped_mm", "loop"):
            if other in row:
                best.setdefault(other, []).append(
                    row[ours]["tflops"] / row[other]["tflops"])
        for t in tiles:
            best.setdefault(f"{t.name}/grouped_mm", []).append(
                row[t.name]["tflops"] / row["grouped_mm"]["tflops"]
                if "grouped_mm" in row else float("nan"))
    results["geomean"] = {k: math.exp(sum(map(math.log, v)) / len(v))
                          for k, v in best.items() if all(x > 0 for x in v)}
    print("SUMMARY check " + ("ok" if ok else "FAILED") + "; " + "; ".join(
        f"{r['case']}: ours({r['ours_best']}) {r[r['ours_best']]['tflops']:.0f}"
        + "".join(f" {n} {r[n]['tflops']:.0f}" for n in ("grouped_mm", "loop") if n in r)
        for r in results["bench"]))
    print("SUMMARY geomean ours/other: " + ", ".join(
        f"{k} {v:.3f}" for k, v in results["geomean"].items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
