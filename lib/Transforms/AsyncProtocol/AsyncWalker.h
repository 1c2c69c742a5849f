//===- AsyncWalker.h - The path walk of the async protocol ------*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// every rule of tile-verify-async but async-tx-bytes (TxBytesScan.h).
//
// The walk follows the kernel as one thread of the CTA would, through scf.if
// (both branches, unless the condition is known, then joined) and scf.for
// (iteration by iteration with the induction variable known, up to a bound),
// evaluating index and i1 arithmetic on known values (KnownValues.h) so that
// stage indices and parities of pipelines are known. The state holds "may"
// facts: shared byte ranges written by the generic proxy and not fenced, TMA
// loads not waited for, bulk stores not covered by a bulk_wait_group; and per
// barrier (BarrierIdentity.h, as the transaction-byte scan names them) the
// number of waits so far. A fact the walk cannot follow (calls, unknown region
// ops, loops it stops following) is dropped, so every report names a path the
// kernel has.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_ASYNCWALKER_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_ASYNCWALKER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tile::async_protocol {

/// What the walk of one kernel found.
struct AsyncWalkResult {
  /// True where the walk reported an error.
  bool reportedError = false;
  /// The generic writes after which a fence.proxy.async is missing, found
  /// instead of reported (async-proxy-fence) when the walk inserts fences.
  llvm::SetVector<Operation *> fenceSites;
};

/// Walks the kernel `body` and reports async-proxy-fence (or, with
/// `insertFences`, collects the fence sites instead), async-load-wait,
/// async-store-reuse and async-phase at the ops that break them, each once
/// per op and rule.
AsyncWalkResult walkKernel(Region &body, bool insertFences);

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_ASYNCWALKER_H
