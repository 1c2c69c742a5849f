//===- KnownValues.h - Integer values the async walk knows ------*- C++ -*-===//
//
// Part of the checks of the asynchronous protocol (docs/async-protocol.md):
// integers as both engines read them (toInt64, tripOf), and the values the
// walk knows (KnownValues): constants and arithmetic on known values, so that
// the stage indices, barrier indices (BarrierIdentity.h) and parities of
// pipelines are known.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_KNOWNVALUES_H
#define TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_KNOWNVALUES_H

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <optional>

namespace mlir::tile::async_protocol {

/// `c` as an int64_t (i1 as 0 or 1), if it fits.
std::optional<int64_t> toInt64(const APInt &c);

/// Iterations of a loop from `l` to `u` by `s`; none where `s` is not
/// positive or `u - l` overflows.
std::optional<int64_t> tripOf(int64_t l, int64_t u, int64_t s);

/// Known integer values (index, integers, i1) of the walk: constants and
/// arithmetic on known values; an induction variable while the walk follows
/// its loop. Values are re-evaluated each time their op is walked.
class KnownValues {
public:
  std::optional<int64_t> get(Value v) const {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return toInt64(c);
    return std::nullopt;
  }
  void set(Value v, std::optional<int64_t> x) {
    if (x)
      values[v] = *x;
    else
      values.erase(v);
  }
  /// Evaluates `op`'s results from its operands where it is arithmetic the
  /// walk knows; forgets them otherwise.
  void evaluate(Operation *op);
  /// `v`, evaluating the arithmetic that defines it where it is not known
  /// yet: a value computed from constants is known however far from its use
  /// it was defined (above a gpu.launch, outside the block a scan reads).
  std::optional<int64_t> resolve(Value v);

private:
  DenseMap<Value, int64_t> values;
};

} // namespace mlir::tile::async_protocol

#endif // TILE_LIB_TRANSFORMS_ASYNCPROTOCOL_KNOWNVALUES_H
