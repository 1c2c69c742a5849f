#!/usr/bin/env python3
"""Runs the pipelined copies of gen_pipeline.py on the GPU and checks them
exactly: for trip counts 0 .. S + 1 and 3S + 1, B's first 8n rows equal A's and
the rows after them keep their NaN sentinel. Prints PASS/FAIL per kernel and
trip count and a SUMMARY line; SKIP where there is no CUDA device.

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
    for name, stages, _ in gen_pipeline.names():
        if args.only and name != args.only:
            continue
        if args.sync:
            fn = getattr(lib, "_mlir_ciface_run_" + name)
            fn.argtypes = [C.c_void_p, C.c_void_p, C.c_int64]
            fn.restype = None
        else:
            fn = getattr(lib, "_mlir_ciface_run_%s_async" % name)
            fn.argtypes = [C.c_void_p, C.c_void_p, C.c_int64, C.c_void_p]
            fn.restype = C.c_void_p
        for n in list(range(stages + 2)) + [3 * stages + 1]:
            A = torch.randn(max(n, 1) * rows, cols, device="cuda")
            B = torch.full(((n + 1) * rows, cols), float("nan"), device="cuda")
            da, db = memref(A), memref(B)
            call = [C.addressof(da), C.addressof(db), n]
            if args.sync:
                # A synchronous entry launches on a non-blocking stream of its
                # own (docs/runtime.md): torch's fills of A and B on the
                # default stream must be done first.
                torch.cuda.synchronize()
            else:
                call.append(torch.cuda.current_stream().cuda_stream)
            fn(*call)
            torch.cuda.synchronize()
            status = rt.tileRuntimeConsumeStatus()
            if status != 0:
                good, why = False, rt.tileRuntimeLastError().decode()
            else:
                copied = torch.equal(B[:n * rows], A[:n * rows])
                untouched = bool(torch.isnan(B[n * rows:]).all())
                good = copied and untouched
                wrong = (B[:n * rows] != A[:n * rows])
                unwritten = torch.isnan(B[:n * rows])
                why = "" if good else (
                    f"{int(wrong.sum())} of {n * rows * cols} elements differ "
                    f"({int(unwritten.sum())} unwritten)" if not copied else
                    "rows past the trip count written")
            print(f"  {'PASS' if good else 'FAIL'} {name} trip count {n}"
                  + (f": {why}" if why else ""), flush=True)
            passed += good
            failed += not good
    print(f"SUMMARY pipeline {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
