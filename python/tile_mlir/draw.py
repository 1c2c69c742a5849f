"""``tile_mlir.draw``: SVG pictures of layouts and copy plans.

The pictures come from the C++ drawing library (``tile/Draw/Draw.h``)
through ``libTileCAPI.so``: :meth:`tile_mlir.Layout.to_svg` draws a buffer's
elements at their physical bytes, :meth:`tile_mlir.Plan.to_svg` a copy's
TMA boxes as ``tile-opt --tile-draw-copy-plans`` draws them. Both objects
show their picture inline in Jupyter (``_repr_svg_``).
"""

import ctypes
import operator

from . import _capi


def layout_svg(layout, element_bytes=2, shape=None, base=0):
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


def copy_svgs(source):
    """The SVG text of every ``tile.copy_async`` in the MLIR text `source`,
    in program order (a list). Raises :class:`ValueError` with the
    diagnostics when the text does not parse or verify, or a copy's
    dispatch fails."""
    from .plan import _get_session  # plan imports this module lazily
    lib = _capi.capi()
    session = _get_session()
    data = source.encode("utf-8")
    with session.lock:
        session.diagnostics = []
        module = lib.mlirModuleCreateParse(session.context,
                                           _capi.StringRef.of(data))
        if not module.ptr:
            raise ValueError("\n".join(session.diagnostics)
                             or "cannot parse the module")
        try:
            pictures = []

            def visit(op, _user_data):
                name = lib.mlirIdentifierStr(lib.mlirOperationGetName(op))
                if ctypes.string_at(name.data, name.length) == \
                        b"tile.copy_async":
                    sink = _capi.TextSink()
                    ok = lib.mlirTileDrawCopyPlan(op, sink.callback, None)
                    pictures.append(sink.text if ok.value else None)
                return 0  # MlirWalkResultAdvance

            callback = _capi.WalkCallback(visit)
            lib.mlirOperationWalk(lib.mlirModuleGetOperation(module),
                                  callback, None, 0)  # MlirWalkPreOrder
        finally:
            lib.mlirModuleDestroy(module)
        if None in pictures or not pictures:
            raise ValueError("\n".join(session.diagnostics)
                             or "no tile.copy_async in the module")
    return pictures
