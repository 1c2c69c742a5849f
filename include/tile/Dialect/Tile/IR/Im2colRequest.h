//===- Im2colRequest.h - tile.copy_im2col to planner requests ---*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_IM2COLREQUEST_H
#define TILE_DIALECT_TILE_IR_IM2COLREQUEST_H

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/TMA/Im2col.h"

namespace mlir::tile {

/// The planner's request for `op` (element types, shapes and strides from
/// the types; constant coordinates and offsets). Fails with the broken
/// rule in `reason` where the types cannot be described.
FailureOr<::tile::tma::Im2colRequest>
buildIm2colRequest(CopyIm2colOp op, ::tile::Decline &reason);

/// Plans `op`; emits the broken rule at the op on failure.
FailureOr<::tile::tma::Im2colPlan> planIm2colOp(CopyIm2colOp op);

/// Plans `op` and records the plan on it (`tile.im2col_plan`): what
/// tile-plan-copies does for each im2col load.
LogicalResult recordIm2colPlan(CopyIm2colOp op);

/// The plan tile-plan-copies recorded on `op`, without planning again;
/// `plan-missing` at the op when there is none.
FailureOr<::tile::tma::Im2colPlan> recallIm2colPlan(CopyIm2colOp op);

/// Checks the recorded plan against the one `op` makes now (`plan-stale`
/// when they differ): tile-check-recorded-plans.
LogicalResult verifyRecordedIm2colPlan(CopyIm2colOp op);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_IM2COLREQUEST_H
