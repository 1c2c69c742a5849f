//===- Dialects.cpp - C API: the tile dialect -----------------------------===//

#include "tile-c/Dialects.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/InitAllTile.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)

void mlirTileRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::tile::registerAllTileDialects(*unwrap(registry));
}
