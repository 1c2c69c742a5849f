//===- tile-lsp-server.cpp - Language server for tile-dialect programs ----===//
//
// MLIR's language server with everything tile-opt registers (every upstream
// dialect and extension plus the tile dialect), so an editor parses, verifies
// and navigates tile programs without false diagnostics.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "tile/InitAllTile.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::tile::registerAllTileDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
