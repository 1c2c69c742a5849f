"""``tile_mlir.Layout``: the ``#tile.layout`` attribute as a Python value.

Every answer comes from the C++ layout library (``tile/Layout/Layout.h``)
through ``libTileCAPI.so``; see docs/layout.md for the algebra.
"""

from __future__ import annotations

import ctypes
import operator
from typing import (Any, Dict, List, Optional, Sequence, SupportsIndex, Tuple,
                    Union)

from . import _capi, draw

#: A swizzle: None (or ``"none"``), ``"32B"``, ``"64B"``, ``"128B"``, or the
#: byte count 32, 64 or 128.
Swizzle = Union[str, int, None]
#: An element index: a flat index over the shards, or one coordinate per
#: dimension of a buffer.
Index = Union[SupportsIndex, Sequence[SupportsIndex]]

_SWIZZLES: Dict[Swizzle, int] = {None: 0, "none": 0, "32B": 1, "64B": 2,
                                 "128B": 3, 32: 1, 64: 2, 128: 3}
_SWIZZLE_NAMES: Dict[int, Optional[str]] = {0: None, 1: "32B", 2: "64B",
                                            3: "128B"}


def _swizzle_mode(swizzle: Swizzle) -> int:
    """0..3 (the CUtensorMapSwizzle value) of None, "32B", 64, ..."""
    key = swizzle.strip() if isinstance(swizzle, str) else swizzle
    if key not in _SWIZZLES:
        raise ValueError("invalid layout: unknown swizzle %r (expected None, "
                         "'32B', '64B' or '128B')" % (swizzle,))
    return _SWIZZLES[key]


def _ints(values: Sequence[SupportsIndex], what: str) -> List[int]:
    try:
        return [operator.index(v) for v in values]
    except TypeError:
        raise TypeError("%s must be a sequence of integers, got %r"
                        % (what, values)) from None


class Layout:
    """A shard layout: extents and strides (outer to inner, in elements), a
    hardware swizzle and an element offset.

    ``Layout((8, 256))`` is row-major; ``Layout((8, 4, 64), stride=(64, 512,
    1), swizzle="128B")`` is the demo's shared tile. Invalid layouts raise
    :class:`ValueError` with the library's message. Layouts are immutable
    values: equal when their shards, swizzle and offset are equal.
    """

    __slots__ = ("_handle", "_shape", "_stride", "_swizzle", "_offset")

    def __init__(self, shape: Sequence[SupportsIndex],
                 stride: Optional[Sequence[SupportsIndex]] = None,
                 swizzle: Swizzle = None, *,
                 offset: SupportsIndex = 0) -> None:
        extents = _ints(shape, "shape")
        strides = None if stride is None else _ints(stride, "stride")
        if strides is not None and len(strides) != len(extents):
            raise ValueError("invalid layout: %d extents but %d strides"
                             % (len(extents), len(strides)))
        lib = _capi.capi()
        error = _capi.TextSink()
        handle = lib.mlirTileLayoutCreate(
            len(extents), _capi.int64_array(extents),
            _capi.int64_array(strides) if strides is not None else None,
            _swizzle_mode(swizzle), operator.index(offset), error.callback,
            None)
        self._adopt(handle, error)

    @classmethod
    def parse(cls, text: str) -> Layout:
        """Parses ``#tile.layout<...>`` or the text inside its brackets
        (``"(8, 4, 64) : (64, 512, 1), swizzle = 128B"``)."""
        data = text.encode("utf-8")
        error = _capi.TextSink()
        handle = _capi.capi().mlirTileLayoutParse(_capi.StringRef.of(data),
                                                  error.callback, None)
        layout = cls.__new__(cls)
        layout._adopt(handle, error)
        return layout

    def _adopt(self, handle: Any, error: _capi.TextSink) -> None:
        self._handle = None
        if not handle.ptr:
            raise ValueError(error.text)
        self._handle = handle
        lib = _capi.capi()
        rank = lib.mlirTileLayoutGetRank(handle)
        self._shape = tuple(lib.mlirTileLayoutGetExtent(handle, i)
                            for i in range(rank))
        self._stride = tuple(lib.mlirTileLayoutGetStride(handle, i)
                             for i in range(rank))
        self._swizzle = _SWIZZLE_NAMES[lib.mlirTileLayoutGetSwizzle(handle)]
        self._offset = lib.mlirTileLayoutGetElementOffset(handle)

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and _capi is not None and _capi._capi:
            _capi._capi.mlirTileLayoutDestroy(handle)

    @property
    def shape(self) -> Tuple[int, ...]:
        """The shard extents, outer to inner."""
        return self._shape

    @property
    def stride(self) -> Tuple[int, ...]:
        """The shard strides in elements, outer to inner."""
        return self._stride

    @property
    def swizzle(self) -> Optional[str]:
        """``None``, ``"32B"``, ``"64B"`` or ``"128B"``."""
        return self._swizzle

    @property
    def offset(self) -> int:
        """The element offset added to every address (0 for attributes)."""
        return self._offset

    @property
    def rank(self) -> int:
        """The number of shards."""
        return len(self._shape)

    @property
    def size(self) -> int:
        """The number of logical elements (product of the extents)."""
        return _capi.capi().mlirTileLayoutGetSize(self._handle)

    @property
    def cosize(self) -> int:
        """1 + the largest element offset reached (relative to `offset`)."""
        return _capi.capi().mlirTileLayoutGetCosize(self._handle)

    def offset_of(self, index: Index,
                  shape: Optional[Sequence[SupportsIndex]] = None) -> int:
        """The element offset (unswizzled, `offset` included) of `index`.

        An integer is a flat index over the shards (row-major over `shape`
        for a layout grouped onto it); a tuple is an index of a buffer of
        `shape` (default: the shard extents), onto which the layout is
        grouped as a memref type groups it. An index out of range, or a
        shape the layout does not fit, raises :class:`ValueError`."""
        return self._evaluate(index, shape, None, 0)

    def address_of(self, index: Index, element_bytes: SupportsIndex,
                   base: SupportsIndex = 0,
                   shape: Optional[Sequence[SupportsIndex]] = None) -> int:
        """The absolute byte address of `index` (as in :meth:`offset_of`) in
        a buffer at byte address `base` with elements of `element_bytes`
        bytes, with the swizzle applied to the absolute address. A swizzle
        needs an element size that divides 16 (else :class:`ValueError`)."""
        return self._evaluate(index, shape, operator.index(element_bytes),
                              operator.index(base))

    def chunk_of(self, index: Index, element_bytes: SupportsIndex,
                 shape: Optional[Sequence[SupportsIndex]] = None
                 ) -> Tuple[int, int]:
        """Where `index` lands in a buffer that starts on a 1024-byte
        boundary: ``(row, chunk)``, its 128-byte row and 16-byte chunk in
        that row after the swizzle (what the swizzle permutes)."""
        address = self.address_of(index, element_bytes, shape=shape)
        return address // 128, address % 128 // 16

    def canonicalize(self) -> Layout:
        """The layout the planner works on: extent-1 shards dropped and
        contiguous neighbours fused; every address is the same."""
        handle = _capi.capi().mlirTileLayoutCanonicalize(self._handle)
        layout = Layout.__new__(Layout)
        layout._adopt(handle, _capi.TextSink())
        return layout

    @property
    def has_overlap(self) -> bool:
        """True when two distinct indices address the same element."""
        return bool(_capi.capi().mlirTileLayoutHasOverlap(self._handle))

    def check_swizzle(self, element_bytes: SupportsIndex) -> None:
        """Raises :class:`ValueError` ("swizzle: ...") when the swizzle
        cannot hold elements of `element_bytes` bytes."""
        error = _capi.TextSink()
        if not _capi.capi().mlirTileLayoutCheckSwizzle(
                self._handle, operator.index(element_bytes), error.callback,
                None).value:
            raise ValueError(error.text)

    def _evaluate(self, index: Index,
                  shape: Optional[Sequence[SupportsIndex]],
                  element_bytes: Optional[int], base: int) -> int:
        lib = _capi.capi()
        error = _capi.TextSink()
        out = ctypes.c_int64()
        if isinstance(index, tuple) or isinstance(index, list):
            index = _ints(index, "index")
            dims = _ints(self._shape if shape is None else shape, "shape")
            if len(index) != len(dims):
                raise ValueError("index %r has %d coordinates for a shape of "
                                 "rank %d" % (tuple(index), len(index),
                                              len(dims)))
            args = (self._handle, len(dims), _capi.int64_array(dims),
                    _capi.int64_array(index))
            if element_bytes is None:
                ok = lib.mlirTileLayoutOffsetOfIndex(*args, ctypes.byref(out),
                                                     error.callback, None)
            else:
                ok = lib.mlirTileLayoutByteAddressOfIndex(
                    *args, element_bytes, base, ctypes.byref(out),
                    error.callback, None)
        else:
            index = operator.index(index)
            if element_bytes is None:
                ok = lib.mlirTileLayoutOffsetOf(self._handle, index,
                                                ctypes.byref(out),
                                                error.callback, None)
            else:
                ok = lib.mlirTileLayoutByteAddressOf(
                    self._handle, index, element_bytes, base,
                    ctypes.byref(out), error.callback, None)
        if not ok.value:
            raise ValueError(error.text)
        return out.value

    def to_svg(self, element_bytes: SupportsIndex = 2,
               shape: Optional[Sequence[SupportsIndex]] = None,
               base: SupportsIndex = 0) -> str:
        """The SVG picture of a buffer of `shape` (default: the shard
        extents) laid out by this layout, elements of `element_bytes` bytes
        at byte address `base`: every element at its physical bytes after
        the swizzle, in 128-byte rows of 16-byte chunks (docs/python.md)."""
        return draw.layout_svg(self, element_bytes, shape, base)

    def _repr_svg_(self) -> str:
        """Jupyter's inline picture: 2-byte elements over the shards."""
        return self.to_svg()

    def __str__(self) -> str:
        sink = _capi.TextSink()
        _capi.capi().mlirTileLayoutPrint(self._handle, sink.callback, None)
        return sink.text

    def __repr__(self) -> str:
        return "Layout.parse(%r)" % str(self)

    def _key(self) -> Tuple[Any, ...]:
        return (self._shape, self._stride, self._swizzle, self._offset)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())
