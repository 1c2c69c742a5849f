#!/usr/bin/env python3
"""Where a short GEMM call's time goes: for each shape, ours (a library's
async entry) and cuBLAS (torch.matmul, bf16 out) timed three ways over the
same back-to-back calls, alternating:

- call: CUDA events around CALLS calls, per call (what bench.py reports);
- host: the host's time to issue one call (no synchronization inside the
  loop), which bounds the call's time from below where the GPU outruns it;
- kernels: the device time of each kernel the call launches (CUPTI, through
  torch.profiler), per call, and their sum;
- graph: the same calls captured in one CUDA graph and replayed, per call
  (no host time between them; "not captured" with the reason where the
  call cannot be captured).

Where the call time is the host time and above the kernels' sum, the GPU
waits for the host between calls; where it is the kernels' sum plus the
gaps between them, the kernels are the cost.

    python3 bench/Gemm/call_costs.py --dir DIR --lib gemm_X.so --shapes MxNxK,...
"""
import argparse
import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def host_us(run, calls):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        run()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) * 1e6 / calls


def call_us(run, calls):
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(calls):
        run()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) * 1e3 / calls


def graph_us(make, calls):
    """Per call, `calls` calls captured in one CUDA graph, replayed (`make`
    gives the call bound to the current stream: the capture stream)."""
    try:
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.stream(stream):
            run = make()
            run()  # on the capture stream once before capturing
            torch.cuda.synchronize()
            with torch.cuda.graph(graph, stream=stream):
                for _ in range(calls):
                    run()
        graph.replay()
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        stop.record()
        torch.cuda.synchronize()
        return f"{start.elapsed_time(stop) * 1e3 / calls:.2f} us"
    except Exception as e:  # noqa: BLE001 (reported, not raised)
        torch.cuda.synchronize()
        return f"not captured ({str(e).splitlines()[0][:80]})"


def kernel_us(run, calls):
    """{kernel name: device us per call} over `calls` calls."""
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    kernels = {}
    for e in prof.key_averages():
        if e.device_type.name == "CUDA" and e.count >= calls:
            kernels[e.key] = e.device_time_total / calls
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tile = bench.Tile(a.dir, a.lib)
    for shape in a.shapes.split(","):
        (M, N, K), A, Bt, Cout, ours = bench.tool_problem(tile, shape)
        ref = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)

        def cublas():
            torch.matmul(A, Bt.t(), out=ref)

        for run in (ours, cublas):
            for _ in range(5):
                run()
        tile.status()
        err = bench.error(Cout, bench.reference(A, Bt))
        rows = {"ours": [], "cuBLAS": []}
        for _ in range(a.rounds):
            for name, run in (("ours", ours), ("cuBLAS", cublas)):
                rows[name].append((call_us(run, a.calls),
                                   host_us(run, a.calls)))
        tile.status()
        flop = 2 * M * N * K
        makes = {"ours": lambda: tile.prepare(A, Bt, Cout),
                 "cuBLAS": lambda: cublas}
        for name, run in (("ours", ours), ("cuBLAS", cublas)):
            graph = graph_us(makes[name], a.calls)
            calls = sorted(r[0] for r in rows[name])[len(rows[name]) // 2]
            host = sorted(r[1] for r in rows[name])[len(rows[name]) // 2]
            kernels = kernel_us(run, a.calls)
            listed = "; ".join(f"{k[:60]} {v:.2f}" for k, v in kernels.items())
            print(f"{shape} {name}: call {calls:.2f} us "
                  f"({flop / calls / 1e6:.0f} TFLOP/s), host {host:.2f} us, "
                  f"kernels {sum(kernels.values()):.2f} us [{listed}], "
                  f"graph {graph}"
                  + (f", err {err:.1e}" if name == "ours" else ""),
                  flush=True)


if __name__ == "__main__":
    main()
