//===- BuiltinVariants.cpp - Registration of the built-in variants --------===//

#include "tile/Dispatch/BuiltinVariants.h"
#include "mlir/IR/DialectRegistry.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace mlir::tile;

static void addBuiltinCopyVariants(MLIRContext *, TileDialect *dialect) {
  CopyVariantRegistry &variants = CopyVariantRegistry::attach(dialect);
  variants.add(createTmaVariant());
  variants.add(createSimtVariant());
  variants.add(createCollectiveCopyVariant());
  variants.add(createCollectiveTmaVariant());
}

void mlir::tile::registerBuiltinCopyVariants(DialectRegistry &registry) {
  // One function, so the extension is added to a context once however many
  // passes declare it.
  registry.addExtension(addBuiltinCopyVariants);
}
