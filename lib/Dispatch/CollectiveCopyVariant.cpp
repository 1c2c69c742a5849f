//===- CollectiveCopyVariant.cpp - tile.copy across a scope's threads -----===//
//
// `tile.copy` is synchronous and collective; the `collective` variant takes
// every one (its lowering, TileToNVVM's BuiltinLowerings.cpp, splits the
// elements round-robin over the scope's threads and synchronises them).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class CollectiveCopyVariant : public CopyVariant {
public:
  CollectiveCopyVariant()
      : CopyVariant(kCollectiveVariantName.str(), kCollectivePriority) {}

  bool handles(Operation *op) const override { return isa<CopyOp>(op); }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createCollectiveCopyVariant() {
  return std::make_unique<CollectiveCopyVariant>();
}
