//===- KnownValues.cpp - Integer values the async walk knows --------------===//

#include "KnownValues.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile::async_protocol;

std::optional<int64_t> mlir::tile::async_protocol::toInt64(const APInt &c) {
  if (c.getBitWidth() == 1)
    return static_cast<int64_t>(c.getBoolValue());
  if (c.getSignificantBits() > 64)
    return std::nullopt;
  return c.getSExtValue();
}

std::optional<int64_t> mlir::tile::async_protocol::tripOf(int64_t l, int64_t u,
                                                          int64_t s) {
  if (s <= 0)
    return std::nullopt;
  if (u <= l)
    return 0;
  int64_t span;
  if (llvm::SubOverflow(u, l, span))
    return std::nullopt;
  return span / s + (span % s != 0);
}

void KnownValues::evaluate(Operation *op) {
  if (op->getNumResults() != 1) {
    for (Value r : op->getResults())
      set(r, std::nullopt);
    return;
  }
  Value r = op->getResult(0);
  auto bin = [&](auto fn) -> std::optional<int64_t> {
    if (op->getNumOperands() != 2)
      return std::nullopt;
    std::optional<int64_t> a = get(op->getOperand(0)),
                           b = get(op->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  };
  using Checked = bool (*)(int64_t, int64_t, int64_t &);
  // Overflow-checked arithmetic; unsigned division, remainder and bounds
  // only on non-negative operands, where they agree with the signed ones.
  auto checked = [&](Checked fn) {
    return bin([fn](int64_t a, int64_t b) -> std::optional<int64_t> {
      int64_t v;
      if (fn(a, b, v))
        return std::nullopt;
      return v;
    });
  };
  auto nonNegative = [&](int64_t (*fn)(int64_t, int64_t), bool positiveRhs) {
    return bin([=](int64_t a, int64_t b) -> std::optional<int64_t> {
      if (a < 0 || b < 0 || (positiveRhs && b == 0))
        return std::nullopt;
      return fn(a, b);
    });
  };
  std::optional<int64_t> x;
  if (isa<arith::AddIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::AddOverflow(a, b, r) != 0;
    });
  else if (isa<arith::SubIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::SubOverflow(a, b, r) != 0;
    });
  else if (isa<arith::MulIOp>(op))
    x = checked([](int64_t a, int64_t b, int64_t &r) {
      return llvm::MulOverflow(a, b, r) != 0;
    });
  else if (isa<arith::DivUIOp, arith::DivSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return a / b; }, true);
  else if (isa<arith::RemUIOp, arith::RemSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return a % b; }, true);
  else if (isa<arith::MinUIOp, arith::MinSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return std::min(a, b); }, false);
  else if (isa<arith::MaxUIOp, arith::MaxSIOp>(op))
    x = nonNegative([](int64_t a, int64_t b) { return std::max(a, b); }, false);
  else if (isa<arith::AndIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a & b; });
  else if (isa<arith::OrIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a | b; });
  else if (isa<arith::XOrIOp>(op))
    x = bin(
        [](int64_t a, int64_t b) -> std::optional<int64_t> { return a ^ b; });
  else if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    x = bin([&](int64_t a, int64_t b) -> std::optional<int64_t> {
      return arith::applyCmpPredicate(cmp.getPredicate(), APInt(64, a, true),
                                      APInt(64, b, true));
    });
  else if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    if (std::optional<int64_t> c = get(sel.getCondition()))
      x = get(*c ? sel.getTrueValue() : sel.getFalseValue());
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
                 arith::ExtSIOp>(op)) {
    x = get(op->getOperand(0));
  } else if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      x = toInt64(i.getValue());
  }
  // Results of narrower integer types wrap; a value they cannot hold is not
  // known.
  if (x) {
    if (auto type = dyn_cast<IntegerType>(r.getType())) {
      unsigned width = type.getWidth();
      if (width == 1 ? (*x != 0 && *x != 1)
                     : width > 64 || (width < 64 && !llvm::isIntN(width, *x)))
        x = std::nullopt;
    } else if (!r.getType().isIndex()) {
      x = std::nullopt;
    }
  }
  set(r, x);
}

std::optional<int64_t> KnownValues::resolve(Value v) {
  if (std::optional<int64_t> x = get(v))
    return x;
  // Post-order over the arithmetic ops defining `v`, each expanded once and
  // without recursion: an index may end a long chain. An op may sit on the
  // stack twice; its deeper copy finds it expanded.
  SmallVector<std::pair<Operation *, bool>> stack;
  llvm::SmallDenseSet<Operation *> expanded;
  auto push = [&](Value x) {
    Operation *def = x.getDefiningOp();
    if (def && isa_and_present<arith::ArithDialect>(def->getDialect()) &&
        !get(x) && !expanded.contains(def))
      stack.push_back({def, false});
  };
  push(v);
  while (!stack.empty()) {
    auto [op, operandsPushed] = stack.back();
    if (operandsPushed) {
      stack.pop_back();
      evaluate(op);
      continue;
    }
    if (!expanded.insert(op).second) {
      stack.pop_back();
      continue;
    }
    stack.back().second = true;
    for (Value operand : op->getOperands())
      push(operand);
  }
  return get(v);
}
