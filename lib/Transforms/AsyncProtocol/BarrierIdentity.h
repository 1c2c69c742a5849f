//===- BarrierIdentity.h - Which mbarrier an op names -----------*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// the one notion of "which barrier" of the transaction-byte scan
// (TxBytesScan.h) and the path walk (AsyncWalker.h), so that the two agree
// on the barrier an op names.
//
// An mbarrier is named by an `!nvgpu.mbarrier.group` value and an index into
// the group. The index is *known* where KnownValues resolves it: a constant,
// or index and integer arithmetic on known values, so `arith.addi %c1, %c1`
// and `arith.constant 2` both name barrier 2. The scan resolves with no
// bindings (the index is one value on every path); the walk resolves with
// the values it knows on its path, induction variables of the loops it
// follows included. An index neither knows is *symbolic*: the SSA index
// value itself stands for the barrier.
//
// Two identities are equal where they have the same group value and either
// the same known index or the same symbolic index value; distinct group
// values are distinct groups (each nvgpu.mbarrier.create allocates its own).
// Identities are ordered by group, then known before symbolic, known indices
// ascending, symbolic ones by value, so a scan's report order is that of the
// indices.
//
// Identities that are not equal may still name one barrier at run time where
// an index is symbolic (%i may be 2 in one run and 1 in another): they *may
// alias*. Two known identities of one group alias only where they are equal.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_BARRIERIDENTITY_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_BARRIERIDENTITY_H

#include "mlir/IR/Value.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>

namespace mlir::tile::async_protocol {

class KnownValues;

/// One mbarrier of a group: its group value and its index, known or
/// symbolic.
class BarrierIdentity {
public:
  /// Barrier `index` of `group`, the index resolved by `known`.
  static BarrierIdentity get(Value group, Value index, KnownValues &known);

  Value getGroup() const { return group; }
  bool isKnown() const { return knownIndex.has_value(); }
  /// The index where it is known.
  std::optional<int64_t> getKnownIndex() const { return knownIndex; }

  /// True where both may name the same barrier: the same group, and equal
  /// known indices or a symbolic one.
  bool mayAlias(const BarrierIdentity &o) const;

  bool operator==(const BarrierIdentity &o) const {
    return group == o.group && knownIndex == o.knownIndex &&
           symbolicIndex == o.symbolicIndex;
  }
  bool operator!=(const BarrierIdentity &o) const { return !(*this == o); }
  bool operator<(const BarrierIdentity &o) const;

  /// Prints "barrier <index> of <group>", the index as a number where known
  /// and as its SSA name otherwise.
  void print(llvm::raw_ostream &os) const;

private:
  BarrierIdentity(Value group, Value symbolicIndex,
                  std::optional<int64_t> knownIndex)
      : group(group), symbolicIndex(symbolicIndex), knownIndex(knownIndex) {}

  Value group;
  /// The index value where the index is not known; null where it is, so
  /// that two spellings of one constant are one barrier.
  Value symbolicIndex;
  std::optional<int64_t> knownIndex;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const BarrierIdentity &barrier) {
  barrier.print(os);
  return os;
}

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_BARRIERIDENTITY_H
