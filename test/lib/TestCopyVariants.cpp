//===- TestCopyVariants.cpp - Copy variants registered from a test --------===//
//
// Two variants of `tile.copy_async` that differ only in what they declare
// (CopyVariantProperties), chosen by `{dispatch = "..."}` alone:
// `test-async-bulk` uses the asynchronous proxy, `test-generic-copy` does not.
// The passes that check a copy (tile-verify-async) must follow the declared
// properties, with no variant's name written in them. Neither lowers.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/CopyVariant.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class TestVariant : public CopyVariant {
public:
  TestVariant(std::string name, bool usesAsyncProxy)
      : CopyVariant(name, /*priority=*/-1000), asyncProxy(usesAsyncProxy) {}
  /// Only copies that ask for it by name: every other copy's dispatch (and
  /// its report's declined list) stays as the built-in variants make it.
  bool handles(Operation *op) const override {
    auto copy = dyn_cast<CopyAsyncOp>(op);
    std::optional<StringRef> dispatch =
        copy ? copy.getDispatch() : std::nullopt;
    return dispatch && *dispatch == getName();
  }
  CopyVariantProperties getProperties() const override {
    CopyVariantProperties properties;
    properties.usesAsyncProxy = asyncProxy;
    return properties;
  }
  LogicalResult rewrite(Operation *op, const VariantMatch *,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &) const override {
    return rewriter.notifyMatchFailure(op, "test variants do not lower");
  }

private:
  bool asyncProxy;
};
} // namespace

namespace mlir::tile::test {
void registerTestCopyVariants(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, TileDialect *dialect) {
    CopyVariantRegistry &variants = CopyVariantRegistry::attach(dialect);
    variants.add(std::make_unique<TestVariant>("test-async-bulk", true));
    variants.add(std::make_unique<TestVariant>("test-generic-copy", false));
  });
}
} // namespace mlir::tile::test
