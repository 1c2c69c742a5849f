"""Launch paths through the repository's fake libcuda: what a compiled
entry and tile_mlir.copy pass the driver (grid, block, stream, tensor-map
encode) and which kernel version runs. Each scenario runs in a process of its
own (fake_driver.py): the runtime binds its driver once per process."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def scenario(build, tmp_path_factory):
    fake = os.path.join(build, "unittests", "Runtime", "fake_libcuda.so")
    if not os.path.isfile(fake):
        pytest.fail("fake driver not built: %s" % fake)
    cache = str(tmp_path_factory.mktemp("cache"))

    def run(name):
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
        proc = subprocess.run([sys.executable,
                               os.path.join(HERE, "fake_driver.py"), name,
                               fake, cache],
                              env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)
    return run


def test_demo_entry(scenario):
    demo = scenario("demo")["demo"]
    # One module load, one encode of A's map, one launch of 1 CTA of 8
    # threads with the 4096-byte arena, on a stream the entry synchronises.
    assert (demo["module_loads"], demo["encodes"], demo["launches"]) == \
        (1, 1, 1)
    assert (demo["grid"], demo["block"], demo["smem"]) == \
        ([1, 1, 1], [8, 1, 1], 4096)
    assert demo["stream_syncs"] == 1
    assert demo["encode_address"] == 0x7f0000010000
    assert (demo["encode_rank"], demo["encode_dims"],
            demo["encode_strides"]) == (3, [64, 8, 4], [512, 128])


def test_copy(scenario):
    out = scenario("copy")
    aligned = out["aligned"]
    # 100 x 304 f16: 6 tiles of 64 x 128, the TMA version, on the caller's
    # stream, with no synchronisation; the last encode is the store's map.
    assert (aligned["grid"], aligned["block"], aligned["smem"]) == \
        ([6, 1, 1], [128, 1, 1], 16384)
    assert aligned["versions"] == [1, 0]
    assert (aligned["stream"], aligned["stream_syncs"]) == (0x5000, 0)
    assert (aligned["encodes"], aligned["encode_address"]) == \
        (2, 0x7f0000100000)
    assert (aligned["encode_dims"], aligned["encode_strides"]) == \
        ([304, 100], [608])
    # 600-byte rows fail the pitch guard: the fallback runs, nothing is
    # encoded.
    odd = out["odd_pitch"]
    assert odd["versions"] == [0, 1]
    assert (odd["encodes"], odd["launches"], odd["stream"]) == (2, 2, 0x6000)
    # Rank 3, f32: 4 column tiles x 2 row tiles x 3 outer = 24 CTAs; a new
    # module (the rank and type are part of the kernel).
    rank3 = out["rank3"]
    assert (rank3["grid"], rank3["versions"], rank3["module_loads"]) == \
        ([24, 1, 1], [1, 0], 2)
    assert (rank3["encode_dims"], rank3["encode_strides"]) == \
        ([256, 70, 3], [1024, 71680])
    # A DLPack source: the address, sizes and strides come from the capsule.
    dlpack = out["dlpack"]
    assert dlpack["versions"] == [1, 0]
    assert (dlpack["encode_dims"], dlpack["encode_strides"]) == \
        ([64, 4], [256])
    assert dlpack["encode_address"] == out["dlpack_address"]


def test_bad_stream(scenario):
    assert scenario("bad_stream")["error"] == (
        "stream= takes a torch.cuda.Stream, an object with __cuda_stream__ "
        "or a CUstream handle, not str")


def test_keep_pool_memory(scenario):
    """tile_mlir.keep_pool_memory sets what the runtime's pool keeps: held
    until the first stream-ordered allocation makes the pool, then applied
    to it; bad values are refused before the runtime sees them."""
    out = scenario("pool_keep")
    assert out["before_alloc"] == [0, 0, 0]
    assert out["alloc"] == 0x60000
    assert out["after_alloc"] == [1, 0, 1 << 30]
    assert out["after_keep_0"] == [1, 0, 0]
    assert out["errors"] == [
        ["ValueError",
         "keep_pool_memory: nbytes must be in [0, 2^64), not -1"],
        ["ValueError", "keep_pool_memory: nbytes must be in [0, 2^64), "
         "not 18446744073709551616"],
        ["TypeError", "keep_pool_memory: nbytes must be an int, not float"],
        ["TypeError", "keep_pool_memory: nbytes must be an int, not bool"]]


def test_runtime_error(scenario):
    """A launch the driver refuses raises TileRuntimeError with the
    runtime's message, and leaves no sticky status behind."""
    out = scenario("runtime_error")
    assert out["error"] == [
        "TileRuntimeError", "TILE_ERROR_DRIVER",
        "big: mgpuLaunchKernel: cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_"
        "BYTES, 240000) failed: CUDA_ERROR_INVALID_VALUE (1); device opt-in "
        "limit 232448 bytes"]
    assert out["status_after"] == 0


def test_copy_types(scenario):
    """Booleans and complex numbers: copied as integers of their width
    (complex<f64> as two 8-byte words along the innermost dimension, merged
    with it where that one is contiguous), through the TMA version."""
    out = scenario("copy_types")
    # 100 x 304 bools as bytes: 2 x 2 tiles of 64 x 256.
    assert (out["bool"]["grid"], out["bool"]["versions"]) == ([4, 1, 1],
                                                              [1, 0])
    assert (out["bool"]["encode_dims"], out["bool"]["encode_strides"]) == \
        ([304, 100], [304])
    # 10 x 64 complex<f32> as i64: a new module, 2 column tiles of 32.
    c64 = out["complex64"]
    assert (c64["grid"], c64["versions"], c64["module_loads"]) == \
        ([2, 1, 1], [1, 0], 2)
    assert (c64["encode_dims"], c64["encode_strides"]) == ([64, 10], [512])
    # 10 x 64 complex<f64>: 10 x 128 words, the same i64 module.
    c128 = out["complex128"]
    assert (c128["grid"], c128["versions"], c128["module_loads"]) == \
        ([4, 1, 1], [1, 0], 2)
    assert (c128["encode_dims"], c128["encode_strides"]) == \
        ([128, 10], [1024])
    assert c128["encode_address"] == 0x7f0001200000
    # A transposed 8 x 4 complex<f64> view: 8 x 4 x 2 words, rank 3.
    t = out["complex128_t"]
    assert (t["grid"], t["versions"], t["module_loads"]) == \
        ([8, 1, 1], [1, 0], 3)
    assert (t["encode_rank"], t["encode_dims"], t["encode_strides"]) == \
        (3, [2, 4, 8], [128, 16])
