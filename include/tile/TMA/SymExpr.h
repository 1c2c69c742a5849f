//===- SymExpr.h - Affine values over dynamic copy offsets ------*- C++ -*-===//
//
// A copy's dynamic offsets are affine in a few runtime symbols (a pipeline
// stage, a tile index). The planner carries coordinates and shared offsets as
// constant + sum(coeff * symbol[id]) and proves alignment from per-symbol
// known divisors.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TMA_SYMEXPR_H
#define TILE_TMA_SYMEXPR_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile::tma {

struct SymExpr {
  int64_t constant = 0;
  /// (symbol id, coefficient), sorted by id, coefficients non-zero.
  std::vector<std::pair<unsigned, int64_t>> terms;

  SymExpr() = default;
  SymExpr(int64_t value) : constant(value) {} // NOLINT: implicit on purpose.
  static SymExpr symbol(unsigned id, int64_t coeff = 1);

  bool isConstant() const { return terms.empty(); }
  std::optional<int64_t> constantValue() const;

  SymExpr operator+(const SymExpr &o) const;
  SymExpr operator-(const SymExpr &o) const;
  SymExpr operator*(int64_t factor) const;
  SymExpr &operator+=(const SymExpr &o) { return *this = *this + o; }
  bool operator==(const SymExpr &o) const {
    return constant == o.constant && terms == o.terms;
  }
  bool operator!=(const SymExpr &o) const { return !(*this == o); }

  /// The quotient when the constant and every coefficient divide by d.
  std::optional<SymExpr> divExact(int64_t d) const;
  /// True when the value is a multiple of m for all symbol values that are
  /// multiples of their divisors (missing or non-positive divisors mean 1).
  bool provablyMultipleOf(int64_t m,
                          const std::vector<int64_t> &divisors) const;
  /// The value for concrete symbol values (missing symbols count as 0).
  int64_t evaluate(const std::vector<int64_t> &values) const;
  /// "12", "s0", "4 + 64*s1", "-s2".
  std::string str() const;
};

} // namespace tile::tma

#endif // TILE_TMA_SYMEXPR_H
