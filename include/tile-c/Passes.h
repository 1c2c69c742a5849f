/*===- tile-c/Passes.h - C API: the tile passes -------------------*- C -*-===*\
|*                                                                            *|
|* Registers the tile passes and `tile-gpu-pipeline` with the global pass     *|
|* registry, so that mlirParsePassPipeline and mlirOpPassManagerAddPipeline   *|
|* accept them.                                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_PASSES_H
#define TILE_C_PASSES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The C form of mlir::tile::registerAllTilePasses.
MLIR_CAPI_EXPORTED void mlirTileRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_PASSES_H
