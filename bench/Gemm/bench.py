#!/usr/bin/env python3
"""GEMM benchmark and check, run on the GPU machine from .gpu/gemm/ (build.sh).

Our kernel (examples/gemm/gemm.mlir: bf16 inputs, f32 accumulation, f32
output; B passed as Bt, N x K row-major) against torch.matmul (cuBLAS, bf16
output) and Triton's matmul (tl.dot, autotuned over Hopper configurations,
f32 output), in the same run.

Check: every result against a reference computed the same way (bf16 inputs
widened to f32, an f32 GEMM with TF32 off): max |C - ref| <= TOL * max |ref|.
Shapes include edge tiles in M, N and K (out-of-bounds fill on the loads,
clipped stores). Timing: CUDA events around each launch on one stream, warm-up
then a median, the GPU held in a spin while the host queues the timed launches
(timing.event_ms's hide_host); TFLOP/s = 2 M N K / time. Each shape also
prints the fewest bytes it must move (A, Bt read once, C written once) over
our best time and cuBLAS's, against a 2 GiB device-to-device copy timed in
the same run.

    python3 bench/Gemm/bench.py [--dir .gpu/gemm] [--json OUT] [--check-only]
                                [--shapes MxNxK,...] [--no-triton]
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
from gemm_abi import output_is_bf16  # noqa: E402
from memrefs import memref  # noqa: E402
from timing import alternate, event_ms  # noqa: E402

TOL = 1e-4
# bf16 output (gemm_bf16out*.so, torch.matmul): rounding is 2^-9 relative.
TOL_BF16 = 8e-3
ROUNDS = 3
CHECK_SHAPES = [(128, 128, 64), (64, 64, 64), (200, 136, 72), (1000, 1000, 1000),
                (129, 257, 520), (4000, 4000, 4000), (256, 384, 8192),
                # M = 1, K below one stage, few rows over a long K
                (1, 4096, 4096), (300, 520, 40), (7, 264, 4096),
                # split-K through the workspace (--choose --split-k): 2, 4
                # and 3 shares, edge tiles in M, N and K
                (256, 512, 1000), (200, 1000, 3000), (129, 520, 1544),
                # stream-K (--stream-k): 135 tiles on 132 CTAs (every tile
                # shared, shares of 16/132 over a tile), 3 k-steps a tile
                (1152, 3840, 1000), (2000, 4000, 136),
                # one per kernel of the clustered bf16 chooser (--choose
                # --bf16-out --persistent --swizzle-c --by-waves --cluster 2),
                # edge tiles and a K tail in each: gemm_single, gemm_n224,
                # gemm_n232, gemm_single_n192, gemm_n192, gemm_n128,
                # gemm_m192n192, gemm
                (2000, 2000, 200), (5000, 5000, 136), (3000, 5000, 200),
                (384, 8192, 136), (300, 14336, 72), (256, 8192, 136),
                (3000, 3000, 200), (1000, 8192, 200),
                # rows of A and Bt of 260, 72 and 2002 bytes, not 16-byte
                # aligned: the choosers pad them into aligned copies
                # (gemm_pad_k; K odd in the last); a single kernel runs its
                # fallback version (in a clustered one, B's multicast load
                # done per thread into both CTAs)
                (5000, 5000, 130), (1200, 4400, 36), (129, 264, 1001),
                # C's rows of 2002 bytes (N odd; 129 x 257 x 520 above too):
                # the choosers' kernel whose consumer threads copy C
                # (gemm_cthreads)
                (300, 1001, 200),
                # empty problems: no C (nothing launched) and no K (C is
                # zeros, over the NaN C starts as)
                (0, 256, 256), (256, 0, 256), (256, 256, 0), (300, 520, 0)]
# The suite: squares, LLM projection and MLP shapes (and transposes), small
# M against 8192 x 8192, odd sizes.
BENCH_SHAPES = [(2048, 2048, 2048), (4096, 4096, 4096), (6144, 6144, 6144),
                (8192, 8192, 8192), (4096, 14336, 4096), (4096, 4096, 14336),
                (14336, 4096, 4096), (8192, 4096, 14336),
                (16384, 1024, 4096), (64, 8192, 8192), (128, 8192, 8192),
                (256, 8192, 8192), (4000, 4000, 4000), (3000, 5000, 2000)]


def refused(kernel, shape, results):
    """Whether the runtime refused `kernel`'s launch on `shape` (its guards
    failed and it has no fallback version); if so, the check fails with the
    runtime's message, not the whole run."""
    try:
        kernel.status()
    except RuntimeError as e:
        print(f"  FAIL {kernel.name} {'x'.join(map(str, shape))}: {e}")
        results["check"].append({"lib": kernel.name, "shape": list(shape),
                                 "error": str(e), "pass": False})
        return True
    return False


class Workspace:
    """Split-K's workspace for one problem's output (kept for the last M x
    N): up to 4 f32 partials of every output tile and a counter per tile,
    zeroed once (the kernels leave the counters zero), for any tile of at
    least 64 x 64 (the 64-row kernels split too): the partials of the M x N
    output rounded up to 128 x 256 tiles, a counter per 64 x 64 tile. A
    smaller workspace makes the kernels run unsplit (their host entry checks
    it). Stream-K needs at most 3 x 132 partial 128 x 256 tiles, and only
    where there are more than 132 tiles, so it fits too."""

    MAX_SPLITS = 4

    def __init__(self):
        self.key = None
        self.buffers = None

    def get(self, M, N):
        if self.key != (M, N):
            tiles = -(-M // 128) * -(-N // 256)
            counters = -(-M // 64) * -(-N // 64)
            self.buffers = (
                torch.empty(tiles * self.MAX_SPLITS * 128 * 256,
                            device="cuda", dtype=torch.float32),
                torch.zeros(counters, device="cuda", dtype=torch.int32))
            self.key = (M, N)
        return self.buffers


def takes_workspace(lib):
    """Whether the kernels of `lib` combine partial tiles in a workspace
    (partials, counters after the scales): split-K with bf16 or FP8 output,
    and stream-K."""
    return "splitk" in lib or "streamk" in lib


class Tile:
    """gemm.so's async entry on torch's current stream."""

    def __init__(self, folder, lib="gemm.so"):
        self.rt = C.CDLL(os.path.join(folder, "libtile_runtime.so"), mode=C.RTLD_GLOBAL)
        self.rt.tileRuntimeConsumeStatus.restype = C.c_int32
        self.rt.tileRuntimeLastError.restype = C.c_char_p
        self.rt.tileRuntimeLaunchVersionCount.restype = C.c_int64
        self.rt.tileRuntimeLaunchVersionCount.argtypes = [C.c_int32]
        self.name = lib
        self.lib = C.CDLL(os.path.join(folder, lib))
        self.fn = self.lib._mlir_ciface_gemm_async
        # gen_gemm.py --bf16-out: C is bf16 and alpha (f32) follows it. The
        # module beside the library says which; without one, the name does.
        self.bf16_out = output_is_bf16(folder, lib)
        # Split-K with bf16 output (--split-k, also in --choose) and
        # stream-K: the workspace (partials, counters) follows alpha.
        self.workspace = (Workspace() if self.bf16_out and takes_workspace(lib)
                          else None)
        self.fn.argtypes = ([C.c_void_p] * 3 + [C.c_float] * self.bf16_out
                            + [C.c_void_p] * (2 if self.workspace else 0)
                            + [C.c_void_p])
        self.fn.restype = C.c_void_p
        self.tol = TOL_BF16 if self.bf16_out else TOL

    def output(self, M, N, fill=None):
        dtype = torch.bfloat16 if self.bf16_out else torch.float32
        if fill is None:
            return torch.empty(M, N, device="cuda", dtype=dtype)
        return torch.full((M, N), fill, device="cuda", dtype=dtype)

    def status(self):
        s = self.rt.tileRuntimeConsumeStatus()
        if s != 0:
            raise RuntimeError(self.rt.tileRuntimeLastError().decode())

    def prepare(self, A, Bt, Cout):
        descs = [memref(A), memref(Bt), memref(Cout)]
        if self.workspace:
            descs += [memref(t) for t in self.workspace.get(A.shape[0],
                                                            Bt.shape[0])]
        stream = C.c_void_p(torch.cuda.current_stream().cuda_stream)
        ptrs = [C.addressof(d) for d in descs]

        alpha = [C.c_float(1.0)] if self.bf16_out else []

        def run():
            self.fn(ptrs[0], ptrs[1], ptrs[2], *alpha, *ptrs[3:], stream)
        run.keep = descs
        return run


def triton_matmul():
    import triton
    import triton.language as tl

    configs = [
        triton.Config({"BM": 128, "BN": 256, "BK": 64}, num_warps=8, num_stages=3),
        triton.Config({"BM": 128, "BN": 128, "BK": 64}, num_warps=4, num_stages=4),
        triton.Config({"BM": 128, "BN": 128, "BK": 64}, num_warps=8, num_stages=4),
        triton.Config({"BM": 256, "BN": 128, "BK": 64}, num_warps=8, num_stages=3),
        triton.Config({"BM": 128, "BN": 256, "BK": 64}, num_warps=8, num_stages=4),
    ]

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
        pid_m = tl.program_id(1)
        pid_n = tl.program_id(0)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            ka = k0 + rk
            a_t = tl.load(a + rm[:, None] * K + ka[None, :],
                          mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
            b_t = tl.load(b + rn[None, :] * K + ka[:, None],
                          mask=(rn[None, :] < N) & (ka[:, None] < K), other=0.0)
            acc = tl.dot(a_t, b_t, acc)
        tl.store(c + rm[:, None] * N + rn[None, :], acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    def run_for(A, Bt, Cout):
        M, K = A.shape
        N = Bt.shape[0]

        def grid(meta):
            return (triton.cdiv(N, meta["BN"]), triton.cdiv(M, meta["BM"]))

        def run():
            kernel[grid](A, Bt, Cout, M, N, K)
        return run, kernel
    return run_for


def triton_persistent_tma():
    """Triton's strongest form of the GEMM: persistent (one program per SM
    walking the output tiles in grouped order), operands and output through
    tensor descriptors (TMA), bf16 output. Returns None where this Triton
    lacks device-side descriptors."""
    import triton
    import triton.language as tl
    if not hasattr(tl, "make_tensor_descriptor"):
        return None
    # Device-side descriptors live in a scratch buffer the launch allocates.
    triton.set_allocator(lambda size, align, stream: torch.empty(
        size, dtype=torch.int8, device="cuda"))
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    configs = [
        triton.Config({"BM": 128, "BN": 256, "BK": 64}, num_warps=8, num_stages=3),
        triton.Config({"BM": 128, "BN": 128, "BK": 64}, num_warps=8, num_stages=4),
        triton.Config({"BM": 128, "BN": 256, "BK": 64}, num_warps=8, num_stages=4),
    ]

    @triton.autotune(configs=configs, key=["M", "N", "K"])
    @triton.jit
    def kernel(a, b, c, M, N, K, SMS: tl.constexpr, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
        da = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1],
                                       block_shape=[BM, BK])
        db = tl.make_tensor_descriptor(b, shape=[N, K], strides=[K, 1],
                                       block_shape=[BN, BK])
        dc = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1],
                                       block_shape=[BM, BN])
        rows = tl.cdiv(M, BM)
        cols = tl.cdiv(N, BN)
        per_group = 8 * cols
        for tile in tl.range(tl.program_id(0), rows * cols, SMS, flatten=True):
            first = tile // per_group * 8
            height = min(rows - first, 8)
            pm = first + (tile % per_group) % height
            pn = (tile % per_group) // height
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for k0 in range(0, K, BK):
                x = da.load([pm * BM, k0])
                y = db.load([pn * BN, k0])
                acc = tl.dot(x, y.T, acc)
            dc.store([pm * BM, pn * BN], acc.to(tl.bfloat16))

    def run_for(A, Bt, Cout):
        M, K = A.shape
        N = Bt.shape[0]

        def run():
            kernel[(min(sms, triton.cdiv(M, 128) * triton.cdiv(N, 128)),)](
                A, Bt, Cout, M, N, K, sms)
        return run, kernel
    return run_for


def copy_tbps():
    """The memory ceiling: a 2 GiB device-to-device copy's rate in TB/s,
    bytes read plus bytes written (median of 3 rounds of 10 copies)."""
    x = torch.empty(1 << 30, dtype=torch.int16, device="cuda")
    y = torch.empty_like(x)
    ms = statistics.median(event_ms(lambda: y.copy_(x), reps=10, warm=2)
                           for _ in range(3))
    rate = 2 * x.numel() * x.element_size() / ms / 1e9
    del x, y
    return rate


def least_bytes(M, N, K, in_bytes, out_bytes):
    """The fewest bytes a GEMM moves through device memory: each operand
    read once, C written once."""
    return (M * K + N * K) * in_bytes + M * N * out_bytes


def reference(A, Bt):
    torch.backends.cuda.matmul.allow_tf32 = False
    return A.float() @ Bt.float().T


def error(Cout, ref):
    """max |C - ref| / max |ref| (where ref is all zeros, as for K = 0,
    any C but zeros fails; an empty C has no error)."""
    if Cout.numel() == 0:
        return 0.0
    return ((Cout.float() - ref).abs().max()
            / ref.abs().max().clamp_min(1e-30)).item()


def inputs(M, N, K, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.randn(M, K, device="cuda", generator=g).to(torch.bfloat16)
    Bt = torch.randn(N, K, device="cuda", generator=g).to(torch.bfloat16)
    return A, Bt


def tool_problem(tile, shape, seed=0):
    """For the one-library tools (profile.py, clocks.py): shape "MxNxK" as
    (M, N, K), its inputs, `tile`'s output buffer and its prepared call."""
    M, N, K = (int(d) for d in shape.split("x"))
    A, Bt = inputs(M, N, K, seed)
    Cout = tile.output(M, N)
    return (M, N, K), A, Bt, Cout, tile.prepare(A, Bt, Cout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/gemm")
    ap.add_argument("--json", default=None)
    ap.add_argument("--check-only", action="store_true",
                    help="only the correctness shapes (for compute-sanitizer)")
    ap.add_argument("--small", action="store_true",
                    help="with --check-only: shapes of at most 10 GFLOP only")
    ap.add_argument("--check-shapes", default=None, metavar="MxNxK,...",
                    help="the checked shapes instead of the built-in list "
                         "(for compute-sanitizer on chosen cases)")
    ap.add_argument("--shapes", default=None, metavar="MxNxK,...",
                    help="the timed shapes (default: "
                         + ",".join("x".join(map(str, s)) for s in BENCH_SHAPES)
                         + ")")
    ap.add_argument("--no-triton", action="store_true",
                    help="time our kernels and cuBLAS only")
    ap.add_argument("--profile", type=int, metavar="S",
                    help="only two launches of our kernel at S^3 (for ncu)")
    args = ap.parse_args()
    libs = sorted(f for f in os.listdir(args.dir)
                  if f.startswith("gemm") and f.endswith(".so")
                  and not f.startswith("gemm_fp8"))  # bench_fp8.py's
    tiles = [Tile(args.dir, lib) for lib in libs]
    tile = tiles[0]
    if args.profile:
        A, Bt = inputs(args.profile, args.profile, args.profile, 7)
        tile = tiles[-1]
        Cout = tile.output(args.profile, args.profile)
        run = tile.prepare(A, Bt, Cout)
        run()
        run()
        torch.cuda.synchronize()
        tile.status()
        return 0
    results = {"check": [], "bench": []}
    ok = True

    print(f"device {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"check: max |C - ref| / max |ref| <= {TOL} ({TOL_BF16} for bf16 "
          "output; ref: f32 GEMM of the bf16 inputs, TF32 off)")
    shapes = CHECK_SHAPES
    if args.check_shapes:
        shapes = [tuple(int(x) for x in shape.split("x"))
                  for shape in args.check_shapes.split(",")]
    if args.small:
        shapes = [s for s in shapes if 2 * s[0] * s[1] * s[2] <= 1e10]
    for i, (M, N, K) in enumerate(shapes):
        A, Bt = inputs(M, N, K, i)
        ref = reference(A, Bt)
        for t in tiles:
            Cout = t.output(M, N, float("nan"))
            t.prepare(A, Bt, Cout)()
            torch.cuda.synchronize()
            if refused(t, (M, N, K), results):
                ok = False
                continue
            err = error(Cout, ref)
            good = err <= t.tol
            ok &= good
            print(f"  {'PASS' if good else 'FAIL'} {t.name} {M}x{N}x{K}: "
                  f"relative max error {err:.2e}")
            results["check"].append({"lib": t.name, "shape": [M, N, K],
                                     "error": err, "pass": good})
    versions = (tile.rt.tileRuntimeLaunchVersionCount(0),
                tile.rt.tileRuntimeLaunchVersionCount(1))
    print(f"  launches: TMA version {versions[0]}, fallback {versions[1]}")
    if args.check_only:
        print(f"SUMMARY check {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1

    tri = tri_tma = None
    if not args.no_triton:
        tri = triton_matmul()
        try:
            tri_tma = triton_persistent_tma()
        except Exception as e:  # noqa: BLE001 - report, do not fail the run
            print(f"  Triton persistent TMA kernel unavailable: {e}")
    copy = copy_tbps()
    results["copy_tbps"] = copy
    print(f"memory: 2 GiB device-to-device copy {copy:.2f} TB/s (read + write)")
    print(f"TFLOP/s (CUDA events, 20 launches per round, {ROUNDS} alternating rounds, median)")
    bench_shapes = BENCH_SHAPES
    if args.shapes:
        bench_shapes = [tuple(int(d) for d in shape.split("x"))
                        for shape in args.shapes.split(",")]
    for M, N, K in bench_shapes:
        A, Bt = inputs(M, N, K, 7)
        flops = 2.0 * M * N * K
        outs = {t.name: t.output(M, N) for t in tiles}
        row = {"shape": [M, N, K]}
        ref = reference(A, Bt)
        B = Bt.T
        Ct = torch.empty(M, N, device="cuda")
        run_triton = None
        if tri:
            run_triton, kernel = tri(A, Bt, Ct)
            run_triton()  # autotune outside the timed rounds
        Ctt = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        run_tma = None
        if tri_tma:
            try:
                run_tma, kernel_tma = tri_tma(A, Bt, Ctt)
                run_tma()
            except Exception as e:  # noqa: BLE001
                print(f"  Triton persistent TMA kernel failed: {e}")
                run_tma = tri_tma = None
        contenders = [(t.name, t.prepare(A, Bt, outs[t.name])) for t in tiles]
        contenders.append(("cublas", lambda: torch.matmul(A, B)))
        if run_triton:
            contenders.append(("triton", run_triton))
        # cuBLAS with f32 output, where this torch has out_dtype.
        try:
            torch.mm(A, B, out_dtype=torch.float32)
            contenders.append(("cublas_f32", lambda: torch.mm(
                A, B, out_dtype=torch.float32)))
        except (TypeError, RuntimeError):
            pass
        if run_tma:
            contenders.append(("triton_tma", run_tma))
        # Each result is the median over all the alternating rounds.
        times = alternate(contenders, ROUNDS, warm=5, hide_host=True)
        for t in tiles:
            t.status()
        for n in times:
            ms = statistics.median(times[n])
            row[n] = {"ms": ms, "tflops": flops / ms / 1e9}
        for t in tiles:
            t.prepare(A, Bt, outs[t.name])()
            torch.cuda.synchronize()
            row[t.name]["error"] = error(outs[t.name], ref)
        row["cublas"]["error"] = error(torch.matmul(A, B).float(), ref)
        if run_triton:
            row["triton"]["error"] = error(Ct, ref)
            row["triton"]["config"] = str(kernel.best_config)
        if run_tma:
            row["triton_tma"]["error"] = error(Ctt.float(), ref)
            row["triton_tma"]["config"] = str(kernel_tma.best_config)
        best = max(libs, key=lambda n: row[n]["tflops"])
        row["tile"] = dict(row[best], lib=best)
        results["bench"].append(row)
        ratio = row["tile"]["tflops"] / row["cublas"]["tflops"]
        tr = row.get("triton", {}).get("tflops")
        for n in libs:
            print(f"    {n}: {row[n]['tflops']:.0f} TFLOP/s (err {row[n]['error']:.1e})")
        others = "".join(
            f", {n} {row[n]['tflops']:.0f}" for n in ("cublas_f32", "triton_tma")
            if n in row)
        print(f"  {M}x{N}x{K}: tile ({best}) {row['tile']['tflops']:.0f} "
              f"(err {row['tile']['error']:.1e}), cuBLAS bf16 {row['cublas']['tflops']:.0f} "
              f"(err {row['cublas']['error']:.1e}), Triton "
              f"{tr if tr is None else round(tr)} "
              f"({row.get('triton', {}).get('config')}){others}; "
              f"tile / cuBLAS {ratio:.3f}")
        # Against the memory ceiling: the fewest bytes (bf16 operands and
        # output) over each time.
        least = least_bytes(M, N, K, 2, 2)
        row["least_bytes"] = least
        print(f"    fewest bytes {least / 1e6:.0f} MB: ours at "
              f"{least / row['tile']['ms'] / 1e9:.2f} TB/s, cuBLAS at "
              f"{least / row['cublas']['ms'] / 1e9:.2f} (copy {copy:.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    ratios = [r["tile"]["tflops"] / r["cublas"]["tflops"]
              for r in results["bench"]]
    if ratios:
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"tile / cuBLAS (bf16 out) over {len(ratios)} shapes: geometric "
              f"mean {geomean:.3f}, lowest {min(ratios):.3f}")
    print(f"SUMMARY check {'ok' if ok else 'FAILED'}; " + "; ".join(
        "x".join(map(str, r["shape"])) +
        f" tile {r['tile']['tflops']:.0f} cuBLAS {r['cublas']['tflops']:.0f}"
        for r in results["bench"]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
