//===- TilePlugin.cpp - The tile dialect and passes as mlir-opt plugins ---===//
//
// Loaded into Debian's mlir-opt (which links the same shared libMLIR, so the
// dialect and pass registries are the ones mlir-opt uses):
//
//   mlir-opt --load-dialect-plugin=lib/TilePlugin.so \
//            --load-pass-plugin=lib/TilePlugin.so \
//            --pass-pipeline='builtin.module(tile-gpu-pipeline)' input.mlir
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "tile/InitAllTile.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

/// The tile dialect, its variants and what its pipeline needs.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::tile::registerAllTileDialects(*registry);
          }};
}

/// Every tile pass and `tile-gpu-pipeline`.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePlugin", LLVM_VERSION_STRING,
          []() { mlir::tile::registerAllTilePasses(); }};
}
