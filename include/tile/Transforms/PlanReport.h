//===- PlanReport.h - The plan report line of one copy ----------*- C++ -*-===//
//
// The JSON object `--tile-report-copy-plans` writes per copy ("Plan report
// (contract)" in docs/plan-report.md), for tools that ask about one op.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_PLANREPORT_H
#define TILE_TRANSFORMS_PLANREPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile {

class CopyAsyncOp;
struct DispatchResult;

/// Writes the report object of `op` for its recorded decision `result`
/// (no trailing newline).
void writeCopyPlanReport(CopyAsyncOp op, const DispatchResult &result,
                         llvm::raw_ostream &os);

/// Decides `op` as tile-plan-copies would, on a copy of its top-level
/// operation (the IR is left unchanged), and writes its report object (no
/// trailing newline). Fails with a diagnostic where the dispatch does.
LogicalResult reportCopyPlan(CopyAsyncOp op, llvm::raw_ostream &os);

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_PLANREPORT_H
