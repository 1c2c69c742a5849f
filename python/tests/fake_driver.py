"""Runs launch scenarios against the repository's fake libcuda
(unittests/Runtime/FakeCuda.cpp) and prints what the fake recorded, as JSON.

The runtime binds its driver once per process, so each scenario runs in a
process of its own: ``python fake_driver.py <scenario> <fake .so>
<cache dir>`` (test_launch.py does that).
"""

import ctypes
import json
import os
import sys


class FakeCudaState(ctypes.Structure):
    """unittests/Runtime/FakeCuda.h's FakeCudaState."""
    _fields_ = [
        ("initCalls", ctypes.c_int), ("encodeCalls", ctypes.c_int),
        ("moduleLoads", ctypes.c_int), ("lastNumOptions", ctypes.c_uint),
        ("lastOptLevel", ctypes.c_long), ("moduleUnloads", ctypes.c_int),
        ("lastFunctionName", ctypes.c_char_p),
        ("lastFuncAttribute", ctypes.c_int),
        ("lastFuncAttributeValue", ctypes.c_int),
        ("funcAttributeCalls", ctypes.c_int), ("launches", ctypes.c_int),
        ("launchExCalls", ctypes.c_int), ("grid", ctypes.c_uint * 3),
        ("block", ctypes.c_uint * 3), ("cluster", ctypes.c_uint * 3),
        ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
        ("params", ctypes.c_void_p), ("extra", ctypes.c_void_p),
        ("numAttrs", ctypes.c_uint), ("streamsCreated", ctypes.c_int),
        ("streamsDestroyed", ctypes.c_int), ("streamSyncs", ctypes.c_int),
        ("streamWaits", ctypes.c_int), ("lastStreamFlags", ctypes.c_uint),
        ("eventsCreated", ctypes.c_int), ("eventsDestroyed", ctypes.c_int),
        ("eventSyncs", ctypes.c_int), ("eventRecords", ctypes.c_int),
        ("allocs", ctypes.c_int), ("managedAllocs", ctypes.c_int),
        ("frees", ctypes.c_int), ("lastAllocBytes", ctypes.c_uint64),
        ("memcpys", ctypes.c_int), ("memset32s", ctypes.c_int),
        ("memset16s", ctypes.c_int), ("lastDst", ctypes.c_uint64),
        ("lastSrc", ctypes.c_uint64), ("lastCount", ctypes.c_size_t),
        ("lastValue", ctypes.c_uint), ("contextSets", ctypes.c_int),
        ("lastDevice", ctypes.c_int), ("staticSmem", ctypes.c_int),
        ("lastEncodeRank", ctypes.c_uint),
        ("lastEncodeAddress", ctypes.c_uint64),
        ("lastEncodeDims", ctypes.c_uint64 * 5),
        ("lastEncodeStrides", ctypes.c_uint64 * 4),
    ]


class DeviceArray:
    """A CUDA array by ``__cuda_array_interface__``: the fake driver never
    touches memory, so any address does."""

    def __init__(self, address, shape, typestr="<f2", strides=None):
        self.__cuda_array_interface__ = {
            "data": (address, False), "shape": tuple(shape),
            "typestr": typestr, "strides": strides, "version": 3}


class DLPackArray:
    """A CUDA array by DLPack: a CPU torch tensor's capsule, announced as
    device memory (the fake driver never reads it)."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return self.tensor.__dlpack__()

    def __dlpack_device__(self):
        return (2, 0)


BIG_SHARED = """\
module attributes {gpu.container_module} {
  func.func @big(%A: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 240000 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      gpu.terminator
    }
    return
  }
}
"""


def snapshot(state):
    return {"launches": state.launches, "launch_ex": state.launchExCalls,
            "grid": list(state.grid), "block": list(state.block),
            "smem": state.smem, "stream": state.stream or 0,
            "encodes": state.encodeCalls, "module_loads": state.moduleLoads,
            "stream_syncs": state.streamSyncs,
            "encode_rank": state.lastEncodeRank,
            "encode_address": state.lastEncodeAddress,
            "encode_dims": list(state.lastEncodeDims)[:state.lastEncodeRank],
            "encode_strides":
                list(state.lastEncodeStrides)[:max(state.lastEncodeRank - 1,
                                                   0)]}


def main():
    scenario, fake, cache = sys.argv[1:4]
    os.environ["TILE_MLIR_CACHE_DIR"] = cache
    import tile_mlir
    from tile_mlir import runtime
    runtime.use_driver_library_for_testing(fake)
    lib = ctypes.CDLL(fake)
    lib.fakeCudaState.restype = ctypes.POINTER(FakeCudaState)
    state = lib.fakeCudaState().contents
    out = {}
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "..", "examples")
    if scenario == "demo":
        module = tile_mlir.compile(os.path.join(src, "copy_async_tma.mlir"))
        module.copy_async(DeviceArray(0x7f0000010000, (8, 256)),
                          DeviceArray(0x7f0000020000, (8, 256)))
        out["demo"] = snapshot(state)
    elif scenario == "copy":
        import torch
        for name, dst, src_array, stream in [
                # 100 x 304 f16: 608-byte rows, every guard holds.
                ("aligned", DeviceArray(0x7f0000100000, (100, 304)),
                 DeviceArray(0x7f0000200000, (100, 304)), 0x5000),
                # 100 x 300 f16: 600-byte rows, not a multiple of 16.
                ("odd_pitch", DeviceArray(0x7f0000300000, (100, 300)),
                 DeviceArray(0x7f0000400000, (100, 300)), 0x6000),
                ("rank3", DeviceArray(0x7f0000500000, (3, 70, 256),
                                      "<f4"),
                 DeviceArray(0x7f0000600000, (3, 70, 256), "<f4"), 0x7000),
                ("dlpack", DLPackArray(torch.zeros(4, 64, dtype=torch.int32)),
                 DeviceArray(0x7f0000700000, (4, 64), "<i4"), 0x8000)]:
            before = runtime.launch_version_counts()
            tile_mlir.copy(dst, src_array, stream=stream)
            after = runtime.launch_version_counts()
            out[name] = snapshot(state)
            out[name]["versions"] = [after[0] - before[0],
                                     after[1] - before[1]]
        out["dlpack_address"] = out["dlpack"]["encode_address"]
    elif scenario == "copy_types":
        # Element types a TMA copy cannot carry go as integers of their
        # width; complex<f64> as two 8-byte words per element.
        for name, typestr, shape, strides in [
                ("bool", "|b1", (100, 304), None),
                ("complex64", "<c8", (10, 64), None),
                ("complex128", "<c16", (10, 64), None),
                # A transposed view: its elements' words cannot merge with
                # the (strided) innermost dimension.
                ("complex128_t", "<c16", (8, 4), (16, 128))]:
            address = 0x7f0001000000 + len(out) * 0x100000
            before = runtime.launch_version_counts()
            tile_mlir.copy(DeviceArray(address, shape, typestr, strides),
                           DeviceArray(address + 0x80000, shape, typestr,
                                       strides))
            after = runtime.launch_version_counts()
            out[name] = snapshot(state)
            out[name]["versions"] = [after[0] - before[0],
                                     after[1] - before[1]]
    elif scenario == "runtime_error":
        # 240000 bytes of dynamic shared memory: the fake device's opt-in
        # limit is 232448, so the driver refuses the launch.
        module = tile_mlir.compile(BIG_SHARED, name="big.mlir")
        try:
            module.big(DeviceArray(0x7f0000010000, (8, 256)))
        except tile_mlir.TileRuntimeError as error:
            out["error"] = [type(error).__name__, error.status, str(error)]
        out["status_after"] = runtime.runtime().tileRuntimeConsumeStatus()
    elif scenario == "pool_keep":
        # The runtime's stream-ordered pool: what it keeps is set before
        # the pool exists, applied when the first allocation makes it, and
        # changed on the live pool.
        rt = runtime.runtime()
        rt.tileRuntimeMemAllocAsync.restype = ctypes.c_void_p
        rt.tileRuntimeMemAllocAsync.argtypes = [ctypes.c_uint64,
                                                ctypes.c_void_p]
        creates, device = ctypes.c_int(), ctypes.c_int()
        threshold = ctypes.c_uint64()

        def pools():
            lib.fakeCudaPools(ctypes.byref(creates), ctypes.byref(device),
                              ctypes.byref(threshold))
            return [creates.value, device.value, threshold.value]
        tile_mlir.keep_pool_memory(1 << 30)
        out["before_alloc"] = pools()
        out["alloc"] = rt.tileRuntimeMemAllocAsync(4096, 0x10)
        out["after_alloc"] = pools()
        tile_mlir.keep_pool_memory(0)
        out["after_keep_0"] = pools()
        for bad in (-1, 1 << 64, 2.5, True):
            try:
                tile_mlir.keep_pool_memory(bad)
            except (TypeError, ValueError) as error:
                out.setdefault("errors", []).append(
                    [type(error).__name__, str(error)])
    elif scenario == "bad_stream":
        try:
            tile_mlir.copy(DeviceArray(0x7f0000100000, (8, 64)),
                           DeviceArray(0x7f0000200000, (8, 64)),
                           stream="default")
        except TypeError as error:
            out["error"] = str(error)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
