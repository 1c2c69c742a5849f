"""tile_mlir.compile: products, the disk cache, compile errors with rule ids,
and the checks an entry makes before it launches (no driver needed)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import tile_mlir
from tile_mlir import compiler

from fake_driver import DeviceArray

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
DEMO = os.path.join(SRC, "examples", "copy_async_tma.mlir")


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path, monkeypatch):
    """Every test compiles into a cache of its own."""
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    compiler._memo.clear()
    yield tmp_path / "cache"
    compiler._memo.clear()


def runtime_only(tmp_path):
    """A library folder with the runtime and without the compiler, as on a
    GPU machine without LLVM."""
    lib = tmp_path / "runtime-only"
    lib.mkdir(exist_ok=True)
    shutil.copy(tile_mlir._capi.find_library("libtile_runtime.so"), lib)
    return lib


def run_without_compiler(tmp_path, code):
    """Runs Python `code` in a process that finds only the runtime library
    (the same compile cache); returns the finished process."""
    env = dict(os.environ, TILE_MLIR_LIB_DIR=str(runtime_only(tmp_path)),
               PYTHONPATH=os.path.join(SRC, "python"))
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True)


def demo_source(old, new):
    with open(DEMO, encoding="utf-8") as handle:
        text = handle.read()
    assert old in text
    return text.replace(old, new)


def test_demo_products(tile_opt):
    module = tile_mlir.compile(DEMO, stages=["input", "tile-plan-copies",
                                             "lowered"])
    report = json.loads(tile_opt(DEMO, "--tile-report-copy-plans",
                                 "-o", "/dev/null"))
    assert module.reports == [report]
    plan = module.plans[0]
    assert (plan.selected, plan.rank, plan.box_dim, plan.swizzle) == \
        ("tma", 3, [64, 8, 4], 3)
    assert list(module.ptx_modules) == ["copy_async_kernel"]
    assert ".target sm_90a" in module.ptx
    assert "cp.async.bulk.tensor.3d.shared::cluster.global.tile" \
        ".mbarrier::complete_tx::bytes" in module.ptx
    assert sorted(module.mlir) == ["input", "lowered", "tile-plan-copies"]
    assert "tile.copy_async" in module.mlir["input"]
    assert "#tile.tma_plan" in module.mlir["tile-plan-copies"]
    assert "gpu.binary @copy_async_kernel" in module.mlir["lowered"]
    assert os.path.isfile(module.path)
    entry = module.copy_async
    assert entry is module["copy_async"] and list(module.entries) == \
        ["copy_async"]
    assert [(a["name"], a["type"], a["tma"]) for a in entry.args] == [
        ("A", "memref<8x256xf16>", True), ("B", "memref<8x256xf16>", False)]
    assert repr(entry) == ("<tile_mlir.Entry copy_async(memref<8x256xf16>, "
                           "memref<8x256xf16>)>")


def test_im2col_products(tile_opt):
    """An im2col load: its report line, its map's fields, the TMA flag on
    the input tensor (not on the output), and the im2col instruction."""
    source = os.path.join(SRC, "examples", "im2col.mlir")
    module = tile_mlir.compile(source)
    report = json.loads(tile_opt(source, "--tile-report-copy-plans",
                                 "-o", "/dev/null"))
    assert module.reports == [report]
    plan = module.plans[0]
    assert (plan.mode, plan.rank, plan.global_dim, plan.lower_corner,
            plan.upper_corner, plan.channels_per_pixel,
            plan.pixels_per_column, plan.box_dim, plan.bytes) == \
        ("im2col", 4, [32, 16, 16, 0], [-1, -1], [-1, -1], 32, 64, None,
         4096)
    assert plan.issues[0].coords == [0, "s0", "s1", "s2"]
    assert plan.im2col_offsets == [["s3", "s4"]]
    args = module.conv_taps.signature["args"]
    assert [(a["name"], a["tma"]) for a in args] == \
        [("X", True), ("Cols", False), ("blocks", False)]
    assert "cp.async.bulk.tensor.4d.shared::cluster.global.im2col" \
        ".mbarrier::complete_tx::bytes" in module.ptx


def test_cache(fresh_cache, tmp_path):
    first = tile_mlir.compile(DEMO)
    assert tile_mlir.compile(DEMO) is first
    assert os.path.dirname(first.folder) == str(fresh_cache)
    # Another name, chip or stage list is another entry.
    other = tile_mlir.compile(DEMO, name="demo.mlir")
    assert other.folder != first.folder
    assert other.reports[0]["loc"] == "demo.mlir:33:9"
    fresh = tile_mlir.compile(DEMO, cache=False)
    assert fresh is not first and fresh.folder != first.folder
    # A process that cannot load the compiler (a GPU machine without LLVM)
    # is served from the cache: only the runtime is there.
    proc = run_without_compiler(
        tmp_path, "import tile_mlir; m = tile_mlir.compile(%r); "
        "print(m.folder, m.plans[0].box_dim)" % DEMO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "%s [64, 8, 4]\n" % first.folder
    # ... and says so where the cache misses.
    proc = run_without_compiler(
        tmp_path, "import tile_mlir; tile_mlir.compile(%r, name='x.mlir')"
        % DEMO)
    assert proc.returncode == 1
    assert "libTileCAPI.so not found in %s" % runtime_only(tmp_path) \
        in proc.stderr


def test_convert_upstream_copies():
    # The upstream example's memref.copy and linalg.copy become one TMA load
    # and one TMA store of A, each with its plan at the upstream op, and A is
    # checked as a TMA operand.
    source = os.path.join(SRC, "examples", "upstream_copy.mlir")
    converted = tile_mlir.compile(source, convert_upstream_copies=True)
    assert [(p.direction, p.selected, p.rank, p.box_dim, p.bytes)
            for p in converted.plans] == [
        ("g2s", "tma", 2, [256, 16], 16384),
        ("s2g", "tma", 2, [256, 16], 16384)]
    assert [p.report["loc"] for p in converted.plans] == [
        source + ":14:7", source + ":33:7"]
    assert [a["tma"] for a in converted.double_tile.args] == [True]
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile" \
        ".mbarrier::complete_tx::bytes" in converted.ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in converted.ptx


def test_compile_error_with_rule():
    padded = "memref<8x256xf16, strided<[260, 1]>>"
    source = demo_source("%A: memref<8x256xf16>", "%A: " + padded).replace(
        ": !smem, memref<8x256xf16>, !barriers", ": !smem, %s, !barriers"
        % padded)
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(source, name="padded.mlir")
    assert error.value.location == "padded.mlir:33:9"
    assert error.value.rule == "global-stride"
    assert str(error.value) == (
        "padded.mlir:33:9: error: no dispatch variant can lower this copy: "
        "[tma] global-stride: dimension 1 stride 520 B is not a multiple of "
        "16")
    assert [d.severity for d in error.value.diagnostics] == ["error"]


def test_compile_error_op_rule():
    source = demo_source("module attributes {gpu.container_module} {",
                         "module attributes {gpu.container_module} {\n"
                         "  func.func private @tileTensorMapGetCached()")
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(source, name="reserved.mlir")
    assert (error.value.location, error.value.rule) == \
        ("reserved.mlir:15:3", "reserved-symbol")
    assert error.value.message == (
        "'func.func' op reserved-symbol: '@tileTensorMapGetCached' is the "
        "name of a runtime entry point that the host lowering calls; rename "
        "the symbol")


def test_compile_error_verifier_rule():
    # An op verifier's rule arrives with the diagnostic, not from its text.
    source = demo_source("%A[0, 0] [8, 256]", "%A[0, 0] [8, 128]")
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(source, name="count.mlir")
    assert (error.value.location, error.value.rule) == \
        ("count.mlir:33:9", "count-mismatch")
    assert error.value.message == (
        "'tile.copy_async' op count-mismatch: destination region [8, 256] "
        "has 2048 elements, source region [8, 128] has 1024")


def test_syntax_error():
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile("func.func @f( {\n}\n", name="syntax.mlir")
    assert error.value.location == "syntax.mlir:1:14"
    assert error.value.rule is None
    assert str(error.value).startswith("syntax.mlir:1:14: error: ")


def test_missing_toolkit():
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(DEMO, toolkit="/nonexistent/cuda")
    assert error.value.rule == "toolkit"
    assert "'/nonexistent/cuda' does not exist" in error.value.message


def test_source_text_and_path_agree(tile_opt):
    with open(DEMO, encoding="utf-8") as handle:
        text = handle.read()
    by_text = tile_mlir.compile(text, name=DEMO)
    by_path = tile_mlir.compile(DEMO)
    assert by_text is by_path
    with pytest.raises(TypeError, match="takes MLIR source text or a path"):
        tile_mlir.compile(42)


@pytest.fixture
def demo():
    return tile_mlir.compile(DEMO)


A_ADDR, B_ADDR = 0x7f0000010000, 0x7f0000020000


@pytest.mark.parametrize("args, message", [
    ((DeviceArray(A_ADDR, (8, 128)), DeviceArray(B_ADDR, (8, 256))),
     "argument A (#0, memref<8x256xf16>): has size 128 in dimension 1, "
     "expected 256"),
    ((DeviceArray(A_ADDR, (8, 256)), DeviceArray(B_ADDR, (8, 256, 1))),
     "argument B (#1, memref<8x256xf16>): has rank 3, expected 2"),
    ((DeviceArray(A_ADDR, (8, 256), "<f4"), DeviceArray(B_ADDR, (8, 256))),
     "argument A (#0, memref<8x256xf16>): has element type f32, expected "
     "f16"),
    ((DeviceArray(A_ADDR, (8, 256), strides=(1024, 2)),
      DeviceArray(B_ADDR, (8, 256))),
     "argument A (#0, memref<8x256xf16>): has stride 512 in dimension 0, "
     "expected 256"),
    ((DeviceArray(A_ADDR + 8, (8, 256)), DeviceArray(B_ADDR, (8, 256))),
     "argument A (#0, memref<8x256xf16>): starts at 0x7f0000010008, which "
     "is not 16-byte aligned, and a TMA copy reads or writes it "
     "(global-align)"),
    ((DeviceArray(A_ADDR, (8, 256)), DeviceArray(B_ADDR + 1, (8, 256))),
     "argument B (#1, memref<8x256xf16>): starts at 0x7f0000020001, which "
     "is not aligned to its 2-byte elements"),
    ((DeviceArray(A_ADDR, (8, 256)), [1, 2, 3]),
     "argument B (#1, memref<8x256xf16>): is a list, not a CUDA tensor "
     "(torch, __cuda_array_interface__ or __dlpack__)"),
])
def test_signature_checks(demo, args, message):
    with pytest.raises(ValueError) as error:
        demo.copy_async(*args)
    assert str(error.value) == "copy_async: " + message


def test_signature_checks_torch(demo):
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as error:
        demo.copy_async(torch.zeros(8, 256, dtype=torch.float16),
                        DeviceArray(B_ADDR, (8, 256)))
    assert str(error.value) == (
        "copy_async: argument A (#0, memref<8x256xf16>): is a float16 tensor "
        "on cpu; kernels need CUDA memory")
    with pytest.raises(TypeError) as error:
        demo.copy_async(DeviceArray(A_ADDR, (8, 256)))
    assert str(error.value) == "copy_async takes 2 arguments (A, B), got 1"


def test_size_one_stride_is_not_compared(demo):
    # A size-1 dimension's stride is never used: a (1, 256) slice of a
    # wider tensor fits memref<1x256xf16>.
    source = demo_source("func.func @copy_async(", "func.func @one_row("
                         "%R: memref<1x256xf16>) {\n    return\n  }\n"
                         "  func.func @copy_async(")
    module = tile_mlir.compile(source, name="one_row.mlir")
    if tile_mlir.driver_available():
        pytest.skip("a driver is present: the call would launch")
    with pytest.raises(tile_mlir.NoDriverError):
        module.one_row(DeviceArray(A_ADDR, (1, 256), strides=(4096, 2)))


def test_no_driver(demo):
    if tile_mlir.driver_available():
        pytest.skip("a CUDA driver is present")
    with pytest.raises(tile_mlir.NoDriverError) as error:
        demo.copy_async(DeviceArray(A_ADDR, (8, 256)),
                        DeviceArray(B_ADDR, (8, 256)))
    assert "libcuda.so.1" in str(error.value)
    assert error.value.status == "TILE_ERROR_NO_DRIVER"
    # Nothing sticky is left behind.
    assert tile_mlir.runtime.runtime().tileRuntimeConsumeStatus() == 0
    with pytest.raises(tile_mlir.NoDriverError):
        tile_mlir.copy(DeviceArray(A_ADDR, (64, 64)),
                       DeviceArray(B_ADDR, (64, 64)))


def test_failures_are_cached(fresh_cache, tmp_path):
    """A source that does not compile fails from the cache the same way,
    also where the compiler is not installed."""
    source = "func.func @f( {\n}\n"
    with pytest.raises(tile_mlir.TileCompileError) as first:
        tile_mlir.compile(source, name="syntax.mlir")
    [folder] = os.listdir(fresh_cache)
    assert sorted(os.listdir(fresh_cache / folder)) == ["meta.json"]
    proc = run_without_compiler(
        tmp_path, "import tile_mlir\ntry:\n  tile_mlir.compile(%r, "
        "name='syntax.mlir')\nexcept tile_mlir.TileCompileError as e:\n"
        "  print(e)" % source)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == str(first.value) + "\n"
    # Without the cache nothing is left behind.
    with pytest.raises(tile_mlir.TileCompileError):
        tile_mlir.compile(source, name="syntax.mlir", cache=False)
    assert os.listdir(fresh_cache) == [folder]


def pipeline_source():
    """The H200 check's pipelined copies (test/GPU/pipeline/gen_pipeline.py)."""
    return subprocess.run(
        [sys.executable, os.path.join(SRC, "test", "GPU", "pipeline",
                                      "gen_pipeline.py")],
        capture_output=True, text=True, check=True).stdout


def test_pipeline_compiles():
    # tile.pipeline through the front door: the expansion runs first, every
    # generated load is a TMA load with its plan, and both entry kinds exist.
    module = tile_mlir.compile(pipeline_source(), name="pipeline.mlir",
                               stages=["tile-expand-pipelines"])
    expanded = module.mlir["tile-expand-pipelines"]
    assert "tile.pipeline" not in expanded
    assert "nvgpu.mbarrier.try_wait.parity" in expanded
    assert {plan.selected for plan in module.plans} == {"tma"}
    assert ".maxntid 384, 1, 1" in module.ptx
    assert "setmaxnreg.inc.sync.aligned.u32" in module.ptx
    # The cluster kernels ask for clusters of 2 and multicast.
    assert ".reqnctapercluster 2, 1, 1" in module.ptx
    assert "multicast::cluster" in module.ptx
    # The guarded cluster kernels' fallback versions multicast per thread,
    # through the cluster's shared window.
    assert "st.shared::cluster" in module.ptx
    assert {"run_sw_s1", "run_sw_s1_async", "run_ws1_c2_s2",
            "run_ws1_c2_s2_async", "run_ranged_ws1_s1",
            "run_ranged_ws2_s4_async", "run_ws1_c2_guarded_s2"} <= set(
                module.entries)
    # 9 one-CTA kernels, 6 ranged ones (an iterations region), 4 cluster
    # kernels and 4 guarded ones, two entries each.
    assert len(module.entries) == 46


def test_pipeline_misuse_rule():
    # A hand-written wgmma wait in produce (the construct's own waits are
    # there) arrives with its rule id.
    source = pipeline_source().replace(
        "        %row = arith.muli %k, %c8 : index\n",
        "        %row = arith.muli %k, %c8 : index\n"
        "        nvvm.wgmma.wait.group.sync.aligned 0\n", 1)
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(source, name="misuse.mlir")
    assert error.value.rule == "pipeline-protocol"
    assert error.value.message == (
        "'nvvm.wgmma.wait.group.sync.aligned' op pipeline-protocol: "
        "'nvvm.wgmma.wait.group.sync.aligned' inside tile.pipeline; the "
        "pipeline generates its barriers, phases, byte counts and wgmma "
        "waits")
