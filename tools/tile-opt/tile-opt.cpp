//===- tile-opt.cpp - The tile dialect's optimizer driver -----------------===//
//
// mlir-opt with the tile dialect and its passes added to every upstream
// dialect, extension and pass.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitAllTile.h"

namespace mlir::tile::test {
void registerTestShiftCopyOffsetsPass();
void registerTestCopyVariants(mlir::DialectRegistry &registry);
} // namespace mlir::tile::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tile::registerAllTilePasses();
  mlir::tile::test::registerTestShiftCopyOffsetsPass();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR inside tile-opt.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::test::registerTestCopyVariants(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile-mlir optimizer driver\n", registry));
}
