//===- Passes.cpp - C API: the tile passes --------------------------------===//

#include "tile-c/Passes.h"
#include "tile/InitAllTile.h"

void mlirTileRegisterAllPasses(void) { mlir::tile::registerAllTilePasses(); }
