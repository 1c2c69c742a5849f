//===- MaterializeExpectTx.cpp - --tile-materialize-expect-tx -------------===//
//
// Each tile.arrive_expect_tx becomes an nvgpu.mbarrier.arrive.expect_tx of
// the bytes its phase's loads deliver, as the transaction-byte scan of
// tile-verify-async counts them (AsyncProtocol/TxBytesScan.h).
//
//===----------------------------------------------------------------------===//

#include "AsyncProtocol/TxBytesScan.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Transforms/Passes.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEMATERIALIZEEXPECTTX
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::async_protocol;

namespace {
struct MaterializeExpectTxPass
    : public mlir::tile::impl::TileMaterializeExpectTxBase<
          MaterializeExpectTxPass> {
  void runOnOperation() override {
    // The blocks and groups that hold tile.arrive_expect_tx ops.
    llvm::MapVector<std::pair<Block *, Value>, bool> scans;
    getOperation()->walk([&](ArriveExpectTxOp op) {
      scans.insert({{op->getBlock(), op.getBarriers()}, true});
    });
    bool ok = true;
    bool changed = false;
    MulticastIssuers issuers;
    for (auto &entry : scans) {
      Block *block = entry.first.first;
      Value group = entry.first.second;
      SmallVector<std::pair<ArriveExpectTxOp, int64_t>> rewrites;
      LogicalResult scanned = scanPhases(
          *block, group, issuers,
          [&](const BarrierIdentity &barrier, TxUnit &unit) {
            for (Operation *op : unit.expects) {
              auto implicit = dyn_cast<ArriveExpectTxOp>(op);
              if (!implicit)
                continue;
              StringRef reason;
              if (unit.loads.empty())
                reason = "it covers no tile.copy_async or tile.copy_im2col "
                         "load";
              else if (unit.multicastUndecided)
                reason = "a load it covers multicasts and the CTAs that issue "
                         "it cannot be told (a mask that is not the whole "
                         "cluster, a condition on the CTA's position, or an "
                         "unknown cluster size), so the bytes each CTA "
                         "receives depend on the other CTAs' loads";
              else if (unit.expects.size() != 1)
                reason = "another arrive.expect_tx announces bytes in the "
                         "same phase";
              if (!reason.empty()) {
                std::string text;
                llvm::raw_string_ostream os(text);
                os << "cannot derive the bytes to expect on " << barrier << ": "
                   << reason;
                emitRuleErrorAt(implicit, ::tile::RuleId::AsyncTxBytes) << text;
                ok = false;
                continue;
              }
              rewrites.push_back({implicit, unit.delivered});
            }
          });
      if (failed(scanned)) {
        for (Operation &op : *block)
          if (auto implicit = dyn_cast<ArriveExpectTxOp>(op))
            if (implicit.getBarriers() == group) {
              emitRuleErrorAt(implicit, ::tile::RuleId::AsyncTxBytes)
                  << "cannot derive the bytes to expect: the "
                     "loads on this barrier group are not all in this block "
                     "(or "
                     "in issue loops with constant trip counts in it), or "
                     "their "
                     "barrier indices cannot be told apart";
              ok = false;
            }
        continue;
      }
      changed |= !rewrites.empty();
      for (auto [op, bytes] : rewrites) {
        OpBuilder b(op);
        Value count =
            arith::ConstantIndexOp::create(b, op.getLoc(), bytes).getResult();
        nvgpu::MBarrierArriveExpectTxOp::create(
            b, op.getLoc(), op.getBarriers(), count, op.getMbarId(), Value());
        op.erase();
      }
    }
    if (!ok)
      signalPassFailure();
    // Unchanged IR needs no verifier run after this pass.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
