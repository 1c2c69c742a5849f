/*===- tile-c/Dialects.h - C API: the tile dialect ----------------*- C -*-===*\
|*                                                                            *|
|* The tile dialect for C (and the Python package built on it). See          *|
|* docs/embedding.md.                                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_DIALECTS_H
#define TILE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The handle of the tile dialect alone (mlirDialectHandleInsertDialect,
/// mlirDialectHandleLoadDialect, ...): `mlirGetDialectHandle__tile__`.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tile, tile);

/// Adds the tile dialect, its built-in copy variants and everything the tile
/// passes and the GPU pipeline need (the C form of
/// mlir::tile::registerAllTileDialects).
MLIR_CAPI_EXPORTED void
mlirTileRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_DIALECTS_H
