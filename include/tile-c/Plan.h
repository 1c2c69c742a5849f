/*===- tile-c/Plan.h - C API: the plan of one copy ----------------*- C -*-===*\
|*                                                                            *|
|* Asks how one `tile.copy_async` would be lowered, without changing the IR. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_PLAN_H
#define TILE_C_PLAN_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Passes the plan report line of `copyOp` (a `tile.copy_async`; one JSON
/// object, the format of `tile-opt --tile-report-copy-plans`, without the
/// newline) to `callback`, possibly in several pieces. The decision is taken
/// on a copy of the op's top-level module, as tile-plan-copies would take it;
/// the IR is left as it is. Fails, with a diagnostic on the context, when the
/// op is not a `tile.copy_async` or the dispatch fails.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirTileQueryCopyPlan(
    MlirOperation copyOp, MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_PLAN_H
