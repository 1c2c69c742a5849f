//===- PlanHashing.cpp - Field hashes of the planner's records ------------===//
//
// The attribute storages that hold a pure C++ record unique it by these
// hashes and the record's operator==. Plans and tiled maps hash the words
// that the recorded fingerprint hashes too (PlanWords.h), so their fields are
// enumerated once; the others combine their fields.
//
//===----------------------------------------------------------------------===//

#include "PlanWords.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

using llvm::hash_code;
using llvm::hash_combine;
using llvm::hash_combine_range;

namespace {
template <typename T>
hash_code hashList(const std::vector<T> &values) {
  return hash_combine_range(values.begin(), values.end());
}

hash_code hashRuntimeValue(const tile::tma::RuntimeValue &v) {
  return hash_combine(static_cast<int>(v.kind), v.dim);
}
} // namespace

namespace tile::tma {
hash_code hash_value(const SymExpr &expr) {
  hash_code h = hash_combine(expr.constant);
  for (const auto &[id, coeff] : expr.terms)
    h = hash_combine(h, id, coeff);
  return h;
}

hash_code hash_value(const TensorMapDesc &m) {
  mlir::tile::detail::PlanWords words;
  words.map(m);
  return hash_code(words.hash());
}

hash_code hash_value(const TmaPlan &plan) {
  mlir::tile::detail::PlanWords words;
  words.plan(plan);
  return hash_code(words.hash());
}

hash_code hash_value(const Im2colMapDesc &m) {
  return hash_combine(static_cast<int>(m.dataType), m.rank,
                      hashList(m.globalDim), hashList(m.globalStridesBytes),
                      hashList(m.lowerCorner), hashList(m.upperCorner),
                      m.channelsPerPixel, m.pixelsPerColumn,
                      hashList(m.elementStrides), static_cast<int>(m.swizzle),
                      m.l2Promotion, m.oobFill, m.elementBytes);
}

hash_code hash_value(const Guard &g) {
  hash_code h = hash_combine(static_cast<int>(g.rule), static_cast<int>(g.kind),
                             g.constant, g.modulus, g.lo, g.hi);
  for (const auto &[value, coeff] : g.terms)
    h = hash_combine(h, hashRuntimeValue(value), coeff);
  return h;
}
} // namespace tile::tma
