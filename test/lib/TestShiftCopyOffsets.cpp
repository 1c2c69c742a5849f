//===- TestShiftCopyOffsets.cpp - A transformation that forgets to re-plan
//-===//
//
// `--test-tile-shift-copy-offsets=by=N` adds N to the first static global
// offset of every `tile.copy_async` and keeps the op's recorded decision: the
// kind of rewrite a pass between planning and lowering could make. The
// recorded plan's verifier must reject the result (plan-stale).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TestShiftCopyOffsetsPass
    : public PassWrapper<TestShiftCopyOffsetsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestShiftCopyOffsetsPass)

  TestShiftCopyOffsetsPass() = default;
  TestShiftCopyOffsetsPass(const TestShiftCopyOffsetsPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-tile-shift-copy-offsets"; }
  StringRef getDescription() const final {
    return "Shifts the first static global offset of every tile.copy_async "
           "and keeps its recorded decision (tests plan-stale)";
  }

  Option<int64_t> by{*this, "by", llvm::cl::desc("Elements to shift by"),
                     llvm::cl::init(8)};

  void runOnOperation() override {
    getOperation()->walk([&](CopyAsyncOp op) {
      bool load = op.isLoad();
      SmallVector<int64_t> offsets(load ? op.getStaticSrcOffsets()
                                        : op.getStaticDstOffsets());
      auto *it = llvm::find_if(
          offsets, [](int64_t v) { return !ShapedType::isDynamic(v); });
      if (it == offsets.end())
        return;
      *it += by;
      if (load)
        op.setStaticSrcOffsets(offsets);
      else
        op.setStaticDstOffsets(offsets);
    });
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestShiftCopyOffsetsPass() {
  PassRegistration<TestShiftCopyOffsetsPass>();
}
} // namespace mlir::tile::test
