#!/usr/bin/env python3
"""Runs the pipelined copies of gen_pipeline.py on the GPU and checks them
exactly: for trip counts 0 .. S + 1 and 3S + 1, B's first 8n rows equal A's and
the rows after them keep their NaN sentinel (the ranged kernels: the same
rows, split over work tiles of growing length); for the cluster kernels, each
CTA's rows hold the shared (multicast) and its private stages, and the
guarded ones run both versions: A and P 16-byte aligned (the TMA version) and
4 bytes past that (the fallback version, the multicast done by one thread's
stores into both CTAs), each launch's version checked through the runtime's
counts. Prints PASS/FAIL per kernel and trip count and a SUMMARY line; SKIP
where there is no CUDA device.

    python3 test/GPU/pipeline/check_pipeline.py --dir .gpu/pipeline
"""
import argparse
import ctypes as C
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench"))
import gen_pipeline  # noqa: E402


def entry(lib, name, sync, buffers):
    """The host entry of kernel `name`: run_<name>(buffers..., n), or with
    --sync off run_<name>_async(buffers..., n, stream) -> stream."""
    fn = getattr(lib, "_mlir_ciface_run_" + name + ("" if sync else "_async"))
    fn.argtypes = ([C.c_void_p] * buffers + [C.c_int64]
                   + ([] if sync else [C.c_void_p]))
    fn.restype = None if sync else C.c_void_p
    return fn


def run_and_compare(torch, rt, memref, fn, buffers, n, want, sync):
    """Calls `fn` on `buffers` (the output B last) and trip count `n`, then
    compares B's first rows with `want` and the rest with the NaN sentinel.
    Returns (good, why)."""
    descs = [memref(t) for t in buffers]
    call = [C.addressof(d) for d in descs] + [n]
    if sync:
        # A synchronous entry launches on a non-blocking stream of its own
        # (docs/runtime.md): torch's fills of the buffers on the default
        # stream must be done first.
        torch.cuda.synchronize()
    else:
        call.append(torch.cuda.current_stream().cuda_stream)
    fn(*call)
    torch.cuda.synchronize()
    if rt.tileRuntimeConsumeStatus() != 0:
        return False, rt.tileRuntimeLastError().decode()
    B = buffers[-1]
    done = want.shape[0]
    if not torch.equal(B[:done], want):
        wrong = int((B[:done] != want).sum())
        unwritten = int(torch.isnan(B[:done]).sum())
        return False, (f"{wrong} of {B[:done].numel()} elements differ "
                       f"({unwritten} unwritten)")
    if not bool(torch.isnan(B[done:]).all()):
        return False, "rows past the trip count written"
    return True, ""


def report(name, n, good, why):
    print(f"  {'PASS' if good else 'FAIL'} {name} trip count {n}"
          + (f": {why}" if why else ""), flush=True)


def trip_counts(stages):
    return list(range(stages + 2)) + [3 * stages + 1]


def shifted_randn(torch, rows, cols, shift):
    """A rows x cols tensor of random values whose data starts `shift`
    elements past a 16-byte aligned allocation."""
    flat = torch.randn(rows * cols + shift, device="cuda")
    return flat[shift:].view(rows, cols)


def check_cluster(lib, rt, torch, memref, name, stages, guarded, sync):
    """The cluster kernels: B's rows [16(2k + r), +8) equal A's shared rows
    [8k, +8) and the 8 rows after them P's rows [8(2k + r), +8), for both
    CTAs r and every k < n (n < MAX_TRIPS); the rows past 32n keep their NaN
    sentinel. A guarded kernel runs with A and P aligned (its TMA version)
    and misaligned (its fallback version). Returns (passed, failed)."""
    fn = entry(lib, name, sync, 3)
    passed = failed = 0
    for shift, version in ((0, 0), (1, 1)) if guarded else ((0, None),):
        for n in trip_counts(stages):
            good, why = check_cluster_once(rt, torch, memref, fn, n, shift,
                                           version, sync)
            label = name + (" misaligned" if shift else "")
            report(label, n, good, why)
            passed += good
            failed += not good
    return passed, failed


def check_cluster_once(rt, torch, memref, fn, n, shift, version, sync):
    """One call of a cluster kernel at trip count n, A and P `shift`
    elements past alignment; where `version` is given, the launch must have
    run that version (0: TMA, 1: fallback)."""
    rows, cols = gen_pipeline.ROWS, gen_pipeline.COLS
    ctas = gen_pipeline.CLUSTER
    A = shifted_randn(torch, gen_pipeline.A_ROWS, cols, shift)
    P = shifted_randn(torch, gen_pipeline.P_ROWS, cols, shift)
    B = torch.full((gen_pipeline.B_ROWS, cols), float("nan"),
                   device="cuda")
    want = torch.empty(n * ctas * 2 * rows, cols, device="cuda")
    for k in range(n):
        for r in range(ctas):
            o = (ctas * k + r) * 2 * rows
            want[o:o + rows] = A[k * rows:(k + 1) * rows]
            p = (ctas * k + r) * rows
            want[o + rows:o + 2 * rows] = P[p:p + rows]
    rt.tileRuntimeResetLaunchVersionCounts()
    good, why = run_and_compare(torch, rt, memref, fn, [A, P, B], n, want,
                                sync)
    if good and version is not None:
        ran = rt.tileRuntimeLaunchVersionCount(version)
        if ran != 1:
            return False, f"version {version} launched {ran} times, not 1"
    return good, why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=".gpu/pipeline")
    ap.add_argument("--only", default=None, help="one kernel, e.g. ws2_s2")
    ap.add_argument("--sync", action="store_true",
                    help="call the entries that wait (run_<name>) instead of "
                         "launching on torch's stream (run_<name>_async)")
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("SKIP pipeline: no torch")
        return 0
    if not torch.cuda.is_available():
        print("SKIP pipeline: no CUDA device")
        return 0
    from memrefs import memref
    rt = C.CDLL(os.path.join(args.dir, "libtile_runtime.so"), mode=C.RTLD_GLOBAL)
    rt.tileRuntimeConsumeStatus.restype = C.c_int32
    rt.tileRuntimeLastError.restype = C.c_char_p
    lib = C.CDLL(os.path.join(args.dir, "pipeline.so"))
    rows, cols = gen_pipeline.ROWS, gen_pipeline.COLS
    passed = failed = 0
    for name, stages, _, _ in gen_pipeline.names():
        if args.only and name != args.only:
            continue
        fn = entry(lib, name, args.sync, 2)
        for n in trip_counts(stages):
            A = torch.randn(max(n, 1) * rows, cols, device="cuda")
            B = torch.full(((n + 1) * rows, cols), float("nan"), device="cuda")
            good, why = run_and_compare(torch, rt, memref, fn, [A, B], n,
                                        A[:n * rows], args.sync)
            report(name, n, good, why)
            passed += good
            failed += not good
    rt.tileRuntimeLaunchVersionCount.restype = C.c_int64
    rt.tileRuntimeLaunchVersionCount.argtypes = [C.c_int32]
    for name, stages, _, guarded in gen_pipeline.cluster_names():
        if args.only and name != args.only:
            continue
        good, bad = check_cluster(lib, rt, torch, memref, name, stages,
                                  guarded, args.sync)
        passed += good
        failed += bad
    print(f"SUMMARY pipeline {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
