//===- TileToNVVM.cpp - --convert-tile-to-nvvm ----------------------------===//
//
// Lowers the tile dialect inside kernels to NVVM/LLVM ops: recalls every
// copy's recorded decision, then applies the patterns of Patterns.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "Patterns.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILETONVVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

/// One `prefetch.tensormap` per tensor-map argument at kernel entry.
static void insertTensorMapPrefetches(Operation *root) {
  root->walk([](gpu::GPUFuncOp func) {
    SmallVector<UnrealizedConversionCastOp> casts;
    func.walk([&](UnrealizedConversionCastOp cast) {
      if (cast->hasAttr(kTensorMapAddressAttr))
        casts.push_back(cast);
    });
    llvm::SmallPtrSet<Value, 4> seen;
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    for (UnrealizedConversionCastOp cast : casts) {
      Value arg = cast.getOperand(0);
      if (!seen.insert(arg).second)
        continue;
      auto addr = UnrealizedConversionCastOp::create(
          b, cast.getLoc(), cast.getResultTypes(), arg);
      addr->setAttr(kTensorMapAddressAttr, b.getUnitAttr());
      NVVM::PrefetchOp::create(b, cast.getLoc(), /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, addr.getResult(0),
                               /*predicate=*/Value(),
                               /*tensormap=*/true);
    }
  });
}

LogicalResult mlir::tile::lowerTileOps(Operation *root,
                                       bool prefetchTensorMaps) {
  MLIRContext *ctx = root->getContext();
  // Recall every copy's recorded decision first so that each copy that
  // cannot be lowered gets its diagnostic, and nothing is rewritten.
  RecalledDecisions recalled;
  bool recallFailed = false;
  root->walk([&](Operation *op) {
    // A wgmma descriptor lowers from its recorded plan too.
    if (auto wgmma = dyn_cast<WgmmaDescriptorOp>(op)) {
      if (failed(wgmma.recallPlan()))
        recallFailed = true;
      return;
    }
    if (!isa<CopyAsyncOp, CopyOp>(op))
      return;
    FailureOr<DispatchResult> result = recallLowerableDecision(op);
    if (failed(result)) {
      recallFailed = true;
      return;
    }
    recalled.try_emplace(op, std::move(*result));
  });
  if (recallFailed)
    return failure();

  LLVMTypeConverter converter(ctx);
  RewritePatternSet patterns(ctx);
  populateTileToNVVMPatterns(converter, patterns, &recalled);
  ConversionTarget target(*ctx);
  target.addIllegalDialect<TileDialect>();
  // Dynamic shared memory is the arena (see ArenaLowering.cpp).
  target.addIllegalOp<gpu::DynamicSharedMemoryOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  // Loads and stores of #tile.layout buffers address them through the
  // layout; others are upstream's.
  target.addDynamicallyLegalOp<memref::LoadOp, memref::StoreOp, vector::LoadOp,
                               vector::StoreOp>([](Operation *op) {
    return llvm::none_of(op->getOperandTypes(), hasTileLayout);
  });
  if (failed(applyPartialConversion(root, target, std::move(patterns))))
    return failure();
  if (prefetchTensorMaps)
    insertTensorMapPrefetches(root);
  return success();
}

namespace {
struct TileToNVVMPass
    : public mlir::tile::impl::TileToNVVMBase<TileToNVVMPass> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyLowerings(registry);
  }
  void runOnOperation() override {
    if (failed(lowerTileOps(getOperation(), prefetchTensorMaps)))
      signalPassFailure();
  }
};
} // namespace
