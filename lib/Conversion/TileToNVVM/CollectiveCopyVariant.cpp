//===- CollectiveCopyVariant.cpp - tile.copy across a scope's threads -----===//
//
// `tile.copy` is synchronous and collective: the threads of the scope split
// the elements round-robin (thread t moves elements t, t+n, t+2n, ...) and
// synchronise at the end, so every thread of the scope sees the whole copy
// when the op returns.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseCopy.h"
#include "LoweringUtils.h"
#include "Variants.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

/// Linear thread id within the CTA and the CTA's thread count.
static std::pair<Value, Value> getCtaThread(OpBuilder &b, Location loc) {
  Value tx = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value tz = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
  Value bx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
  Value bz = gpu::BlockDimOp::create(b, loc, gpu::Dimension::z);
  Value bxy = arith::MulIOp::create(b, loc, bx, by);
  Value id = arith::AddIOp::create(
      b, loc, tx,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, ty, bx),
                            arith::MulIOp::create(b, loc, tz, bxy)));
  return {id, arith::MulIOp::create(b, loc, bxy, bz)};
}

namespace {
class CollectiveCopyVariant : public CopyVariant {
public:
  CollectiveCopyVariant() : CopyVariant("collective", kCollectivePriority) {}

  bool handles(Operation *op) const override { return isa<CopyOp>(op); }

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
      auto [tid, ctaThreads] = getCtaThread(rewriter, loc);
      if (scope == CopyScope::Cta) {
        lane = tid;
        lanes = ctaThreads;
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
      // Named barrier 1 + warpgroup index over the warpgroup's 128 threads.
      auto [tid, unused] = getCtaThread(rewriter, loc);
      (void)unused;
      Value group = arith::DivUIOp::create(
          rewriter, loc, tid,
          arith::ConstantIndexOp::create(rewriter, loc, 128));
      Value id = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI32Type(),
          arith::AddIOp::create(
              rewriter, loc, group,
              arith::ConstantIndexOp::create(rewriter, loc, 1)));
      Value count = arith::ConstantIntOp::create(rewriter, loc,
                                                 rewriter.getI32Type(), 128);
      NVVM::BarrierOp::create(rewriter, loc, Type(), id, count,
                              NVVM::BarrierReductionAttr(), Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

std::unique_ptr<CopyVariant> mlir::tile::createCollectiveCopyVariant() {
  return std::make_unique<CollectiveCopyVariant>();
}
