//===- CopyRequest.h - tile.copy_async to planner requests ------*- C++ -*-===//
//
// Translates a verified `tile.copy_async` into the pure C++ planner's
// `CopyRequest`: layouts, shapes, regions, and its dynamic offsets as
// symbols with the divisors the IR proves for them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_COPYREQUEST_H
#define TILE_DIALECT_TILE_IR_COPYREQUEST_H

#include "mlir/IR/Value.h"
#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::tile {

struct CopyRequestInfo {
  ::tile::tma::CopyRequest request;
  /// SSA value of each symbol id used in the request's offsets.
  SmallVector<Value> symbols;
};

/// Builds the planner request of `op`. Fails with the broken rule in
/// `reason` for copies the planner cannot describe (dynamic global shapes,
/// element types TMA does not carry). The divisors of dynamic offsets come
/// from `divisors`; without one (the verifier, and a recall of a recorded
/// plan, which read no divisors) every offset counts as divisible by 1 only,
/// so such a request is not planned from.
FailureOr<CopyRequestInfo>
buildCopyRequest(CopyAsyncOp op, ::tile::Decline &reason,
                 DivisorAnalysis *divisors = nullptr);
/// The same for a `tile.copy` between a global and a shared buffer (a
/// collective copy the TMA may carry out for its scope).
FailureOr<CopyRequestInfo>
buildCopyRequest(CopyOp op, ::tile::Decline &reason,
                 DivisorAnalysis *divisors = nullptr);

/// A stable 64-bit fingerprint of every field of a planner request but the
/// offsets' divisors (which need a walk over producers) and of the plan made
/// for it (the same in every process, so a printed record can be
/// checked after parsing): `tile.plan_input`.
uint64_t getPlanInputFingerprint(const ::tile::tma::CopyRequest &request,
                                 const ::tile::tma::TmaPlan &plan);

/// Checks the decision tile-plan-copies recorded on a verified `op`, if any
/// (RecordedDecisionVerifier.cpp): the recorded `#tile.tma_plan` must still
/// describe the copy (`plan-stale`), emitting the error at the op. The `tma`
/// variant's recall calls it (so every pass that reads the record does), and so
/// does tile-check-recorded-plans; the op verifier does not (it may run the
/// hardware model).
LogicalResult verifyRecordedPlan(CopyAsyncOp op);
/// The same check against the request `info` built for `op` already.
LogicalResult verifyRecordedPlan(CopyAsyncOp op, const CopyRequestInfo &info);

/// Alignment in bytes of a shared buffer's start: from `tile.arena_view`
/// offsets and `tile.stage` strides; 1024 when the IR does not show it (a
/// function argument), as the plan report contract assumes.
int64_t getSharedBaseAlignment(Value sharedBuffer);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_COPYREQUEST_H
