"""GPU timing shared by the benchmarks: CUDA events around each call."""
import statistics

import torch

from order import round_order


# Cycles the GPU spins before the timed calls (torch.cuda._sleep), so the
# host queues all of them while it waits: about 2 ms at the H200's clock.
HIDE_HOST_CYCLES = 4_000_000


def event_ms(fn, reps=20, warm=3, hide_host=False):
    """Median milliseconds of `fn` over `reps` calls after `warm` unmeasured
    ones, each call between two CUDA events on the current stream.

    With hide_host, the GPU first spins while the host queues the calls, so
    a kernel shorter than the host's launch time is timed alone: otherwise
    the GPU reaches each start event before the host has queued the call,
    and the interval holds the host's launch time (seen on 27 us GEMMs)."""
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    if hide_host:
        torch.cuda._sleep(HIDE_HOST_CYCLES)
    ev = [(torch.cuda.Event(enable_timing=True),
           torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)


def alternate(contenders, rounds, **timing):
    """{name: [ms per round]} of the (name, call) `contenders` timed in
    `rounds` rounds that alternate them (so clocks and temperature treat
    them alike), each round starting one contender later (round_order: a
    place in the round moves a time); `timing` goes to event_ms."""
    times = {n: [] for n, _ in contenders}
    for r in range(rounds):
        for n, fn in round_order(contenders, r):
            times[n].append(event_ms(fn, **timing))
    return times
