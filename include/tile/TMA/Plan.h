//===- Plan.h - TMA copy requests and descriptor plans ----------*- C++ -*-===//
//
// What the planner consumes (a copy between a global and a shared region,
// each described by a layout on a static shape) and what it produces (a
// cuTensorMapEncodeTiled descriptor plus the cp.async.bulk.tensor issues).
// Elements of the two regions correspond in row-major order of each region,
// so unit extents may differ and one region may be a reshape of the other.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_PLAN_H
#define TILE_TMA_PLAN_H

#include "tile/Layout/Layout.h"
#include "tile/TMA/ElementType.h"
#include "tile/TMA/SymExpr.h"

#include <optional>
#include <string>
#include <vector>

namespace tile::tma {

enum class Direction { GlobalToShared, SharedToGlobal };

struct CopyRequest {
  Direction direction = Direction::GlobalToShared;
  ElementType elementType;
  /// The global buffer's layout, including its memref element offset.
  Layout globalLayout;
  std::vector<int64_t> globalShape;
  std::vector<SymExpr> globalOffsets;
  std::vector<int64_t> globalSizes;
  Layout sharedLayout;
  std::vector<int64_t> sharedShape;
  std::vector<SymExpr> sharedOffsets;
  std::vector<int64_t> sharedSizes;
  /// Per symbol id: a known positive divisor of its runtime value (1 when
  /// nothing is known).
  std::vector<int64_t> symbolDivisors;
  /// Bytes; the alignment of the shared buffer's start.
  int64_t sharedBaseAlignment = 1024;
  OobFill oobFill = OobFill::Zero;
  ReduceKind reduce = ReduceKind::None;
};

/// The tensor map, all per-dimension lists innermost first (driver order).
struct TensorMapDesc {
  TensorDataType dataType = TensorDataType::U8;
  unsigned rank = 0;
  std::vector<uint64_t> globalDim;
  std::vector<uint64_t> globalStridesBytes; // rank - 1 values (dims 1..)
  std::vector<uint32_t> boxDim;
  std::vector<uint32_t> elementStrides;
  int interleave = 0;
  Swizzle swizzle = Swizzle::None;
  int l2Promotion = 2;
  int oobFill = 0; // 0 zeros, 1 NaN
  /// Added to the global buffer's base address (its layout offset and any
  /// part of the region start folded into the base).
  SymExpr baseOffsetBytes;
  /// True when the element type was widened to reach fewer dimensions.
  bool promoted = false;
  /// Bytes of the descriptor's element (after promotion).
  int64_t elementBytes = 1;
};

inline bool operator==(const TensorMapDesc &a, const TensorMapDesc &b) {
  return a.dataType == b.dataType && a.rank == b.rank &&
         a.globalDim == b.globalDim &&
         a.globalStridesBytes == b.globalStridesBytes && a.boxDim == b.boxDim &&
         a.elementStrides == b.elementStrides && a.interleave == b.interleave &&
         a.swizzle == b.swizzle && a.l2Promotion == b.l2Promotion &&
         a.oobFill == b.oobFill && a.baseOffsetBytes == b.baseOffsetBytes &&
         a.promoted == b.promoted && a.elementBytes == b.elementBytes;
}

/// One cp.async.bulk.tensor instruction.
struct TmaIssue {
  /// Relative to the shared buffer's start, before swizzling.
  SymExpr smemByteOffset;
  /// Innermost first, int32 element coordinates of the descriptor's type.
  std::vector<SymExpr> coords;
};

struct TmaPlan {
  TensorMapDesc map;
  std::vector<TmaIssue> issues;
  /// Transaction bytes: region elements * element bytes (OOB included).
  int64_t bytes = 0;
};

inline bool operator==(const TmaIssue &a, const TmaIssue &b) {
  return a.smemByteOffset == b.smemByteOffset && a.coords == b.coords;
}

inline bool operator==(const TmaPlan &a, const TmaPlan &b) {
  return a.map == b.map && a.issues == b.issues && a.bytes == b.bytes;
}

struct PlanOutcome {
  std::optional<TmaPlan> plan;
  /// "<rule-id>: <values>" when there is no plan.
  std::string decline;
};

} // namespace tile::tma

#endif // TILE_TMA_PLAN_H
