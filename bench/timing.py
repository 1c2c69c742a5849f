"""GPU timing shared by the benchmarks: CUDA events around each call."""
import statistics

import torch


def event_ms(fn, reps=20, warm=3):
    """Median milliseconds of `fn` over `reps` calls after `warm` unmeasured
    ones, each call between two CUDA events on the current stream."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True),
           torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)
