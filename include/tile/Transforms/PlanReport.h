//===- PlanReport.h - The plan report line of one copy ----------*- C++ -*-===//
//
// The JSON object `--tile-report-copy-plans` writes per copy ("Plan report
// (contract)" in docs/plan-report.md), for tools that ask about one op.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_PLANREPORT_H
#define TILE_TRANSFORMS_PLANREPORT_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace mlir::tile {

class CopyAsyncOp;
struct DispatchResult;

/// Writes the report object of `op` for its recorded decision `result`
/// (no trailing newline).
void writeCopyPlanReport(CopyAsyncOp op, const DispatchResult &result,
                         llvm::raw_ostream &os);

/// Writes the report object of an im2col load (no trailing newline); fails
/// with the broken rule's diagnostic at the op.
LogicalResult writeIm2colReport(CopyIm2colOp op, llvm::raw_ostream &os);

/// Decides `op` as tile-plan-copies would, on a copy of its top-level
/// operation (the IR is left unchanged), and writes its report object (no
/// trailing newline). Fails with a diagnostic where the dispatch does.
LogicalResult reportCopyPlan(CopyAsyncOp op, llvm::raw_ostream &os);

/// Decides `op` as tile-plan-copies would, on a copy of its top-level
/// operation (the IR is left unchanged), and calls `fn` with the copy's
/// counterpart in that copy and its decision. Fails with a diagnostic where
/// the dispatch does.
LogicalResult
withCopyDecision(CopyAsyncOp op,
                 function_ref<void(CopyAsyncOp, const DispatchResult &)> fn);

/// A copy's location as the report writes it: `file:line:col` for file
/// locations, MLIR's own printing otherwise.
std::string formatCopyLocation(Location loc);

/// The SVG picture of `op` and its recorded decision `result`
/// (`--tile-draw-copy-plans`, tile/Draw/Draw.h).
std::string drawCopyDecision(CopyAsyncOp op, const DispatchResult &result);

/// Decides `op` as reportCopyPlan does and writes its SVG picture.
LogicalResult drawCopyPlan(CopyAsyncOp op, llvm::raw_ostream &os);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_PLANREPORT_H
