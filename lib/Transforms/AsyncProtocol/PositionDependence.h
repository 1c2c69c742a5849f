//===- PositionDependence.h - Values that differ between threads -*- C++
//-*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// which values, and so which control flow, differ between the threads of a
// cluster. The cluster rules ask about any position (thread or CTA): a
// cluster barrier needs every thread. The transaction-byte scan asks about
// the CTA's position only: a multicast load issued under thread-dependent
// but CTA-independent control is issued once by every CTA of the cluster.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_POSITIONDEPENDENCE_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_POSITIONDEPENDENCE_H

#include "mlir/IR/Region.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include <array>
#include <optional>

namespace mlir::tile::async_protocol {

/// The positions a dependence is traced to.
enum class Position {
  /// A thread's position in its CTA or the CTA's in the grid or cluster.
  ThreadOrCta,
  /// The CTA's position in its cluster only (block ids, the rank in the
  /// cluster): what differs between the CTAs that a multicast reaches. Where
  /// the kernel states its cluster size, the cluster's id, a block id along
  /// a dimension the cluster does not span, and a block id divided by a
  /// multiple of the cluster's extent along it are the same in every CTA of
  /// a cluster.
  Cta,
  /// A thread's position in its CTA only (thread, lane and warp ids): what
  /// differs between the threads that a CTA-wide collective needs.
  Thread,
  /// A thread's lane in its warp: what differs between the threads that a
  /// warp's collective needs. Thread x divided by a multiple of 32, or
  /// compared with a warp boundary, is the same in every lane where the
  /// block's warps are runs of thread x (its stated x size a multiple of 32,
  /// or a one-dimensional block).
  Lane,
};

/// Which values of a kernel body are computed from a position. Memoized over
/// the values asked about, so the analysis stays linear in the kernel.
class PositionDependence {
public:
  PositionDependence(Region &body, Position position);

  /// Whether `v` may differ between the threads (or the CTAs) of a cluster.
  bool dependsOnPosition(Value v);

  /// The innermost op between `op` and the kernel body whose control depends
  /// on the position: an scf.if on such a condition, an scf.for with such a
  /// bound, or any scf.while (its trip count is data); null if none.
  Operation *divergentControl(Operation *op);

private:
  bool isPositionOp(Operation *op) const;
  /// Position::Lane: whether `op` gives the same value in every lane of a
  /// warp although it reads thread x (a warp index or a warp-boundary test).
  bool isWarpSplit(Operation *op) const;
  /// Position::Cta: whether `op` gives the same value in every CTA of a
  /// cluster although it reads a block or cluster id (see Position::Cta).
  bool isClusterUniform(Operation *op) const;
  /// The dimension of the block id `v` is (through index casts): a block id
  /// op, or a gpu.launch body's block id argument.
  std::optional<unsigned> blockIdDimension(Value v) const;
  bool isThreadX(Value v) const;

  Region &body;
  Position position;
  /// Position::Lane: thread x of a gpu.launch body (its block argument).
  Value launchThreadX;
  /// A gpu.launch body's block ids (x, y, z); null elsewhere.
  std::array<Value, 3> launchBlockIds;
  /// Position::Lane: whether the block's warps are runs of thread x.
  bool warpsFollowX = false;
  /// Position::Cta: the kernel's stated cluster size (x, y, z), if any.
  std::optional<SmallVector<int64_t, 3>> clusterDims;
  llvm::DenseMap<Value, bool> known;
};

/// The CTAs of the cluster the kernel around `op` runs in (the product of
/// getStatedClusterSize); unknown where the kernel states none.
std::optional<int64_t> getKernelClusterSize(Operation *op);

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_POSITIONDEPENDENCE_H
