//===- BuiltinLowerings.cpp - How the built-in copy variants lower --------===//
//
// The lowering halves of the built-in variants (their decisions are in
// lib/Dispatch), attached to the variants when the tile dialect loads:
//   tma         one cp.async.bulk.tensor per planned issue (TmaLowering.cpp);
//   simt        per-element loads and stores by the issuing thread. A load
//               keeps the TMA completion contract: it completes the caller's
//               mbarrier transaction count (element count x element bytes),
//               after fencing so that both the waiting threads and
//               async-proxy readers (TMA stores, wgmma) see the data, so the
//               caller's arrive.expect_tx / try_wait code works unchanged
//               whichever variant ran; a multicast load stores into and
//               completes each named CTA's buffer and barrier through the
//               cluster's shared window (mapa), as the TMA's multicast does;
//   collective  `tile.copy` split round-robin over the scope's threads
//               (thread t moves elements t, t+n, t+2n, ...), synchronised at
//               the end, so every thread of the scope sees the whole copy
//               when the op returns.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseCopy.h"
#include "LoweringUtils.h"
#include "Patterns.h"
#include "TmaLowering.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "tile/Conversion/TileToNVVM/TileToNVVM.h"
#include "tile/Dialect/Tile/IR/ThreadIndex.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Dispatch/BuiltinVariants.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
class TmaCopyLowering : public CopyVariantLowering {
public:
  LogicalResult rewrite(Operation *op, const VariantMatch *match,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &converter) const override {
    return lowerTmaCopy(cast<CopyAsyncOp>(op),
                        *static_cast<const TmaMatch *>(match), rewriter,
                        converter);
  }
};

/// Runs `body` for each CTA rank (an i32) set in the 16-bit `mask`.
static void forEachMaskedCta(ConversionPatternRewriter &rewriter, Location loc,
                             Value mask, function_ref<void(Value cta)> body) {
  OpBuilder::InsertionGuard guard(rewriter);
  Value bits =
      arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), mask);
  auto constant = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  auto loop =
      scf::ForOp::create(rewriter, loc, constant(0), constant(16), constant(1));
  rewriter.setInsertionPointToStart(loop.getBody());
  Value cta = loop.getInductionVar();
  Value bit = arith::AndIOp::create(
      rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, cta),
      constant(1));
  Value set = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                    bit, constant(0));
  auto ifOp = scf::IfOp::create(rewriter, loc, set, /*withElseRegion=*/false);
  rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body(cta);
}

class SimtCopyLowering : public CopyVariantLowering {
public:
  LogicalResult rewrite(Operation *op, const VariantMatch *,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &converter) const override {
    auto copy = cast<CopyAsyncOp>(op);
    Location loc = copy.getLoc();
    MLIRContext *ctx = op->getContext();
    auto [dst, src] = getElementwiseSides(copy, rewriter);
    ElementwiseOptions options;
    bool load = copy.isLoad();
    options.fillOutOfBounds = load;
    options.nanFill = copy.getOobKind() == OobMode::NaN;
    if (std::optional<ReduceMode> reduce = copy.getReduceKind())
      options.reduce = toTmaReduceKind(*reduce);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // A multicast load: the elements are stored into every CTA the mask
    // names (this one among them where it is set), through their windows in
    // the cluster's shared memory, and each CTA's barrier is completed by
    // this copy's bytes, as the TMA's multicast does.
    Value mask = copy.getMulticastMask()
                     ? rewriter.getRemappedValue(copy.getMulticastMask())
                     : Value();
    if (mask) {
      forEachMaskedCta(rewriter, loc, mask, [&](Value cta) {
        ElementwiseOptions toCta = options;
        toCta.dstCta = cta;
        emitElementwiseCopy(rewriter, loc, converter, dst, src, zero, one,
                            toCta);
      });
    } else {
      emitElementwiseCopy(rewriter, loc, converter, dst, src, zero, one,
                          options);
    }

    if (load) {
      // Make the generic-proxy writes visible to async-proxy readers and
      // order them before the (relaxed) transaction completion: at cluster
      // scope where they went to other CTAs.
      NVVM::FenceProxyOp::create(
          rewriter, loc,
          NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(ctx,
                                     mask ? NVVM::SharedSpace::shared_cluster
                                          : NVVM::SharedSpace::shared_cta));
      NVVM::MembarOp::create(rewriter, loc,
                             mask ? NVVM::MemScopeKind::CLUSTER
                                  : NVVM::MemScopeKind::CTA);
      Value mbar = getMBarrierPtr(rewriter, loc,
                                  rewriter.getRemappedValue(copy.getBarrier()),
                                  copy.getBarrierIndex());
      Value bytes = arith::ConstantIntOp::create(
          rewriter, loc, rewriter.getI32Type(), copy.getTransactionBytes());
      if (mask) {
        forEachMaskedCta(rewriter, loc, mask, [&](Value cta) {
          NVVM::MBarrierCompleteTxOp::create(
              rewriter, loc, mapToClusterCta(rewriter, loc, mbar, cta), bytes,
              NVVM::MemScopeKind::CLUSTER);
        });
      } else {
        NVVM::MBarrierCompleteTxOp::create(rewriter, loc, mbar, bytes);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

class CollectiveCopyLowering : public CopyVariantLowering {
public:
  LogicalResult rewrite(Operation *op, const VariantMatch *,
                        ConversionPatternRewriter &rewriter,
                        const LLVMTypeConverter &converter) const override {
    auto copy = cast<CopyOp>(op);
    Location loc = copy.getLoc();
    CopyScope scope = *copy.getScopeKind();
    Value lane, lanes;
    if (scope == CopyScope::Thread) {
      lane = arith::ConstantIndexOp::create(rewriter, loc, 0);
      lanes = arith::ConstantIndexOp::create(rewriter, loc, 1);
    } else {
      Value tid = emitLinearThreadId(rewriter, loc);
      if (scope == CopyScope::Cta) {
        lane = tid;
        lanes = emitCtaThreadCount(rewriter, loc);
      } else {
        int64_t width = scope == CopyScope::Warp ? 32 : 128;
        lanes = arith::ConstantIndexOp::create(rewriter, loc, width);
        lane = arith::RemUIOp::create(rewriter, loc, tid, lanes);
      }
    }
    auto [dst, src] = getElementwiseSides(copy, rewriter);
    emitElementwiseCopy(rewriter, loc, converter, dst, src, lane, lanes,
                        ElementwiseOptions());
    if (scope == CopyScope::Cta) {
      gpu::BarrierOp::create(rewriter, loc);
    } else if (scope == CopyScope::Warp) {
      Value all = arith::ConstantIntOp::create(rewriter, loc,
                                               rewriter.getI32Type(), -1);
      NVVM::SyncWarpOp::create(rewriter, loc, all);
    } else if (scope == CopyScope::Warpgroup) {
      emitWarpgroupBarrier(rewriter, loc, emitLinearThreadId(rewriter, loc));
    }
    rewriter.eraseOp(op);
    return success();
  }
};
/// `collective_tma`: its copies become one thread's tile.copy_async before
/// lowering (tile-expand-collective-copies); reaching here is a diagnostic.
struct CollectiveTmaCopyLowering : public CopyVariantLowering {
  LogicalResult rewrite(Operation *op, const VariantMatch *,
                        ConversionPatternRewriter &,
                        const LLVMTypeConverter &) const override {
    return emitUnexpandedCollectiveTmaError(op);
  }
};
} // namespace

static void attachBuiltinCopyLowerings(MLIRContext *, TileDialect *dialect) {
  CopyVariantRegistry &variants = CopyVariantRegistry::attach(dialect);
  variants.setLowering(kTmaVariantName, std::make_unique<TmaCopyLowering>());
  variants.setLowering(kSimtVariantName, std::make_unique<SimtCopyLowering>());
  variants.setLowering(kCollectiveVariantName,
                       std::make_unique<CollectiveCopyLowering>());
  variants.setLowering(kCollectiveTmaVariantName,
                       std::make_unique<CollectiveTmaCopyLowering>());
}

void mlir::tile::registerBuiltinCopyLowerings(DialectRegistry &registry) {
  // The variants first: extensions run in the order they were added.
  registerBuiltinCopyVariants(registry);
  registry.addExtension(attachBuiltinCopyLowerings);
}
