//===- DivisorAnalysis.cpp - Divisors the IR proves for integers ----------===//

#include "tile/Dialect/Tile/IR/DivisorAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <numeric>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

static int64_t lowBit(int64_t v) { return v == 0 ? 0 : (v & -v); }

/// A divisor of `d` (itself a divisor of a value) no larger than 2^30: `d`
/// when small enough, else its largest power-of-two factor up to 2^30, which
/// still divides every multiple of `d`.
static int64_t capDivisor(uint64_t d) {
  constexpr uint64_t max = DivisorAnalysis::kMaxDivisor;
  if (d <= max)
    return static_cast<int64_t>(d);
  return static_cast<int64_t>(std::gcd(d, max));
}

/// The shift amount of a `shli` the analysis understands.
static std::optional<int64_t> shiftAmount(Operation *def) {
  APInt constant;
  if (!isa<arith::ShLIOp>(def) ||
      !matchPattern(def->getOperand(1), m_ConstantInt(&constant)))
    return std::nullopt;
  int64_t amount = constant.getSExtValue();
  if (amount < 0 || amount >= 30)
    return std::nullopt;
  return amount;
}

/// The operands whose divisors decide the divisor of `def`'s result.
static SmallVector<Value, 2> readOperands(Operation *def) {
  if (isa<arith::MulIOp, arith::AddIOp, arith::SubIOp>(def))
    return {def->getOperand(0), def->getOperand(1)};
  if (shiftAmount(def) || isa<arith::IndexCastOp, arith::IndexCastUIOp,
                              arith::ExtSIOp, arith::ExtUIOp>(def))
    return {def->getOperand(0)};
  return {};
}

/// The divisor of `def`'s result from the divisors of its operands.
template <typename Lookup>
static int64_t combine(Operation *def, Lookup divisorOf) {
  // Divisors are at most 2^30, so products and shifts below fit in 64 bits.
  if (isa<arith::MulIOp>(def))
    return capDivisor(static_cast<uint64_t>(divisorOf(def->getOperand(0))) *
                      static_cast<uint64_t>(divisorOf(def->getOperand(1))));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(divisorOf(def->getOperand(0)),
                    divisorOf(def->getOperand(1)));
  if (std::optional<int64_t> amount = shiftAmount(def))
    return capDivisor(static_cast<uint64_t>(divisorOf(def->getOperand(0)))
                      << *amount);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return divisorOf(def->getOperand(0));
  return 1;
}

/// Arithmetic narrower than 64 bits wraps modulo 2^width: of a divisor of the
/// exact result only its power-of-two part up to 2^width survives.
static int64_t wrapDivisor(Value value, int64_t divisor) {
  auto type = dyn_cast<IntegerType>(value.getType());
  if (type && type.getWidth() < 64)
    return std::min(lowBit(divisor), int64_t(1)
                                         << std::min(type.getWidth(), 30u));
  return divisor;
}

/// A persistent tile.pipeline's tile value as a region's argument: the value
/// the iterations region yields for it (null for any other value).
static Value tileValueSource(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return {};
  auto pipeline = dyn_cast_or_null<PipelineOp>(arg.getOwner()->getParentOp());
  if (!pipeline || !pipeline.getTiles() ||
      arg.getParentRegion() == &pipeline.getIterations())
    return {};
  // Every region's arguments start with the tile, then its values.
  unsigned position = arg.getArgNumber();
  if (position < 1 || position > pipeline.getNumTileValues())
    return {};
  auto yield = cast<YieldOp>(pipeline.getIterations().front().getTerminator());
  return yield.getValues()[2 + position - 1];
}

/// The divisor of a value that needs no walk: a constant, a value without a
/// producer, or one past the depth bound.
static std::optional<int64_t> leafDivisor(Value value, unsigned depth) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    if (constant.isZero())
      return DivisorAnalysis::kMaxDivisor;
    return capDivisor(constant.abs().getLimitedValue());
  }
  if (!value.getDefiningOp() || depth >= DivisorAnalysis::kMaxDepth)
    return 1;
  return std::nullopt;
}

int64_t DivisorAnalysis::getKnownDivisor(Value root) {
  if (auto it = known.find(root); it != known.end())
    return it->second;
  // A post-order walk with an explicit stack: a frame is expanded once (its
  // operands pushed), then combined once they are known. A value on the
  // current path is not pushed again (a cycle, possible in graph regions);
  // combining reads it as unknown.
  struct Frame {
    Value value;
    unsigned depth;
    bool expanded;
  };
  SmallVector<Frame> stack = {{root, 0, false}};
  llvm::DenseSet<Value> onPath;
  auto divisorOf = [&](Value v) -> int64_t {
    auto it = known.find(v);
    return it == known.end() ? 1 : it->second;
  };
  while (!stack.empty()) {
    Frame frame = stack.back();
    if (known.contains(frame.value)) {
      onPath.erase(frame.value);
      stack.pop_back();
      continue;
    }
    Operation *def = frame.value.getDefiningOp();
    // A tile value divides as what the iterations region yields for it.
    Value source =
        frame.depth < kMaxDepth ? tileValueSource(frame.value) : Value();
    if (!frame.expanded) {
      std::optional<int64_t> leaf;
      if (!source)
        leaf = leafDivisor(frame.value, frame.depth);
      if (leaf) {
        known[frame.value] = *leaf;
        stack.pop_back();
        continue;
      }
      // An op the analysis does not read proves nothing.
      SmallVector<Value, 2> operands =
          source ? SmallVector<Value, 2>{source} : readOperands(def);
      if (operands.empty()) {
        known[frame.value] = 1;
        stack.pop_back();
        continue;
      }
      stack.back().expanded = true;
      onPath.insert(frame.value);
      for (Value operand : operands)
        if (!known.contains(operand) && !onPath.contains(operand))
          stack.push_back({operand, frame.depth + 1, false});
      continue;
    }
    known[frame.value] =
        source ? divisorOf(source)
               : wrapDivisor(frame.value, combine(def, divisorOf));
    onPath.erase(frame.value);
    stack.pop_back();
  }
  return known.lookup(root);
}

int64_t mlir::tile::getKnownDivisor(Value value) {
  return DivisorAnalysis().getKnownDivisor(value);
}
