//===- PlanWords.cpp - Planner records as stable 64-bit words -------------===//

#include "PlanWords.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/xxhash.h"

using namespace mlir::tile::detail;

void PlanWords::word(int64_t value) {
  words.push_back(llvm::support::endian::byte_swap<uint64_t>(
      static_cast<uint64_t>(value), llvm::endianness::little));
}

void PlanWords::optional(std::optional<int64_t> value) {
  word(value.has_value());
  word(value.value_or(0));
}

void PlanWords::optionals(const std::vector<std::optional<int64_t>> &values) {
  word(values.size());
  for (const std::optional<int64_t> &v : values)
    optional(v);
}

void PlanWords::sym(const ::tile::tma::SymExpr &expr) {
  word(expr.constant);
  word(expr.terms.size());
  for (const auto &[id, coeff] : expr.terms) {
    word(id);
    word(coeff);
  }
}

void PlanWords::syms(const std::vector<::tile::tma::SymExpr> &exprs) {
  word(exprs.size());
  for (const ::tile::tma::SymExpr &e : exprs)
    sym(e);
}

void PlanWords::layout(const ::tile::Layout &layout) {
  word(layout.shards().size());
  for (const ::tile::Shard &s : layout.shards()) {
    word(s.extent);
    word(s.stride);
  }
  word(static_cast<int>(layout.swizzle()));
  word(layout.elementOffset());
}

void PlanWords::fields(
    const std::vector<std::optional<::tile::tma::RuntimeField>> &fields) {
  word(fields.size());
  for (const auto &f : fields) {
    word(f.has_value());
    if (!f)
      continue;
    word(static_cast<int>(f->value.kind));
    word(f->value.dim);
    word(f->scale);
    word(f->divisor);
  }
}

void PlanWords::map(const ::tile::tma::TensorMapDesc &m) {
  word(static_cast<int>(m.dataType));
  word(m.rank);
  list(m.globalDim);
  list(m.globalStridesBytes);
  list(m.boxDim);
  list(m.elementStrides);
  word(m.interleave);
  word(static_cast<int>(m.swizzle));
  word(m.l2Promotion);
  word(m.oobFill);
  sym(m.baseOffsetBytes);
  word(m.promoted);
  word(m.elementBytes);
  fields(m.runtimeGlobalDim);
  fields(m.runtimeGlobalStrides);
  word(m.runtimeOffsetScale);
}

void PlanWords::plan(const ::tile::tma::TmaPlan &plan) {
  map(plan.map);
  word(plan.bytes);
  word(plan.issues.size());
  for (const ::tile::tma::TmaIssue &issue : plan.issues) {
    sym(issue.smemByteOffset);
    syms(issue.coords);
  }
}

uint64_t PlanWords::hash() const {
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(words.data()),
                              words.size() * sizeof(uint64_t)));
}
