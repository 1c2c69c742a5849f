//===- BuiltinVariants.cpp - Registration of the built-in variants --------===//

#include "tile/Conversion/TileToNVVM/Variants.h"
#include <mutex>

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerBuiltinCopyVariants() {
  static std::once_flag once;
  std::call_once(once, [] {
    CopyVariantRegistry &registry = CopyVariantRegistry::global();
    registry.add(createTmaVariant());
    registry.add(createSimtVariant());
    registry.add(createCollectiveCopyVariant());
  });
}
