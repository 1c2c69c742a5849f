//===- InitAllTile.cpp - Register the tile dialect and passes -------------===//

#include "tile/InitAllTile.h"
#include "mlir/IR/DialectRegistry.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Pipelines/LoweringDependencies.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/TransformOps/TileTransformOps.h"
#include "tile/Transforms/Passes.h"

void mlir::tile::registerAllTileDialects(DialectRegistry &registry) {
  registry.insert<TileDialect>();
  registerBuiltinCopyLowerings(registry);
  registerTileLoweringDependencies(registry);
  registerTransformDialectExtension(registry);
}

void mlir::tile::registerAllTilePasses() {
  registerTilePasses();
  registerTileConversionPasses();
  registerTileGPUPipeline();
}
