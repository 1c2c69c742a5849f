#!/usr/bin/env python3
"""Bandwidth benchmark, run on the GPU machine from .gpu/bench/ (build.sh).

Copies a 1 GiB f16 matrix (16384 x 32768) with: our TMA kernels (copy.so,
written in the tile dialect, launched through their _mlir_ciface_ entries on
torch's current stream), cudaMemcpyAsync device-to-device, torch `copy_`,
and a Triton TMA copy kernel (host tensor descriptors). Every contender is
timed the same way: warm-up, then REPS launches back to back on one stream,
each between two CUDA events; the median; bandwidth = (bytes read + bytes
written) / time. Each result is checked bit-exact against the source after a
poisoned run and again after timing.

Then the host overhead of one launch of a small copy (8x256 f16): our entry
with its tensor maps cached (called from C through hostloop.so, and from
Python through ctypes), Triton with descriptors reused, torch copy_.

    python3 bench/Bandwidth/bench.py [--dir .gpu/bench] [--json OUT]
"""
import argparse
import ctypes as C
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

M, N = 16384, 32768


@triton.jit
def tma_copy(src, dst, BM: tl.constexpr, BN: tl.constexpr):
    """One BM x BN tile per program: TMA load into registers, TMA store."""
    m = tl.program_id(1) * BM
    n = tl.program_id(0) * BN
    dst.store([m, n], src.load([m, n]))
REPS, WARM = 100, 10


class MemRef2(C.Structure):
    _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                ("offset", C.c_int64), ("sizes", C.c_int64 * 2),
                ("strides", C.c_int64 * 2)]


def memref(t):
    assert t.dim() == 2
    p = t.data_ptr()
    return MemRef2(p, p, 0, tuple(t.shape), tuple(t.stride()))


def time_launches(fn, reps=None, warm=WARM):
    reps = reps or REPS
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
          for _ in range(reps)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    ms = [s.elapsed_time(e) for s, e in ev]
    return statistics.median(ms), min(ms), max(ms)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/bench")
    ap.add_argument("--json", default=None)
    ap.add_argument("--quick", action="store_true",
                    help="only our kernels, 3 timed runs (for the profiler)")
    ap.add_argument("--variants", default=None,
                    help="comma-separated kernel names (default: all in copy.mlir)")
    args = ap.parse_args()
    global REPS
    if args.quick:
        REPS = 3
    d = os.path.abspath(args.dir)
    results = {"machine": {}, "bandwidth": [], "overhead": [], "notes": []}

    torch.cuda.init()
    dev = torch.cuda.current_device()
    prop = torch.cuda.get_device_properties(dev)
    torch.empty(1, device="cuda")  # create the primary context before copy.so loads
    try:
        drv = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm,clocks.mem",
                              "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
    except Exception as e:  # noqa: BLE001
        drv = f"nvidia-smi failed: {e}"
    results["machine"] = {"gpu": prop.name, "sms": prop.multi_processor_count,
                          "nvidia_smi": drv, "torch": torch.__version__,
                          "triton": triton.__version__, "cuda": torch.version.cuda}
    print("machine:", results["machine"], flush=True)

    rt = C.CDLL(os.path.join(d, "libtile_runtime.so"), mode=C.RTLD_GLOBAL)
    rt.tileRuntimeLastError.restype = C.c_char_p
    rt.tileRuntimeConsumeStatus.restype = C.c_int32
    lib = C.CDLL(os.path.join(d, "copy.so"))
    hl = C.CDLL(os.path.join(d, "hostloop.so"))
    hl.tile_bench_host_loop.restype = C.c_double
    hl.tile_bench_host_loop.argtypes = [C.c_void_p] * 4 + [C.c_int]

    def check_status(where):
        st = rt.tileRuntimeConsumeStatus()
        if st != 0:
            raise RuntimeError(f"{where}: runtime status {st}: {rt.tileRuntimeLastError().decode()}")

    check_status("module load (copy.so constructor)")

    nbytes = M * N * 2
    A = torch.randint(-32768, 32768, (M, N), dtype=torch.int32, device="cuda").to(torch.int16).view(torch.float16)
    B = torch.empty_like(A)
    Ai, Bi = A.view(torch.int16), B.view(torch.int16)
    stream = torch.cuda.current_stream()
    sp = C.c_void_p(stream.cuda_stream)
    dA, dB = memref(A), memref(B)

    def poison():
        Bi.fill_(0x7E5A)  # not a value the copy could leave by accident

    def exact():
        torch.cuda.synchronize()
        return bool(torch.equal(Ai, Bi))

    def bench(name, fn, kind):
        poison()
        fn()
        ok1 = exact()
        med, lo, hi = time_launches(fn)
        ok2 = exact()
        tbs = 2 * nbytes / (med * 1e-3) / 1e12
        r = {"name": name, "kind": kind, "median_ms": med, "min_ms": lo, "max_ms": hi,
             "tb_s": tbs, "exact": ok1 and ok2}
        results["bandwidth"].append(r)
        print(f"  {name:34s} {med:8.4f} ms  {tbs:6.3f} TB/s  (min {lo:.4f}, max {hi:.4f})  exact={ok1 and ok2}",
              flush=True)
        return r

    print(f"bandwidth: {M}x{N} f16 = {nbytes / 2**30:.0f} GiB, bytes read + written, median of {REPS}")

    def run_peers():
        # cudaMemcpyAsync device to device.
        try:
            import cupy
            def memcpy():
                cupy.cuda.runtime.memcpyAsync(B.data_ptr(), A.data_ptr(), nbytes, 3, stream.cuda_stream)
            bench("cudaMemcpyAsync D2D (cupy.runtime)", memcpy, "peer")
        except Exception as e:  # noqa: BLE001
            print(f"  cupy memcpy unavailable ({e}); using cuMemcpyDtoDAsync", flush=True)
            cu = C.CDLL("libcuda.so.1")
            cu.cuMemcpyDtoDAsync_v2.argtypes = [C.c_uint64, C.c_uint64, C.c_size_t, C.c_void_p]
            bench("cuMemcpyDtoDAsync", lambda: cu.cuMemcpyDtoDAsync_v2(B.data_ptr(), A.data_ptr(), nbytes, sp), "peer")

        bench("torch copy_", lambda: B.copy_(A), "peer")

        # Triton TMA (tensor descriptors built on the host, passed by value).
        best = None
        for BM, BN, warps in [(256, 32, 4), (128, 64, 4), (256, 64, 4), (64, 128, 4), (128, 128, 8)]:
            sd = TensorDescriptor.from_tensor(A, [BM, BN])
            dd = TensorDescriptor.from_tensor(B, [BM, BN])
            grid = (N // BN, M // BM)
            try:
                r = bench(f"triton TMA {BM}x{BN} w{warps}",
                          lambda: tma_copy[grid](sd, dd, BM=BM, BN=BN, num_warps=warps), "peer")
                if best is None or r["tb_s"] > best["tb_s"]:
                    best = r
            except Exception as e:  # noqa: BLE001
                print(f"  triton {BM}x{BN}: FAILED {e}", flush=True)


    if not args.quick:
        run_peers()
    # Ours.
    names = []
    src = open(os.path.join(d, "copy.mlir")).read()
    for line in src.splitlines():
        line = line.strip()
        if line.startswith("func.func @") and line.split("@")[1].split("(")[0].endswith("_entry"):
            n = line.split("@")[1].split("(")[0]
            if not n.endswith("_exact_entry"):
                names.append(n[: -len("_entry")])
    if args.variants:
        names = [n for n in names if n in args.variants.split(",")]
    for n in names:
        f = getattr(lib, f"_mlir_ciface_{n}_entry")
        f.argtypes = [C.c_void_p, C.c_void_p, C.c_void_p]
        pa, pb = C.addressof(dA), C.addressof(dB)

        def run(f=f, pa=pa, pb=pb):
            f(pa, pb, sp)
        try:
            run()
            torch.cuda.synchronize()
            check_status(n)
            bench(f"tile {n}", run, "ours")
            check_status(n)
        except Exception as e:  # noqa: BLE001
            print(f"  tile {n}: FAILED {e}", flush=True)
            results["bandwidth"].append({"name": f"tile {n}", "error": str(e)})

    # The opt-in probe: dynamic shared memory of exactly 48 KiB plus static barriers.
    for n in names:
        if hasattr(lib, f"_mlir_ciface_{n}_exact_entry"):
            f = getattr(lib, f"_mlir_ciface_{n}_exact_entry")
            f.argtypes = [C.c_void_p, C.c_void_p, C.c_void_p]
            poison()
            f(C.addressof(dA), C.addressof(dB), sp)
            torch.cuda.synchronize()
            st = rt.tileRuntimeConsumeStatus()
            msg = rt.tileRuntimeLastError().decode() if st else ""
            note = f"probe {n}_exact (dynamic smem = stages' bytes, + 1 KiB static): status {st} {msg} exact={exact()}"
            print("  " + note, flush=True)
            results["notes"].append(note)

    if args.quick:
        return 0

    # Host overhead of one launch (8x256 f16).
    print("launch overhead, 8x256 f16 copy: host time per call, median of 20 batches of 200 calls")
    a8 = torch.randint(-32768, 32768, (8, 256), dtype=torch.int32, device="cuda").to(torch.int16).view(torch.float16)
    b8 = torch.empty_like(a8)
    da8, db8 = memref(a8), memref(b8)
    small = lib._mlir_ciface_tile_copy_small
    small.argtypes = [C.c_void_p, C.c_void_p, C.c_void_p]
    pa8, pb8 = C.addressof(da8), C.addressof(db8)
    small(pa8, pb8, sp)
    torch.cuda.synchronize()
    check_status("tile_copy_small")
    assert torch.equal(a8.view(torch.int16), b8.view(torch.int16)), "small copy wrong"
    small_fn = C.cast(small, C.c_void_p).value

    def host_us(loop, batches=20, per=200):
        vals = []
        for _ in range(3):
            loop(per)
        torch.cuda.synchronize()
        for _ in range(batches):
            torch.cuda.synchronize()
            vals.append(loop(per))
        torch.cuda.synchronize()
        return statistics.median(vals), min(vals)

    def c_loop(n):
        return hl.tile_bench_host_loop(small_fn, pa8, pb8, sp, n) / 1e3

    def py_loop(n, f=small):
        t = time.perf_counter()
        for _ in range(n):
            f(pa8, pb8, sp)
        return (time.perf_counter() - t) / n * 1e6

    sd8 = TensorDescriptor.from_tensor(a8, [8, 256])
    dd8 = TensorDescriptor.from_tensor(b8, [8, 256])
    b8.zero_()
    tma_copy[(1, 1)](sd8, dd8, BM=8, BN=256, num_warps=1)
    torch.cuda.synchronize()
    assert torch.equal(a8.view(torch.int16), b8.view(torch.int16)), "triton small copy wrong"

    def tr_loop(n):
        t = time.perf_counter()
        for _ in range(n):
            tma_copy[(1, 1)](sd8, dd8, BM=8, BN=256, num_warps=1)
        return (time.perf_counter() - t) / n * 1e6

    def torch_loop(n):
        t = time.perf_counter()
        for _ in range(n):
            b8.copy_(a8)
        return (time.perf_counter() - t) / n * 1e6

    for name, loop in [("tile entry, C loop (maps cached)", c_loop),
                       ("tile entry, Python ctypes", py_loop),
                       ("triton TMA, descriptors reused", tr_loop),
                       ("torch copy_", torch_loop)]:
        med, lo = host_us(loop)
        results["overhead"].append({"name": name, "median_us": med, "min_us": lo})
        print(f"  {name:36s} {med:7.2f} us  (min {lo:.2f})", flush=True)
    check_status("overhead loops")

    # GPU time of the small copy, for context (events around 200 launches).
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    c_loop(200)
    e.record()
    torch.cuda.synchronize()
    note = f"small copy: {s.elapsed_time(e) * 1e3 / 200:.2f} us GPU-stream time per launch when queued back to back"
    print("  " + note)
    results["notes"].append(note)

    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)

    # Summary last.
    print("\nSUMMARY")
    print(f"  {results['machine']['gpu']}, driver/clocks {results['machine']['nvidia_smi']}")
    ok = [r for r in results["bandwidth"] if "tb_s" in r]
    for r in sorted(ok, key=lambda r: -r["tb_s"]):
        print(f"  {r['name']:34s} {r['tb_s']:6.3f} TB/s  {r['median_ms']:.4f} ms  exact={r['exact']}")
    for r in results["overhead"]:
        print(f"  overhead {r['name']:36s} {r['median_us']:6.2f} us")
    return 0 if all(r.get("exact", False) for r in ok) else 1


if __name__ == "__main__":
    sys.exit(main())
