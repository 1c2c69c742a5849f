"""``tile_mlir.copy(dst, src)``: a TMA copy between two CUDA tensors of the
same shape and element type, in one line.

Each copy runs a generated kernel: every CTA moves one tile of the two
innermost dimensions (64 rows of 256 bytes) global -> shared -> global with
``tile.copy_async`` (a TMA load, then a TMA store). The buffers' types leave
sizes, outer strides and the offset to run time, so one compiled module
serves every tensor of an element type, rank and innermost-stride kind (the
compile cache keeps it across processes): before each launch the host checks
the plans' guards (row pitch and base a multiple of 16 bytes, ...) and runs
the per-thread fallback version where one fails. Edge tiles are handled by
the hardware (zero fill on load, clipped stores), and by clipped per-thread
stores in the fallback.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from . import tensors
from ._streams import Stream, stream_handle
from .compiler import CompiledModule, Entry
from .compiler import compile as compile_module

TILE_ROWS = 64
TILE_ROW_BYTES = 256
THREADS = 128

_modules: Dict[Tuple[str, int, bool, bool], CompiledModule] = {}
# (torch dtype, rank, dst inner stride 1, src inner stride 1) -> Entry.
_fast_entries: Dict[Tuple[Any, int, bool, bool], Entry] = {}
_lock = threading.Lock()


def _memref_type(dtype: str, rank: int, unit_inner: bool) -> str:
    sizes = "x".join(["?"] * rank)
    strides = ["?"] * rank
    if unit_inner:
        strides[-1] = "1"
    return "memref<%sx%s, strided<[%s], offset: ?>>" % (
        sizes, dtype, ", ".join(strides))


def copy_kernel_source(dtype: str, rank: int, dst_unit_inner: bool = True,
                       src_unit_inner: bool = True) -> str:
    """The module ``copy`` compiles for tensors of element type `dtype`
    (MLIR's name) and rank `rank`; ``*_unit_inner``: whether the innermost
    stride is 1 (the only kind a TMA copy can take)."""
    bits = tensors.element_bits(dtype)
    if bits < 8 or bits % 8:
        raise ValueError("copy: element type %s has no whole byte size"
                         % dtype)
    esize = bits // 8
    cols = TILE_ROW_BYTES // esize
    rows = TILE_ROWS if rank >= 2 else 1
    if rank == 1:
        cols = 256  # a box dimension holds at most 256 elements
    tile_bytes = rows * cols * esize
    dst_type = _memref_type(dtype, rank, dst_unit_inner)
    src_type = _memref_type(dtype, rank, src_unit_inner)
    smem = ("memref<%dx%dx%s, #tile.layout<(%d, %d)>, "
            "#gpu.address_space<workgroup>>" % (rows, cols, dtype, rows, cols))
    lines = [
        f"// tile_mlir.copy: {dtype}, rank {rank}",
        "!dst = " + dst_type,
        "!src = " + src_type,
        "!smem = " + smem,
        "!bars = !nvgpu.mbarrier.group<memorySpace = "
        "#gpu.address_space<workgroup>>",
        "module attributes {gpu.container_module} {",
        "  func.func @tile_copy(%dst: !dst, %src: !src, "
        "%stream: !gpu.async.token) {",
        "    %one = arith.constant 1 : index",
        f"    %rows = arith.constant {rows} : index",
        f"    %cols = arith.constant {cols} : index",
        f"    %threads = arith.constant {THREADS} : index",
        f"    %smem_bytes = arith.constant {tile_bytes} : i32",
    ]
    for d in range(rank):
        lines.append(f"    %c{d} = arith.constant {d} : index")
        lines.append(f"    %d{d} = memref.dim %src, %c{d} : !src")
    lines.append(f"    %tn = arith.ceildivui %d{rank - 1}, %cols : index")
    total = "%tn"
    if rank >= 2:
        lines.append(f"    %tm = arith.ceildivui %d{rank - 2}, %rows : index")
        lines.append("    %t1 = arith.muli %tn, %tm : index")
        total = "%t1"
    for d in range(rank - 2):
        lines.append(f"    %t{d + 2} = arith.muli {total}, %d{d} : index")
        total = f"%t{d + 2}"
    lines += [
        "    %done = gpu.launch async [%stream] blocks(%bx, %by, %bz) in "
        f"(%gx = {total}, %gy = %one, %gz = %one)",
        "        threads(%tx, %ty, %tz) in (%sx = %threads, %sy = %one, "
        "%sz = %one) dynamic_shared_memory_size %smem_bytes {",
        "      %zero = arith.constant 0 : index",
        "      %unit = arith.constant 1 : index",
        f"      %brows = arith.constant {rows} : index",
        f"      %bcols = arith.constant {cols} : index",
        f"      %tile_bytes = arith.constant {tile_bytes} : index",
        "      %s = tile.arena_view [0] : !smem",
        "      %bar = nvgpu.mbarrier.create -> !bars",
        # Tile starts are multiples of the tile: the planner proves their
        # alignment from that.
        "      %tile_col = arith.remui %bx, %tn : index",
        "      %rest0 = arith.divui %bx, %tn : index",
        "      %j = arith.muli %tile_col, %bcols : index",
    ]
    coords, sizes = [], []
    rest = "%rest0"
    if rank >= 2:
        lines += ["      %tile_row = arith.remui %rest0, %tm : index",
                  "      %rest1 = arith.divui %rest0, %tm : index",
                  "      %i = arith.muli %tile_row, %brows : index"]
        rest = "%rest1"
    outer = []
    for d in reversed(range(rank - 2)):
        lines += [f"      %o{d} = arith.remui {rest}, %d{d} : index",
                  f"      %r{d} = arith.divui {rest}, %d{d} : index"]
        rest = f"%r{d}"
        outer.insert(0, f"%o{d}")
    coords = outer + (["%i"] if rank >= 2 else []) + ["%j"]
    sizes = ["1"] * (rank - 2) + ([str(rows)] if rank >= 2 else []) + \
        [str(cols)]
    region = "[%s] [%s]" % (", ".join(coords), ", ".join(sizes))
    tile_region = "[0, 0] [%d, %d]" % (rows, cols)
    lines += [
        "      %leader = arith.cmpi eq, %tx, %zero : index",
        "      scf.if %leader {",
        "        nvgpu.mbarrier.init %bar[%zero], %unit : !bars",
        "      }",
        "      gpu.barrier",
        "      scf.if %leader {",
        f"        tile.copy_async %s{tile_region}, %src{region} "
        "barrier(%bar[%zero])",
        "            : !smem, !src, !bars",
        "        nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %tile_bytes "
        ": !bars",
        "      }",
        "      %phase = arith.constant false",
        "      %ticks = arith.constant 10000000 : index",
        "      nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks "
        ": !bars",
        "      gpu.barrier",
        "      scf.if %leader {",
        f"        tile.copy_async %dst{region}, %s{tile_region} : !dst, !smem",
        "        tile.bulk_commit_group",
        "        tile.bulk_wait_group 0",
        "      }",
        "      gpu.terminator",
        "    }",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _module(dtype: str, rank: int, dst_unit_inner: bool,
            src_unit_inner: bool) -> CompiledModule:
    key = (dtype, rank, dst_unit_inner, src_unit_inner)
    with _lock:
        module = _modules.get(key)
        if module is None:
            source = copy_kernel_source(dtype, rank, dst_unit_inner,
                                        src_unit_inner)
            module = compile_module(source, name="tile_copy_%s_%dd.mlir"
                                    % (dtype, rank), ptx=False)
            _modules[key] = module
        return module


def _current_raw_stream() -> Optional[Callable[[int], int]]:
    """torch's current-stream query that returns the handle without making
    a Stream object (a few microseconds per call), where torch has it."""
    torch = sys.modules.get("torch")
    return getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                   None)


_raw_stream: Optional[Callable[[int], int]] = None


def _fast_copy(torch: Any, dst: Any, src: Any, stream: Stream) -> bool:
    """`copy` for two torch tensors whose module is compiled already: the
    checks of :func:`copy` on the tensors' own fields, then the launch.
    Returns False where the general path must run."""
    dtype, shape = dst.dtype, dst.shape
    if (src.dtype != dtype or src.shape != shape or not dst.is_cuda
            or not src.is_cuda or not shape or 0 in shape):
        return False
    dst_strides, src_strides = dst.stride(), src.stride()
    if 0 in dst_strides:
        return False
    rank = len(shape)
    key = (dtype, rank, dst_strides[-1] == 1 or shape[-1] == 1,
           src_strides[-1] == 1 or shape[-1] == 1)
    entry = _fast_entries.get(key)
    if entry is None:
        return False
    dst_ptr, src_ptr = dst.data_ptr(), src.data_ptr()
    itemsize = dst.element_size()
    if dst_ptr % itemsize or src_ptr % itemsize:
        return False
    if stream is not None:
        handle = stream_handle(stream)
    elif _raw_stream is not None:
        handle = _raw_stream(dst.get_device())
    else:
        handle = torch.cuda.current_stream(dst.device).cuda_stream
    entry.launch_flat([dst_ptr, dst_ptr, 0, *shape, *dst_strides,
                       src_ptr, src_ptr, 0, *shape, *src_strides, handle])
    return True


class _Planned(NamedTuple):
    """A checked copy: the two buffers, the element type copied, the shape
    and whether each innermost stride is 1, and what must stay alive until
    the launch."""

    dst: tensors.Buffer
    src: tensors.Buffer
    dtype: str
    shape: Tuple[int, ...]
    dst_inner: bool
    src_inner: bool
    keep: List[Any]


def _plan_copy(dst: Any, src: Any,
               require_cuda: bool = True) -> Optional[_Planned]:
    """Checks a copy's two operands; returns their buffers (a 0-d pair as
    1-element vectors), the element type, shape and whether each innermost
    stride is 1, and what must stay alive until the launch (a
    :class:`_Planned`), or None when there is nothing to copy."""
    keep: List[Any] = []
    try:
        dst_buffer = tensors.as_buffer(dst, keep, require_cuda, opaque=True)
    except ValueError as error:
        raise ValueError("copy: dst %s" % error) from None
    try:
        src_buffer = tensors.as_buffer(src, keep, require_cuda, opaque=True)
    except ValueError as error:
        raise ValueError("copy: src %s" % error) from None
    if dst_buffer.shape != src_buffer.shape:
        raise ValueError("copy: dst has shape %s, src %s"
                         % (dst_buffer.shape, src_buffer.shape))
    common = [t for t in dst_buffer.dtypes if t in src_buffer.dtypes]
    if not common or dst_buffer.bits != src_buffer.bits:
        raise ValueError("copy: dst holds %s, src %s (copy converts no "
                         "element types)" % (dst_buffer.dtypes[-1],
                                             src_buffer.dtypes[-1]))
    for dim, (size, stride) in enumerate(zip(dst_buffer.shape,
                                             dst_buffer.strides)):
        if size > 1 and stride == 0:
            raise ValueError("copy: dst has stride 0 in dimension %d of size "
                             "%d: its elements overlap" % (dim, size))
    if any(size == 0 for size in dst_buffer.shape):
        return None
    if not dst_buffer.shape:  # a 0-d tensor is a 1-element vector
        vector = {"shape": (1,), "strides": (1,)}
        dst_buffer = dst_buffer._replace(**vector)
        src_buffer = src_buffer._replace(**vector)
    dtype, words = _copied_as(common[-1], dst_buffer.bits)
    dst_buffer, src_buffer = _as_words(dst_buffer, src_buffer, dtype, words)
    shape = dst_buffer.shape
    dst_inner = dst_buffer.strides[-1] == 1 or shape[-1] == 1
    src_inner = src_buffer.strides[-1] == 1 or shape[-1] == 1
    return _Planned(dst_buffer, src_buffer, dtype, shape, dst_inner,
                    src_inner, keep)


def _copied_as(dtype: str, bits: int) -> Tuple[str, int]:
    """The element type the kernel copies `dtype` elements of `bits` as, and
    how many of those make one element. A copy moves bits, so element types
    a TMA copy cannot carry go as integers of their width: a 1-byte bool as
    ``i8``, ``complex<f16>`` and ``complex<f32>`` as ``i32`` and ``i64``,
    ``complex<f64>`` as two ``i64`` words, and so do torch dtypes no MLIR
    type stands for (quantized, packed)."""
    if dtype == "i1":
        return "i8", 1
    if dtype.startswith(("complex<", tensors.OPAQUE_PREFIX)):
        if bits <= 64:
            return "i%d" % bits, 1
        return "i64", bits // 64
    return dtype, 1


def _as_words(dst: tensors.Buffer, src: tensors.Buffer, dtype: str,
              words: int) -> Tuple[tensors.Buffer, tensors.Buffer]:
    """`dst` and `src` as buffers of `dtype`, each element `words` of them
    along a new innermost dimension, merged with the innermost dimension
    where both buffers have that one contiguous."""
    if words == 1:
        if dst.dtypes == (dtype,):
            return dst, src
        return (dst._replace(dtypes=(dtype,)), src._replace(dtypes=(dtype,)))
    bits = dst.bits // words
    merge = all(b.strides[-1] == 1 or b.shape[-1] == 1 for b in (dst, src))
    out = []
    for b in (dst, src):
        strides = tuple(s * words for s in b.strides)
        if merge:
            shape = b.shape[:-1] + (b.shape[-1] * words,)
            strides = strides[:-1] + (1,)
        else:
            shape = b.shape + (words,)
            strides = strides + (1,)
        out.append(b._replace(shape=shape, strides=strides, dtypes=(dtype,),
                              bits=bits))
    return out[0], out[1]


def compile_copy(dst: Any, src: Any) -> None:
    """Compiles (into the cache) the module :func:`copy` runs for these
    two tensors, without launching; they may be CPU tensors. For filling a
    cache on a machine with the compiler for one without."""
    planned = _plan_copy(dst, src, require_cuda=False)
    if planned is not None:
        _module(planned.dtype, len(planned.shape), planned.dst_inner,
                planned.src_inner)


def copy(dst: Any, src: Any, *, stream: Stream = None) -> None:
    """Copies `src` into `dst`: two CUDA tensors (torch, or objects with
    ``__cuda_array_interface__`` / ``__dlpack__``) of the same shape and
    element type, any strides. Runs on `stream` (default: torch's current
    stream) and returns without waiting. Raises ValueError for mismatched
    tensors, :class:`NoDriverError` without a driver."""
    torch = sys.modules.get("torch")
    if (torch is not None and isinstance(dst, torch.Tensor)
            and isinstance(src, torch.Tensor)
            and _fast_copy(torch, dst, src, stream)):
        return
    planned = _plan_copy(dst, src)
    if planned is None:
        return
    rank = len(planned.shape)
    entry = _module(planned.dtype, rank, planned.dst_inner,
                    planned.src_inner).tile_copy
    # The buffers are described already: check them against the entry's
    # types and launch with their fields, without describing them again.
    flat: List[Any] = []
    for side, buffer, arg in (("dst", planned.dst, entry.args[0]),
                              ("src", planned.src, entry.args[1])):
        try:
            tensors.check_buffer(buffer, arg)
        except ValueError as error:
            raise ValueError("copy: %s %s" % (side, error)) from None
        tensors.append_descriptor(flat, buffer, arg)
    flat.append(stream_handle(stream))
    entry.launch_flat(flat)
    # The fast path launches with the tensors' own sizes and strides: not
    # for elements copied as several words.
    if (torch is not None and isinstance(dst, torch.Tensor) and dst.dim()
            and tuple(planned.shape) == tuple(dst.shape)):
        global _raw_stream
        _raw_stream = _current_raw_stream()
        _fast_entries[(dst.dtype, rank, planned.dst_inner,
                       planned.src_inner)] = entry
