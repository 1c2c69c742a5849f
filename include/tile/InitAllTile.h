//===- InitAllTile.h - Register the tile dialect and passes -----*- C++ -*-===//
//
// Embedders call these to add the tile dialect, its dispatch variants and
// its passes to their own tools.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INITALLTILE_H
#define TILE_INITALLTILE_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Adds the tile dialect, the built-in copy variants and everything the tile
/// passes and `--tile-gpu-pipeline` need (registerTileLoweringDependencies in
/// tile/Pipelines/LoweringDependencies.h: the dialects they create,
/// ConvertToLLVM interfaces, NVVM target models, LLVM IR translations) to
/// `registry`. With registerAllTilePasses and the embedder's own input
/// dialects, this is enough to run the pipeline to a gpu.binary.
void registerAllTileDialects(DialectRegistry &registry);

/// Registers every tile pass and pipeline with the global pass registry.
void registerAllTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALLTILE_H
