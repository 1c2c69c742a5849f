"""``tile_mlir.plan``: how one ``tile.copy_async`` between a global tensor
and a shared buffer would be lowered.

The question is asked in MLIR: :func:`copy_source` writes a function holding
the one copy, and ``mlirTileQueryCopyPlan`` answers it with the report line
of ``tile-opt --tile-report-copy-plans`` (docs/plan-report.md), decided by
the same dispatch on the same IR.
"""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass, field
from typing import (Any, Dict, Iterator, List, NamedTuple, Optional,
                    Sequence, SupportsIndex, Tuple, Union, cast)

from . import _capi
from ._session import for_each_copy
from .draw import copy_svgs
from .errors import TileError
from .layout import Layout

#: A coordinate or offset of an instruction: an integer, ``None`` when
#: dynamic, or in a compiled module's plans the name of the run-time value
#: (``"s0"``).
Coordinate = Union[int, str, None]
#: A size, stride or offset of :func:`plan`'s arguments: an integer, or
#: ``None`` for a run-time value.
Dim = Optional[SupportsIndex]
#: A report line of ``tile-opt --tile-report-copy-plans``
#: (docs/plan-report.md), as a dict.
Report = Dict[str, Any]


class Issue(NamedTuple):
    """One TMA instruction: the byte offset in the shared buffer (before
    swizzling) and the coordinates, innermost first (``None`` when
    dynamic)."""

    smem_byte_offset: int
    coords: List[Coordinate]


class Guard(NamedTuple):
    """A run-time predicate the plan relies on: its rule id and the
    expression (docs/dynamic-shapes.md)."""

    rule: str
    expr: str

TENSOR_MAP_FIELDS = ("data_type", "rank", "global_dim", "global_strides",
                     "box_dim", "element_strides", "interleave", "swizzle",
                     "l2_promotion", "oob_fill", "base_offset_bytes")
# The fields only an im2col map has (docs/im2col.md).
IM2COL_FIELDS = ("lower_corner", "upper_corner", "channels_per_pixel",
                 "pixels_per_column")


class TileDeclined(TileError):
    """The TMA variant declines the copy: `rule` is the rule id
    (include/tile/Support/Rules.h), the message the report's reason; `report` is
    the whole report line (with the variant that took the copy instead)."""

    def __init__(self, rule: Optional[str], reason: str,
                 report: Report) -> None:
        super().__init__(reason)
        self.rule = rule
        self.reason = reason
        self.report = report


class GlobalTensor:
    """A tensor in global memory: `shape` (``None`` for a run-time size),
    element type `dtype` (an MLIR type name: ``"f16"``, ``"bf16"``,
    ``"f32"``, ``"i32"``, ...), `strides` in elements (``None`` for
    row-major; entries ``None`` at run time) and the element `offset`
    (``None`` at run time)."""

    def __init__(self, shape: Sequence[Dim], dtype: str,
                 strides: Optional[Sequence[Dim]] = None,
                 offset: Dim = 0) -> None:
        self.shape: Tuple[Optional[int], ...] = tuple(_dim(d) for d in shape)
        self.dtype = str(dtype)
        self.strides: Optional[Tuple[Optional[int], ...]] = (
            None if strides is None else tuple(_dim(s) for s in strides))
        if self.strides is not None and len(self.strides) != len(self.shape):
            raise ValueError("%d strides for a shape of rank %d"
                             % (len(self.strides), len(self.shape)))
        self.offset: Optional[int] = _dim(offset)

    def memref_type(self) -> str:
        """The MLIR memref type of the tensor."""
        text = "memref<%s%s" % (_dims(self.shape), self.dtype)
        if self.strides is not None or self.offset != 0:
            strides = self.strides
            if strides is None:
                if None in self.shape:
                    raise ValueError("a row-major tensor with run-time sizes "
                                     "takes no offset; give its strides")
                strides = _row_major(self.shape)
            text += ", strided<[%s], offset: %s>" % (
                ", ".join(_text(s) for s in strides), _text(self.offset))
        return text + ">"

    def __repr__(self) -> str:
        return "GlobalTensor(%r, %r, strides=%r, offset=%r)" % (
            self.shape, self.dtype, self.strides, self.offset)


class SharedBuffer:
    """A buffer in shared memory: its static `shape` and its `layout` (a
    :class:`Layout`, its text, or ``None`` for row-major). A buffer passed
    to :func:`plan` is assumed to start on a 1024-byte boundary."""

    def __init__(self, shape: Sequence[SupportsIndex],
                 layout: Union[Layout, str, None] = None) -> None:
        self.shape: Tuple[int, ...] = tuple(operator.index(d) for d in shape)
        if isinstance(layout, str):
            layout = Layout.parse(layout)
        if layout is not None and layout.offset != 0:
            raise ValueError("a shared buffer's layout has no element offset: "
                             "%s" % layout)
        self.layout: Optional[Layout] = layout

    def memref_type(self, dtype: str) -> str:
        """The MLIR memref type of the buffer for elements of `dtype`."""
        layout = "" if self.layout is None else ", %s" % self.layout
        return "memref<%s%s%s, #gpu.address_space<workgroup>>" % (
            _dims(self.shape), dtype, layout)

    def __repr__(self) -> str:
        return "SharedBuffer(%r, %r)" % (self.shape, self.layout)


@dataclass(frozen=True, eq=False, repr=False)
class Plan:
    """The TMA plan of one copy: every field of the report line.

    The tensor map's fields are attributes (`data_type`, `rank`,
    `global_dim`, `global_strides` in bytes, `box_dim`, `element_strides`,
    `interleave`, `swizzle`, `l2_promotion`, `oob_fill`,
    `base_offset_bytes`; driver order, innermost first, ``None`` where only
    known at run time; an im2col load's map (`mode` ``"im2col"``, else
    ``"tile"``) has `lower_corner`, `upper_corner`, `channels_per_pixel` and
    `pixels_per_column` instead of `box_dim`, and `im2col_offsets` lists its
    instruction's offsets), as are `direction`, `selected`, `declined`,
    `issues` (:class:`Issue`), `guards` (:class:`Guard`) and `bytes`.
    `report` is the report line as a dict, `tensor_map` its tensor map, and
    `source` the MLIR text of the copy where it is known (:func:`plan` sets
    it; a compiled module's plans have none).

    ``Plan(report, source=None)`` reads every other field from `report`.
    A plan is frozen (its fields cannot be assigned) and compares by
    identity, as it hashes."""

    report: Report
    source: Optional[str] = None
    direction: str = field(init=False)
    selected: Optional[str] = field(init=False)
    declined: List[Dict[str, Any]] = field(init=False)
    # A copy another variant takes has no tensor map: its fields are None,
    # and it has no issues or guards.
    tensor_map: Optional[Dict[str, Any]] = field(init=False)
    # "tile" for tiled maps, "im2col" for tile.copy_im2col's; a field the
    # map's mode lacks (box_dim of an im2col map) is None.
    mode: str = field(init=False)
    data_type: Optional[str] = field(init=False)
    rank: Optional[int] = field(init=False)
    global_dim: Optional[List[Optional[int]]] = field(init=False)
    global_strides: Optional[List[Optional[int]]] = field(init=False)
    box_dim: Optional[List[Optional[int]]] = field(init=False)
    element_strides: Optional[List[Optional[int]]] = field(init=False)
    interleave: Optional[int] = field(init=False)
    swizzle: Optional[int] = field(init=False)
    l2_promotion: Optional[int] = field(init=False)
    oob_fill: Optional[int] = field(init=False)
    base_offset_bytes: Optional[int] = field(init=False)
    lower_corner: Optional[List[Optional[int]]] = field(init=False)
    upper_corner: Optional[List[Optional[int]]] = field(init=False)
    channels_per_pixel: Optional[int] = field(init=False)
    pixels_per_column: Optional[int] = field(init=False)
    issues: List[Issue] = field(init=False)
    # The im2col instruction's offsets (the filter tap), innermost first.
    im2col_offsets: List[List[Coordinate]] = field(init=False)
    guards: List[Guard] = field(init=False)
    bytes: Optional[int] = field(init=False)

    def __post_init__(self) -> None:
        report = self.report
        tensor_map = report.get("tensor_map")
        issues = report.get("issues", [])
        values = {
            "direction": report["direction"],
            "selected": report["selected"],
            "declined": report["declined"],
            "tensor_map": tensor_map,
            "mode": (tensor_map or {}).get("mode", "tile"),
            "issues": [Issue(i["smem_byte_offset"], i["coords"])
                       for i in issues],
            "im2col_offsets": [i.get("offsets") for i in issues
                               if "offsets" in i],
            "guards": [Guard(g["rule"], g["expr"])
                       for g in report.get("guards", [])],
            "bytes": report.get("bytes"),
        }
        values.update((name, (tensor_map or {}).get(name))
                      for name in TENSOR_MAP_FIELDS + IM2COL_FIELDS)
        for name, value in values.items():
            # The fields are frozen: set once, here.
            object.__setattr__(self, name, value)

    def to_svg(self) -> str:
        """The SVG picture of the copy, as ``tile-opt
        --tile-draw-copy-plans`` draws it: the shared buffer's bytes with
        each instruction's box outlined, the region within the tensor.
        Needs the copy's MLIR text (`source`, which :func:`plan` sets)."""
        if self.source is None:
            raise ValueError("this plan has no source to draw from")
        return copy_svgs(self.source)[0]

    def _repr_svg_(self) -> str:
        """Jupyter's inline picture."""
        return self.to_svg()

    def __repr__(self) -> str:
        return "Plan(%s)" % json.dumps(self.report)


def plan(dst: Union[GlobalTensor, SharedBuffer],
         src: Union[GlobalTensor, SharedBuffer], *,
         dst_offsets: Optional[Sequence[Dim]] = None,
         dst_sizes: Optional[Sequence[SupportsIndex]] = None,
         src_offsets: Optional[Sequence[Dim]] = None,
         src_sizes: Optional[Sequence[SupportsIndex]] = None,
         oob: Optional[str] = None, reduce: Optional[str] = None,
         cache_hint: Optional[str] = None) -> Plan:
    """The TMA plan of ``tile.copy_async`` from `src` into `dst`, one a
    :class:`GlobalTensor`, the other a :class:`SharedBuffer` (a load when
    `dst` is shared, a store otherwise).

    Offsets default to zeros (``None`` entries are run-time values), sizes
    to the shared buffer's shape on its side and to the other side's sizes
    on the global side. `oob`, `reduce` and `cache_hint` are the op's
    attributes. Returns a :class:`Plan`; raises :class:`TileDeclined` when
    the TMA variant declines, and :class:`ValueError` for a copy that does
    not verify."""
    source = copy_source(dst, src, dst_offsets=dst_offsets,
                         dst_sizes=dst_sizes, src_offsets=src_offsets,
                         src_sizes=src_sizes, oob=oob, reduce=reduce,
                         cache_hint=cache_hint)
    report = cast(Report, query(source))  # one copy: one line
    if report["selected"] == "tma":
        return Plan(report, source)
    for entry in report["declined"]:
        if entry["variant"] == "tma":
            raise TileDeclined(entry["rule"], entry["reason"], report)
    raise TileDeclined(None, "the tma variant was not tried (selected: %s)"
                       % report["selected"], report)


def copy_source(dst: Union[GlobalTensor, SharedBuffer],
                src: Union[GlobalTensor, SharedBuffer], *,
                dst_offsets: Optional[Sequence[Dim]] = None,
                dst_sizes: Optional[Sequence[SupportsIndex]] = None,
                src_offsets: Optional[Sequence[Dim]] = None,
                src_sizes: Optional[Sequence[SupportsIndex]] = None,
                oob: Optional[str] = None, reduce: Optional[str] = None,
                cache_hint: Optional[str] = None) -> str:
    """The MLIR text of ``func.func @plan`` holding the one copy that
    :func:`plan` asks about (arguments as in :func:`plan`)."""
    if isinstance(dst, SharedBuffer) and isinstance(src, GlobalTensor):
        shared, tensor, load = dst, src, True
    elif isinstance(dst, GlobalTensor) and isinstance(src, SharedBuffer):
        shared, tensor, load = src, dst, False
    else:
        raise TypeError("plan: one side must be a GlobalTensor and the other "
                        "a SharedBuffer, got %s and %s"
                        % (type(dst).__name__, type(src).__name__))
    shared_sizes = dst_sizes if load else src_sizes
    shared_sizes = tuple(shared.shape if shared_sizes is None
                         else shared_sizes)
    global_sizes = src_sizes if load else dst_sizes
    global_sizes = tuple(shared_sizes if global_sizes is None
                         else global_sizes)
    dst_sizes, src_sizes = ((shared_sizes, global_sizes) if load
                            else (global_sizes, shared_sizes))
    dst_type = shared.memref_type(tensor.dtype) if load \
        else tensor.memref_type()
    src_type = tensor.memref_type() if load \
        else shared.memref_type(tensor.dtype)

    args = ["%%dst: %s" % dst_type, "%%src: %s" % src_type]
    names: Iterator[str] = iter("%%i%d" % n for n in range(1 << 16))

    def operands(offsets: Optional[Sequence[Dim]], rank: int) -> str:
        offsets = (0,) * rank if offsets is None else tuple(offsets)
        out = []
        for value in offsets:
            if value is None:
                out.append(next(names))
                args.append("%s: index" % out[-1])
            else:
                out.append(str(operator.index(value)))
        return ", ".join(out)

    dst_ops = operands(dst_offsets, len(dst_sizes))
    src_ops = operands(src_offsets, len(src_sizes))
    attrs = {"oob": oob, "reduce": reduce, "cache_hint": cache_hint}
    attr_text = ", ".join("%s = %s" % (k, json.dumps(v))
                          for k, v in attrs.items() if v is not None)
    bars = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    barrier, types = "", "%s, %s" % (dst_type, src_type)
    if load:
        args.append("%%bar: %s" % bars)
        barrier, types = " barrier(%bar[%c0])", types + ", " + bars
    return "\n".join([
        "func.func @plan(%s) {" % ", ".join(args),
        "  %c0 = arith.constant 0 : index",
        "  tile.copy_async %%dst[%s] [%s], %%src[%s] [%s]%s%s : %s" % (
            dst_ops, _list(dst_sizes), src_ops, _list(src_sizes), barrier,
            " {%s}" % attr_text if attr_text else "", types),
        "  return",
        "}", ""])


def query(source: str) -> Union[Report, List[Report]]:
    """The plan report lines (dicts) of every ``tile.copy_async`` in the
    MLIR text `source`, in program order; a single line is returned alone.
    Raises :class:`ValueError` with the diagnostics when the text does not
    parse or verify, or a query fails."""
    lib = _capi.capi()

    def ask(op: Any) -> Optional[Report]:
        sink = _capi.TextSink()
        if not lib.mlirTileQueryCopyPlan(op, sink.callback, None).value:
            return None
        return json.loads(sink.text)

    lines = for_each_copy(source, ask)
    return lines[0] if len(lines) == 1 else lines


def _dim(value: Dim) -> Optional[int]:
    return None if value is None else operator.index(value)


def _text(value: Optional[int]) -> str:
    return "?" if value is None else str(value)


def _dims(shape: Sequence[Optional[int]]) -> str:
    return "".join("%sx" % _text(d) for d in shape)


def _list(values: Sequence[SupportsIndex]) -> str:
    return ", ".join(str(operator.index(v)) for v in values)


def _row_major(shape: Sequence[int]) -> Tuple[int, ...]:
    strides, running = [], 1
    for extent in reversed(shape):
        strides.append(running)
        running *= extent
    return tuple(reversed(strides))
