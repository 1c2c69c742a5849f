/*===- tile-c/Draw.h - C API: SVG pictures of layouts and plans ---*- C -*-===*\
|*                                                                            *|
|* The pictures of tile/Draw/Draw.h: a layout's elements at their physical   *|
|* bytes, and a copy's plan as `tile-opt --tile-draw-copy-plans` draws it.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_DRAW_H
#define TILE_C_DRAW_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "tile-c/Layout.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Passes the SVG picture of a buffer of `shape` (`rank` dimensions; the
/// layout's shard extents when `rank` is 0) laid out by `layout`, with
/// elements of `elementBytes` bytes at absolute byte address
/// `baseByteAddress`, to `callback`, possibly in several pieces. Fails,
/// passing the reason to `error`, when the layout does not fit the shape or
/// the element size is not one the swizzle can take.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileLayoutDrawSvg(
    MlirTileLayout layout, intptr_t rank, const int64_t *shape,
    int64_t elementBytes, int64_t baseByteAddress, MlirStringCallback callback,
    MlirStringCallback error, void *userData);

/// Passes the SVG picture of `copyOp` (a `tile.copy_async`) to `callback`,
/// possibly in several pieces: its decision taken as mlirTileQueryCopyPlan
/// takes it (on a copy of the op's top-level module; the IR is left as it
/// is), drawn as `tile-opt --tile-draw-copy-plans` draws it. Fails, with a
/// diagnostic on the context, when the op is not a `tile.copy_async` or the
/// dispatch fails.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileDrawCopyPlan(
    MlirOperation copyOp, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_DRAW_H
