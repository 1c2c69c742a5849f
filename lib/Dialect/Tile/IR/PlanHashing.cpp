//===- PlanHashing.cpp - Field hashes of the planner's records ------------===//
//
// The attribute storages that hold a pure C++ record unique it by these
// hashes and the record's operator==. They combine the fields themselves.
// llvm::hash_combine may differ between processes, so the fingerprints that
// the IR records (getPlanInputFingerprint) hash their own stable words.
//
//===----------------------------------------------------------------------===//

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

hash_code
hashFields(const std::vector<std::optional<tile::tma::RuntimeField>> &fields) {
  hash_code h = hash_combine(fields.size());
  for (const auto &f : fields)
    h = f ? hash_combine(h, hashRuntimeValue(f->value), f->scale, f->divisor)
          : hash_combine(h, -1);
  return h;
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
  return hash_combine(static_cast<int>(m.dataType), m.rank,
                      hashList(m.globalDim), hashList(m.globalStridesBytes),
                      hashList(m.boxDim), hashList(m.elementStrides),
                      m.interleave, static_cast<int>(m.swizzle), m.l2Promotion,
                      m.oobFill, hash_value(m.baseOffsetBytes), m.promoted,
                      m.elementBytes, hashFields(m.runtimeGlobalDim),
                      hashFields(m.runtimeGlobalStrides), m.runtimeOffsetScale);
}

hash_code hash_value(const TmaPlan &plan) {
  hash_code h = hash_combine(hash_value(plan.map), plan.bytes);
  for (const TmaIssue &issue : plan.issues) {
    h = hash_combine(h, hash_value(issue.smemByteOffset), issue.coords.size());
    for (const SymExpr &c : issue.coords)
      h = hash_combine(h, hash_value(c));
  }
  return h;
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
