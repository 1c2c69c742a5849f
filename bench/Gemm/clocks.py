#!/usr/bin/env python3
"""Sustained GEMM runs with the card's clock and power sampled: tile GEMM
kernels and cuBLAS (torch.matmul, bf16 out) each launched back to back for
SECONDS per shape, alternating (ours, cuBLAS, ours, cuBLAS; with several
libraries, each of them in turn before cuBLAS), while
nvidia-smi samples the SM clock, the power draw and the active clock-event
reasons every 50 ms. Prints per run the TFLOP/s over the run (CUDA events)
and the median clock and power of the samples taken during it, so that a
kernel slower on one card than on another can be told apart from a card
that runs it at a lower clock:

    python3 bench/Gemm/clocks.py --dir DIR --lib gemm_X.so[,gemm_Y.so] --shapes MxNxK,...
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

QUERY = "timestamp,clocks.sm,power.draw,clocks_event_reasons.active"


def sampler(path):
    return subprocess.Popen(
        ["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits",
         "-lms", "50"], stdout=open(path, "w"), stderr=subprocess.DEVNULL)


def samples(path, start, end):
    """(clock MHz, power W, reasons) of the samples between two
    time.time() stamps (nvidia-smi stamps them in local time)."""
    rows = []
    for line in open(path):
        f = [x.strip() for x in line.split(",")]
        try:
            t = datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            rows.append((t, float(f[1]), float(f[2]), f[3]))
        except (ValueError, IndexError):
            continue  # a partly written last line
    return [(c, p, r) for t, c, p, r in rows if start <= t <= end]


def sustained(fn, seconds):
    """Milliseconds per call over about `seconds` of back-to-back calls
    (CUDA events), and the wall-clock span they ran in."""
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    t0 = time.time()
    begin, end = torch.cuda.Event(True), torch.cuda.Event(True)
    calls = 0
    begin.record()
    while time.time() - t0 < seconds:
        for _ in range(10):
            fn()
        calls += 10
        if calls % 100 == 0:
            torch.cuda.synchronize()
    end.record()
    torch.cuda.synchronize()
    return begin.elapsed_time(end) / calls, t0, time.time()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--lib", required=True,
                    help="the libraries of DIR, comma-separated")
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    tiles = [bench.Tile(a.dir, lib) for lib in a.lib.split(",")]
    names = ([os.path.splitext(lib)[0] for lib in a.lib.split(",")]
             if len(tiles) > 1 else ["tile"])
    with tempfile.NamedTemporaryFile(suffix=".csv", delete=False) as f:
        log = f.name
    proc = sampler(log)
    time.sleep(0.5)
    print("device", torch.cuda.get_device_name(), flush=True)
    try:
        for shape in a.shapes.split(","):
            problems = [bench.tool_problem(t, shape) for t in tiles]
            (M, N, K), A, Bt, _, _ = problems[0]
            ref = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)

            def cublas():
                torch.matmul(A, Bt.t(), out=ref)

            contenders = [(name, p[4]) for name, p in zip(names, problems)]
            contenders.append(("cublas", cublas))
            runs = []
            for rnd in range(2):
                for name, fn in contenders:
                    ms, t0, t1 = sustained(fn, a.seconds)
                    runs.append((rnd, name, ms, t0, t1))
            for t in tiles:
                t.status()
            # Every library's operands are the same values (one seed), and
            # cuBLAS ran last: each C against its product.
            err = max(bench.error(p[3], ref.float()) for p in problems)
            time.sleep(0.3)
            for rnd, name, ms, t0, t1 in runs:
                s = samples(log, t0 + 0.2, t1)
                clock = statistics.median(c for c, _, _ in s) if s else 0
                power = statistics.median(p for _, p, _ in s) if s else 0
                reasons = sorted({r for _, _, r in s})
                tflops = 2 * M * N * K / (ms * 1e-3) / 1e12
                print(f"{shape} round {rnd} {name:6s} {tflops:6.0f} TFLOP/s "
                      f"sm {clock:5.0f} MHz power {power:5.0f} W "
                      f"samples {len(s)} reasons {','.join(reasons)}",
                      flush=True)
            print(f"{shape}: error {err:.1e}", flush=True)
    finally:
        proc.terminate()
        os.unlink(log)


if __name__ == "__main__":
    main()
