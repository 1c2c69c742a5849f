//===- SymExpr.cpp - Affine values over dynamic copy offsets --------------===//

#include "tile/TMA/SymExpr.h"

#include <cstdlib>
#include <numeric>

namespace tile::tma {

SymExpr SymExpr::symbol(unsigned id, int64_t coeff) {
  SymExpr e;
  if (coeff != 0)
    e.terms.push_back({id, coeff});
  return e;
}

std::optional<int64_t> SymExpr::constantValue() const {
  if (!isConstant())
    return std::nullopt;
  return constant;
}

SymExpr SymExpr::operator+(const SymExpr &o) const {
  SymExpr r;
  r.constant = constant + o.constant;
  size_t i = 0, j = 0;
  while (i < terms.size() || j < o.terms.size()) {
    if (j == o.terms.size() ||
        (i < terms.size() && terms[i].first < o.terms[j].first)) {
      r.terms.push_back(terms[i++]);
    } else if (i == terms.size() || o.terms[j].first < terms[i].first) {
      r.terms.push_back(o.terms[j++]);
    } else {
      int64_t c = terms[i].second + o.terms[j].second;
      if (c != 0)
        r.terms.push_back({terms[i].first, c});
      ++i;
      ++j;
    }
  }
  return r;
}

SymExpr SymExpr::operator-(const SymExpr &o) const { return *this + o * -1; }

SymExpr SymExpr::operator*(int64_t factor) const {
  if (factor == 0)
    return SymExpr();
  SymExpr r = *this;
  r.constant *= factor;
  for (auto &t : r.terms)
    t.second *= factor;
  return r;
}

std::optional<SymExpr> SymExpr::divExact(int64_t d) const {
  if (d == 0 || constant % d != 0)
    return std::nullopt;
  SymExpr r = *this;
  r.constant /= d;
  for (auto &t : r.terms) {
    if (t.second % d != 0)
      return std::nullopt;
    t.second /= d;
  }
  return r;
}

bool SymExpr::provablyMultipleOf(int64_t m,
                                 const std::vector<int64_t> &divisors) const {
  if (m == 0)
    return false;
  if (constant % m != 0)
    return false;
  for (const auto &[id, coeff] : terms) {
    int64_t div = id < divisors.size() && divisors[id] > 0 ? divisors[id] : 1;
    // coeff * div * k is a multiple of m for every k.
    int64_t g = std::gcd(std::abs(coeff), std::abs(m));
    int64_t rest = std::abs(m) / g;
    if (div % rest != 0)
      return false;
  }
  return true;
}

int64_t SymExpr::evaluate(const std::vector<int64_t> &values) const {
  int64_t v = constant;
  for (const auto &[id, coeff] : terms)
    v += coeff * (id < values.size() ? values[id] : 0);
  return v;
}

std::string SymExpr::str() const {
  std::string s;
  if (constant != 0 || terms.empty())
    s = std::to_string(constant);
  for (const auto &[id, coeff] : terms) {
    std::string sym = "s" + std::to_string(id);
    if (s.empty())
      s = coeff == 1    ? sym
          : coeff == -1 ? "-" + sym
                        : std::to_string(coeff) + "*" + sym;
    else if (coeff < 0)
      s += " - " + (coeff == -1 ? sym : std::to_string(-coeff) + "*" + sym);
    else
      s += " + " + (coeff == 1 ? sym : std::to_string(coeff) + "*" + sym);
  }
  return s;
}

} // namespace tile::tma
