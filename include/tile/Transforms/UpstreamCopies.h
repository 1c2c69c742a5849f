//===- UpstreamCopies.h - memref/linalg copies to tile.copy -----*- C++ -*-===//
//
// The conversion behind `tile-convert-upstream-copies` and
// `transform.tile.convert_upstream_copy`: a global <-> shared `memref.copy`
// or `linalg.copy` that every thread of a kernel executes becomes one
// CTA-wide `tile.copy`.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TRANSFORMS_UPSTREAMCOPIES_H
#define TILE_TRANSFORMS_UPSTREAMCOPIES_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <string>

namespace mlir::tile {
class CopyOp;

/// Whether `op` is an upstream copy this conversion considers (a
/// `memref.copy`, or a `linalg.copy` on buffers).
bool isUpstreamCopy(Operation *op);

/// Converts upstream copies one at a time, keeping one thread-dependence
/// analysis per kernel body for all of them.
class UpstreamCopyConverter {
public:
  UpstreamCopyConverter();
  ~UpstreamCopyConverter();

  /// Replaces `op` (an upstream copy) by its tile.copy and returns it; or
  /// leaves `op` as it is and sets `why` to the reason (one line naming the
  /// values). A copy outside a GPU kernel's threads is not converted and
  /// gets an empty `why`.
  FailureOr<CopyOp> convert(Operation *op, std::string &why);

private:
  struct Analyses;
  std::unique_ptr<Analyses> analyses;
};

} // namespace mlir::tile

#endif // TILE_TRANSFORMS_UPSTREAMCOPIES_H
