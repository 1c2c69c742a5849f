//===- DivisorAnalysis.h - Divisors the IR proves for integers --*- C++ -*-===//
//
// What the IR proves about an integer value's divisibility: the planner's
// alignment rules (`inner-coord-align`, `smem-align`, `global-align`) and the
// element-wise copy's vector width ask it about dynamic offsets.
//
// The walk over producers is iterative (a long chain cannot overflow the
// stack), memoized (a DAG of shared subexpressions is walked once, so a query
// is linear in the DAG's size), stops at use-def cycles of graph regions,
// and looks at most `kMaxDepth` producers deep: beyond that a value counts as
// unknown (divisor 1), which every rule treats as "not provable".
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_DIVISORANALYSIS_H
#define TILE_DIALECT_TILE_IR_DIVISORANALYSIS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>

namespace mlir::tile {

/// Known divisors of integer values, memoized across queries: one instance
/// serves one planning of a copy (or of a pass's copies) while the IR does
/// not change.
class DivisorAnalysis {
public:
  /// How many producers deep a query looks.
  static constexpr unsigned kMaxDepth = 256;
  /// The largest divisor reported.
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

  /// A positive number, at most 2^30, that provably divides `value` at run
  /// time (1 when nothing is known): constants, products and shifts by
  /// constants, sums and differences, casts. Of arithmetic narrower than 64
  /// bits (which wraps) only the power-of-two part counts.
  int64_t getKnownDivisor(Value value);

private:
  llvm::DenseMap<Value, int64_t> known;
};

/// `DivisorAnalysis().getKnownDivisor(value)`: one query, linear in the size
/// of the expression DAG behind `value`.
int64_t getKnownDivisor(Value value);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_DIVISORANALYSIS_H
