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
#include "tile/Support/Decline.h"
#include "tile/TMA/ElementType.h"
#include "tile/TMA/SymExpr.h"

#include <optional>
#include <string>
#include <vector>

namespace tile::tma {

enum class Direction { GlobalToShared, SharedToGlobal };

/// A value of the global buffer's memref descriptor that the type leaves to
/// run time ('?'): a dimension's size or stride (elements), the element
/// offset, or the aligned base address.
struct RuntimeValue {
  enum class Kind : uint8_t { Size, Stride, Offset, Address };
  Kind kind = Kind::Size;
  unsigned dim = 0; // Size and Stride: the memref dimension

  static RuntimeValue size(unsigned d) { return {Kind::Size, d}; }
  static RuntimeValue stride(unsigned d) { return {Kind::Stride, d}; }
  static RuntimeValue offset() { return {Kind::Offset, 0}; }
  static RuntimeValue address() { return {Kind::Address, 0}; }
  bool operator==(const RuntimeValue &o) const {
    return kind == o.kind && dim == o.dim;
  }
  bool operator!=(const RuntimeValue &o) const { return !(*this == o); }
  /// "size", "stride", "offset", "address".
  const char *kindName() const;
  /// "size[1]", "stride[0]", "offset", "address".
  std::string str() const;
};

/// Concrete run-time values of one global buffer (what a host reads from its
/// memref descriptor before a launch).
struct RuntimeValues {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  uint64_t address = 0;
  /// The value of `v` (0 for a dimension the buffer lacks).
  int64_t get(RuntimeValue v) const;
};

/// A tensor-map field the host computes: value * scale / divisor (the plan's
/// guards make the division exact).
struct RuntimeField {
  RuntimeValue value;
  int64_t scale = 1;
  int64_t divisor = 1;
  bool operator==(const RuntimeField &o) const {
    return value == o.value && scale == o.scale && divisor == o.divisor;
  }
  int64_t evaluate(const RuntimeValues &values) const;
  /// "size[1]", "stride[0]*2", "size[1]/64".
  std::string str() const;
};

/// A fact about run-time values that a plan relies on and the compiler could
/// not prove: the host checks it before each launch and runs the kernel's
/// fallback version when it fails. The predicate is on the linear value
/// constant + sum(coeff * value): a multiple of `modulus`, or inside
/// [lo, hi].
struct Guard {
  enum class Kind : uint8_t { MultipleOf, InRange };
  /// The rule the plan would break.
  RuleId rule = RuleId::GlobalAlign;
  Kind kind = Kind::MultipleOf;
  int64_t constant = 0;
  std::vector<std::pair<RuntimeValue, int64_t>> terms;
  int64_t modulus = 1;
  int64_t lo = 0, hi = 0;

  /// The linear value, wrapping like the host's 64-bit arithmetic.
  int64_t value(const RuntimeValues &values) const;
  bool holds(const RuntimeValues &values) const;
  /// "stride[0]*2 % 16 == 0", "1 <= size[1] <= 4294967296".
  std::string str() const;
  bool operator==(const Guard &o) const {
    return rule == o.rule && kind == o.kind && constant == o.constant &&
           terms == o.terms && modulus == o.modulus && lo == o.lo && hi == o.hi;
  }
};

/// A strided global buffer whose type leaves sizes, strides or its offset to
/// run time. Static entries hold their value, dynamic ones nullopt.
struct SymbolicGlobal {
  std::vector<std::optional<int64_t>> sizes;
  std::vector<std::optional<int64_t>> strides; // elements
  std::optional<int64_t> offset;
  bool operator==(const SymbolicGlobal &o) const {
    return sizes == o.sizes && strides == o.strides && offset == o.offset;
  }
};

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
  /// Set for a global buffer with run-time sizes, strides or offset; then
  /// globalShape holds kUnknownExtent for each dynamic size and globalLayout
  /// is unused (the planner reads this instead).
  std::optional<SymbolicGlobal> symbolicGlobal;
  /// The four tensor rows of a tile::gather4 load or tile::scatter4 store
  /// (empty for tiled copies): the global region is [0, col] [4, n] of a 2D
  /// tensor and its row i is the tensor's row gatherRows[i].
  std::vector<SymExpr> gatherRows;
};

/// globalShape's entry for a size known only at run time.
constexpr int64_t kUnknownExtent = int64_t(1) << 40;

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
  /// Plans for a SymbolicGlobal: per dimension the field the host computes,
  /// nullopt where the static value above holds (a runtime entry's static
  /// value is 0). Empty when every field is static.
  std::vector<std::optional<RuntimeField>> runtimeGlobalDim;
  std::vector<std::optional<RuntimeField>> runtimeGlobalStrides;
  /// Bytes per element of the memref's run-time offset, added to the base
  /// (0: the offset is static and already in baseOffsetBytes).
  int64_t runtimeOffsetScale = 0;

  bool hasRuntimeFields() const {
    return !runtimeGlobalDim.empty() || !runtimeGlobalStrides.empty() ||
           runtimeOffsetScale != 0;
  }
};

inline bool operator==(const TensorMapDesc &a, const TensorMapDesc &b) {
  return a.dataType == b.dataType && a.rank == b.rank &&
         a.globalDim == b.globalDim &&
         a.globalStridesBytes == b.globalStridesBytes && a.boxDim == b.boxDim &&
         a.elementStrides == b.elementStrides && a.interleave == b.interleave &&
         a.swizzle == b.swizzle && a.l2Promotion == b.l2Promotion &&
         a.oobFill == b.oobFill && a.baseOffsetBytes == b.baseOffsetBytes &&
         a.promoted == b.promoted && a.elementBytes == b.elementBytes &&
         a.runtimeGlobalDim == b.runtimeGlobalDim &&
         a.runtimeGlobalStrides == b.runtimeGlobalStrides &&
         a.runtimeOffsetScale == b.runtimeOffsetScale;
}

/// One cp.async.bulk.tensor instruction.
struct TmaIssue {
  /// Relative to the shared buffer's start, before swizzling.
  SymExpr smemByteOffset;
  /// Innermost first, int32 element coordinates of the descriptor's type;
  /// a tile::gather4 / tile::scatter4 issue has five: the column, then the
  /// four rows.
  std::vector<SymExpr> coords;
};

struct TmaPlan {
  TensorMapDesc map;
  std::vector<TmaIssue> issues;
  /// Transaction bytes: region elements * element bytes (OOB included).
  int64_t bytes = 0;
  /// What the plan assumes about run-time values (empty for static copies).
  std::vector<Guard> guards;
};

inline bool operator==(const TmaIssue &a, const TmaIssue &b) {
  return a.smemByteOffset == b.smemByteOffset && a.coords == b.coords;
}

inline bool operator==(const TmaPlan &a, const TmaPlan &b) {
  return a.map == b.map && a.issues == b.issues && a.bytes == b.bytes &&
         a.guards == b.guards;
}

struct PlanOutcome {
  std::optional<TmaPlan> plan;
  /// Why there is no plan; set exactly when `plan` is not.
  std::optional<Decline> decline;
};

} // namespace tile::tma

#endif // TILE_TMA_PLAN_H
