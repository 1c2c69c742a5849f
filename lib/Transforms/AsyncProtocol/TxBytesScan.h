//===- TxBytesScan.h - Transaction bytes per barrier and phase --*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md),
// shared by tile-verify-async (the async-tx-bytes rule) and
// tile-materialize-expect-tx (the bytes to expect).
//
// Transaction bytes are checked per mbarrier group on the block that holds
// all of the group's arrive.expect_tx ops and loads (loads may sit in issue
// loops with constant trip counts nested in it): per barrier and phase, the
// announced bytes must equal the delivered ones.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_TXBYTESSCAN_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_TXBYTESSCAN_H

#include "BarrierIdentity.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

namespace mlir::tile {
class CopyAsyncOp;
} // namespace mlir::tile

namespace mlir::tile::async_protocol {

class PositionDependence;

/// The CTAs whose issue of a multicast load signals each CTA's barrier,
/// memoized per kernel: the kernel's position dependence is computed once
/// however many loads ask, so a scan stays linear in the kernel.
class MulticastIssuers {
public:
  MulticastIssuers();
  ~MulticastIssuers();
  /// The whole cluster when the mask names every CTA of it and no control
  /// around the load depends on the CTA's position (every CTA issues it,
  /// each to all); unknown otherwise.
  std::optional<int64_t> of(CopyAsyncOp copy);

private:
  llvm::DenseMap<Operation *, std::unique_ptr<PositionDependence>> kernels;
};

/// A load that completes on an mbarrier: a tile.copy_async load or a
/// tile.copy_im2col.
struct BarrierLoad {
  Operation *op = nullptr;
  Value group, index;
  /// The bytes one issue of the load moves.
  int64_t bytes = 0;
  /// The CTAs whose issue of the load signals this CTA's barrier: 1 for a
  /// load without multicast, the cluster size for a multicast to every CTA
  /// that every CTA issues.
  int64_t issuers = 1;
  /// A multicast whose issuers the scan cannot tell (a mask that is not the
  /// whole cluster, a condition on the CTA's position, an unknown cluster):
  /// the bytes this CTA receives depend on the other CTAs' control flow.
  bool multicastUndecided = false;
  /// The bytes this CTA's barrier receives per issue in this CTA.
  int64_t received() const { return bytes * issuers; }
};

/// The loads and announcements of one barrier in one phase of one block.
struct TxUnit {
  SmallVector<std::pair<BarrierLoad, int64_t>> loads; // load, times issued
  SmallVector<Operation *> expects; // nvgpu and tile arrive.expect_tx
  int64_t delivered = 0;
  int64_t announced = 0;
  bool announcedKnown = true;
  bool multicastUndecided = false;
};

/// Scans `block` for the phases of the barriers of `group`, calling
/// `closeUnit(barrier, unit)` at the end of each phase (a wait on the
/// barrier, or the block's end). Fails where the block uses the group in a
/// way the scan cannot attribute (nested regions other than issue loops,
/// barriers that may alias without being one, loop-variant indices).
LogicalResult
scanPhases(Block &block, Value group, MulticastIssuers &issuers,
           function_ref<void(const BarrierIdentity &, TxUnit &)> closeUnit);

/// Reports `async-tx-bytes` for the groups whose loads and announcements
/// all sit in one block. Returns false where it reported.
bool checkTransactionBytes(Operation *kernel);

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_TXBYTESSCAN_H
