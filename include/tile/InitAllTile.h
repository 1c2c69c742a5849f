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

/// Adds the tile dialect (and the dialects it depends on) and the built-in
/// copy variants to `registry`.
void registerAllTileDialects(DialectRegistry &registry);

/// Registers every tile pass and pipeline with the global pass registry.
void registerAllTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALLTILE_H
