"""``tile_mlir.draw``: SVG pictures of layouts and copy plans.

The pictures come from the C++ drawing library (``tile/Draw/Draw.h``)
through ``libTileCAPI.so``: :meth:`tile_mlir.Layout.to_svg` draws a buffer's
elements at their physical bytes, :meth:`tile_mlir.Plan.to_svg` a copy's
TMA boxes as ``tile-opt --tile-draw-copy-plans`` draws them. Both objects
show their picture inline in Jupyter (``_repr_svg_``).
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, SupportsIndex

from . import _capi
# Each of layout and draw imports the other as a module (it uses the
# other's names only when called), so either may be imported first.
from . import layout as _layout
from ._session import for_each_copy


def layout_svg(layout: _layout.Layout, element_bytes: SupportsIndex = 2,
               shape: Optional[Sequence[SupportsIndex]] = None,
               base: SupportsIndex = 0) -> str:
    """The SVG text of a buffer of `shape` (default: the shard extents)
    laid out by `layout` (a :class:`tile_mlir.Layout`), with elements of
    `element_bytes` bytes at absolute byte address `base`. Raises
    :class:`ValueError` when the layout does not fit the shape or the
    element size is one the swizzle cannot take."""
    dims = [] if shape is None else [operator.index(d) for d in shape]
    sink, error = _capi.TextSink(), _capi.TextSink()

    ok = _capi.capi().mlirTileLayoutDrawSvg(
        layout._handle, len(dims),
        _capi.int64_array(dims) if dims else None,
        operator.index(element_bytes), operator.index(base), sink.callback,
        error.callback, None)
    if not ok.value:
        raise ValueError(error.text)
    return sink.text


def copy_svgs(source: str) -> List[str]:
    """The SVG text of every ``tile.copy_async`` in the MLIR text `source`,
    in program order (a list). Raises :class:`ValueError` with the
    diagnostics when the text does not parse or verify, or a copy's
    dispatch fails."""
    lib = _capi.capi()

    def draw(op: Any) -> Optional[str]:
        sink = _capi.TextSink()
        if not lib.mlirTileDrawCopyPlan(op, sink.callback, None).value:
            return None
        return sink.text

    return for_each_copy(source, draw)
