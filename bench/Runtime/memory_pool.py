"""Host time of a stream-ordered workspace between synchronizations.

Each cycle allocates BYTES with tileRuntimeMemAllocAsync on a stream, zeroes
it (mgpuMemset32, so the memory is touched), frees it with
tileRuntimeMemFreeAsync and synchronizes the stream: what an attention split
tail or a padded GEMM costs a caller that waits after every call. The
runtime's pool keeps freed memory across the synchronization (256 MiB by
default); with tileRuntimeMemPoolKeep(0) it hands the memory back at every
synchronization, as a device's default pool does, and the next cycle maps
it again. Rounds alternate the two settings.

    python3 bench/Runtime/memory_pool.py PATH/libtile_runtime.so [--bytes N]
"""
import argparse
import ctypes
import statistics
import sys
import time


def load(path):
    rt = ctypes.CDLL(path)
    rt.tileRuntimeInit.restype = ctypes.c_int32
    rt.tileRuntimeLastError.restype = ctypes.c_char_p
    rt.tileRuntimeConsumeStatus.restype = ctypes.c_int32
    rt.mgpuStreamCreate.restype = ctypes.c_void_p
    rt.tileRuntimeMemAllocAsync.restype = ctypes.c_void_p
    rt.tileRuntimeMemAllocAsync.argtypes = [ctypes.c_uint64, ctypes.c_void_p]
    rt.tileRuntimeMemFreeAsync.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    rt.mgpuMemset32.argtypes = [ctypes.c_void_p, ctypes.c_uint,
                                ctypes.c_size_t, ctypes.c_void_p]
    rt.tileStreamSynchronize.restype = ctypes.c_int32
    rt.tileStreamSynchronize.argtypes = [ctypes.c_void_p]
    rt.tileRuntimeMemPoolKeep.restype = ctypes.c_int32
    rt.tileRuntimeMemPoolKeep.argtypes = [ctypes.c_uint64]
    return rt


def fail(rt, what):
    sys.exit(f"{what}: {rt.tileRuntimeLastError().decode()}")


def cycle_us(rt, stream, size, cycles):
    times = []
    for _ in range(cycles):
        start = time.perf_counter()
        ptr = rt.tileRuntimeMemAllocAsync(size, stream)
        if not ptr:
            fail(rt, "tileRuntimeMemAllocAsync")
        rt.mgpuMemset32(ptr, 0, size // 4, stream)
        rt.tileRuntimeMemFreeAsync(ptr, stream)
        if rt.tileStreamSynchronize(stream):
            fail(rt, "tileStreamSynchronize")
        times.append((time.perf_counter() - start) * 1e6)
    if rt.tileRuntimeConsumeStatus():
        fail(rt, "the cycle")
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runtime")
    parser.add_argument("--bytes", type=int, default=18_382_848,
                        help="the workspace (default: the head_dim 128 "
                             "split tail's on 132 SMs)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--cycles", type=int, default=200)
    args = parser.parse_args()
    rt = load(args.runtime)
    if rt.tileRuntimeInit():
        fail(rt, "tileRuntimeInit")
    stream = rt.mgpuStreamCreate()
    if not stream:
        fail(rt, "mgpuStreamCreate")
    settings = [("kept (256 MiB)", 256 << 20), ("handed back (0)", 0)]
    results = {name: [] for name, _ in settings}
    cycle_us(rt, stream, args.bytes, 10)  # the pool made, the code warm
    for r in range(args.rounds):
        for name, keep in settings if r % 2 == 0 else settings[::-1]:
            if rt.tileRuntimeMemPoolKeep(keep):
                fail(rt, "tileRuntimeMemPoolKeep")
            results[name].append(cycle_us(rt, stream, args.bytes,
                                          args.cycles))
    print(f"memory_pool: {args.bytes} bytes, {args.cycles} cycles x "
          f"{args.rounds} rounds (alloc, memset, free, stream sync)")
    for name, values in results.items():
        print(f"  {name:16s} median us per cycle by round: "
              + ", ".join(f"{v:.1f}" for v in values))


if __name__ == "__main__":
    main()
