/*===- tile-c/Layout.h - C API: shard layouts ---------------------*- C -*-===*\
|*                                                                            *|
|* The layout algebra of tile/Layout/Layout.h (the `#tile.layout` syntax and  *|
|* the address of an element) for C and the Python package. A layout is a    *|
|* plain value owned by the caller: no MLIR context is involved.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_LAYOUT_H
#define TILE_C_LAYOUT_H

#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A layout: shards (extent:stride, outer to inner), an element offset and a
/// swizzle (0 none, 1 32B, 2 64B, 3 128B: the CUtensorMapSwizzle values).
struct MlirTileLayout {
  void *ptr;
};
typedef struct MlirTileLayout MlirTileLayout;

/// True when `layout` is the null handle of a failed create or parse.
static inline bool mlirTileLayoutIsNull(MlirTileLayout layout) {
  return !layout.ptr;
}

/// Creates a layout of `rank` shards; `strides` may be NULL for row-major.
/// Returns a null handle, and passes the reason to `error`, when the layout
/// does not verify (extents > 0, zero strides only on extent 1) or the
/// swizzle is out of range.
MLIR_CAPI_EXPORTED MlirTileLayout mlirTileLayoutCreate(
    intptr_t rank, const int64_t *extents, const int64_t *strides, int swizzle,
    int64_t elementOffset, MlirStringCallback error, void *userData);

/// Parses `#tile.layout<...>` or the syntax inside its brackets
/// (docs/layout.md, plus the library's `offset = N` clause) and verifies the
/// result. Returns a null handle, and passes the reason to `error`, on
/// failure.
MLIR_CAPI_EXPORTED MlirTileLayout mlirTileLayoutParse(MlirStringRef text,
                                                      MlirStringCallback error,
                                                      void *userData);

/// Frees a layout (the null handle is ignored).
MLIR_CAPI_EXPORTED void mlirTileLayoutDestroy(MlirTileLayout layout);

/// Prints `#tile.layout<...>` as the dialect does (short form when row-major;
/// `, offset = N` only for a non-zero element offset).
MLIR_CAPI_EXPORTED void mlirTileLayoutPrint(MlirTileLayout layout,
                                            MlirStringCallback callback,
                                            void *userData);

MLIR_CAPI_EXPORTED intptr_t mlirTileLayoutGetRank(MlirTileLayout layout);
MLIR_CAPI_EXPORTED int64_t mlirTileLayoutGetExtent(MlirTileLayout layout,
                                                   intptr_t pos);
MLIR_CAPI_EXPORTED int64_t mlirTileLayoutGetStride(MlirTileLayout layout,
                                                   intptr_t pos);
MLIR_CAPI_EXPORTED int mlirTileLayoutGetSwizzle(MlirTileLayout layout);
MLIR_CAPI_EXPORTED int64_t
mlirTileLayoutGetElementOffset(MlirTileLayout layout);
/// Number of logical elements (product of the extents).
MLIR_CAPI_EXPORTED int64_t mlirTileLayoutGetSize(MlirTileLayout layout);
/// 1 + the largest element offset reached, relative to the element offset.
MLIR_CAPI_EXPORTED int64_t mlirTileLayoutGetCosize(MlirTileLayout layout);

/// The layout with extent-1 shards dropped and contiguous neighbours fused
/// (outer stride == inner extent x inner stride), as the planner groups
/// shards; every address is kept. The caller destroys the result.
MLIR_CAPI_EXPORTED MlirTileLayout
mlirTileLayoutCanonicalize(MlirTileLayout layout);

/// True when two distinct indices of `layout` address the same element.
MLIR_CAPI_EXPORTED bool mlirTileLayoutHasOverlap(MlirTileLayout layout);

/// Whether the layout's swizzle can hold elements of `elementBytes` bytes
/// (the swizzle span divides into whole elements, rows of the span's
/// bytes, ...); on failure passes "swizzle: <why>" to `error`.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileLayoutCheckSwizzle(MlirTileLayout layout, int64_t elementBytes,
                           MlirStringCallback error, void *userData);

/// The element offset (unswizzled, element offset included) of the flat
/// index `index` over the shards (0 <= index < size). Fails, passing the
/// reason to `error`, for an index out of range.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileLayoutOffsetOf(MlirTileLayout layout, int64_t index, int64_t *offset,
                       MlirStringCallback error, void *userData);

/// The absolute byte address of flat index `index` in a buffer at
/// `baseByteAddress` with elements of `elementBytes` bytes, swizzled. Fails
/// for an index out of range or a swizzle the element size cannot take.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileLayoutByteAddressOf(
    MlirTileLayout layout, int64_t index, int64_t elementBytes,
    int64_t baseByteAddress, int64_t *address, MlirStringCallback error,
    void *userData);

/// As mlirTileLayoutOffsetOf, for the multi-dimensional `index` of a buffer
/// of `shape` (`rank` dimensions): the layout is grouped onto the shape as a
/// memref type does. Fails when it does not fit or the index is out of range.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileLayoutOffsetOfIndex(
    MlirTileLayout layout, intptr_t rank, const int64_t *shape,
    const int64_t *index, int64_t *offset, MlirStringCallback error,
    void *userData);

/// As mlirTileLayoutByteAddressOf, for the multi-dimensional `index` of a
/// buffer of `shape`.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileLayoutByteAddressOfIndex(
    MlirTileLayout layout, intptr_t rank, const int64_t *shape,
    const int64_t *index, int64_t elementBytes, int64_t baseByteAddress,
    int64_t *address, MlirStringCallback error, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_LAYOUT_H
