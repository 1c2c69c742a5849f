"""tile_mlir.copy on the element types a TMA copy cannot carry (bool,
complex, torch dtypes with no MLIR type), without a GPU: the module it
compiles, and the refusals at the Python call."""

import pytest

import tile_mlir
from tile_mlir import ready_copy

torch = pytest.importorskip("torch")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    from tile_mlir import compiler
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    compiler._memo.clear()
    ready_copy._modules.clear()
    yield
    compiler._memo.clear()
    ready_copy._modules.clear()


@pytest.mark.parametrize("dtype, shape, copied_as, rank, inner", [
    (torch.bool, (3, 5), "i8", 2, 5),
    (torch.complex32, (3, 5), "i32", 2, 5),
    (torch.complex64, (3, 5), "i64", 2, 5),
    # Two words per element, merged with the contiguous innermost dimension.
    (torch.complex128, (3, 5), "i64", 2, 10),
    (torch.quint8, (4,), "i8", 1, 4),
])
def test_copied_as_integers(dtype, shape, copied_as, rank, inner):
    if dtype == torch.quint8:
        make = lambda: torch.quantize_per_tensor(  # noqa: E731
            torch.zeros(shape), 1.0, 0, torch.quint8)
    else:
        make = lambda: torch.zeros(shape, dtype=dtype)  # noqa: E731
    planned = ready_copy._plan_copy(make(), make(), require_cuda=False)
    assert planned.dtype == copied_as
    assert (len(planned.shape), planned.shape[-1]) == (rank, inner)
    assert planned.dst.dtypes == (copied_as,)


def test_complex128_transposed_keeps_words_apart():
    a = torch.zeros(4, 8, dtype=torch.complex128).t()
    planned = ready_copy._plan_copy(a, a, require_cuda=False)
    assert (planned.dtype, planned.shape) == ("i64", (8, 4, 2))
    assert planned.dst.strides == (2, 16, 1)


@pytest.mark.parametrize("dtype", [torch.bool, torch.complex64,
                                   torch.complex128])
def test_compile_copy(cache, dtype):
    """The generated kernel compiles (a bool once raised an internal
    TileCompileError from tile.arena_view)."""
    a = torch.zeros(70, 40, dtype=dtype)
    tile_mlir.compile_copy(a, a)
    [module] = ready_copy._modules.values()
    assert module.tile_copy.args[0]["dtype"] in ("i8", "i64")


def test_refusals():
    a = torch.zeros(4, 4, dtype=torch.bool)
    with pytest.raises(ValueError) as error:
        ready_copy._plan_copy(a, torch.zeros(4, 4, dtype=torch.uint8),
                              require_cuda=False)
    assert str(error.value) == ("copy: dst holds i1, src ui8 (copy converts "
                                "no element types)")
    with pytest.raises(ValueError) as error:
        ready_copy._plan_copy(torch.zeros(4, dtype=torch.complex64),
                              torch.zeros(4, dtype=torch.float64),
                              require_cuda=False)
    assert str(error.value) == ("copy: dst holds complex<f32>, src f64 (copy "
                                "converts no element types)")
    with pytest.raises(ValueError) as error:
        tile_mlir.copy(a, a)
    assert str(error.value) == ("copy: dst is a bool tensor on cpu; kernels "
                                "need CUDA memory")


def test_entries_take_bools_as_bytes():
    """A compiled entry whose memref holds i8 or ui8 takes a bool tensor
    (its bytes); other element types still refuse it by name."""
    from tile_mlir import tensors
    keep = []
    buffer = tensors.as_buffer(torch.zeros(4, 8, dtype=torch.bool), keep,
                               require_cuda=False)
    for dtype in ("i8", "ui8", "i1"):
        arg = {"dtype": dtype, "shape": [4, 8], "strides": [8, 1],
               "offset": 0}
        tensors.prepare_argument(arg)
        tensors.check_buffer(buffer, arg)
    arg = {"dtype": "f16", "shape": [4, 8], "strides": [8, 1], "offset": 0}
    tensors.prepare_argument(arg)
    with pytest.raises(ValueError) as error:
        tensors.check_buffer(buffer, arg)
    assert str(error.value) == "has element type i1, expected f16"


def test_entries_take_complex_by_their_mlir_type():
    from tile_mlir import tensors
    keep = []
    buffer = tensors.as_buffer(torch.zeros(4, dtype=torch.complex64), keep,
                               require_cuda=False)
    assert (buffer.dtypes, buffer.bits) == (("complex<f32>",), 64)
    arg = {"dtype": "complex<f32>", "shape": [4], "strides": [1],
           "offset": 0}
    tensors.prepare_argument(arg)
    tensors.check_buffer(buffer, arg)
    # A dtype no MLIR type stands for: refused at the call, by name.
    with pytest.raises(ValueError) as error:
        tensors.as_buffer(torch.quantize_per_tensor(
            torch.zeros(4), 1.0, 0, torch.quint8), keep, require_cuda=False)
    assert str(error.value) == ("has dtype torch.quint8, which no MLIR "
                                "element type stands for")


def test_kernel_on_complex_is_refused_by_rule(cache):
    """A user's kernel copying complex numbers: a TileCompileError naming
    the rule, at the op."""
    source = """
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!sc = memref<8x64xcomplex<f32>, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
func.func @k(%g: memref<8x64xcomplex<f32>>, %s: !sc, %bar: !bars) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0])
      : !sc, memref<8x64xcomplex<f32>>, !bars
  return
}
"""
    with pytest.raises(tile_mlir.TileCompileError) as error:
        tile_mlir.compile(source, name="complex.mlir", ptx=False)
    assert ("element-type: destination element type 'complex<f32>' is not "
            "supported") in str(error.value)
