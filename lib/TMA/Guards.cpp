//===- Guards.cpp - Guards and run-time fields of symbolic plans ----------===//
//
// Every descriptor rule a run-time field could break becomes a guard with the
// rule's id: a dimension of 1..2^32 elements (global-dim), a cut of a
// run-time extent that must divide it (region-split), a stride that is a
// multiple of 16 bytes below 2^40 (global-stride), the base address plus the
// offset 16-byte aligned (global-align), and, for a store whose innermost
// extent is a run-time value, rows that end on a 16-byte boundary, since the
// TMA clips stores at that granularity (store-bounds).
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Guards.h"
#include "tile/TMA/Limits.h"

#include "CopyModes.h"

#include <algorithm>

namespace tile::tma {

const char *RuntimeValue::kindName() const {
  switch (kind) {
  case Kind::Size:
    return "size";
  case Kind::Stride:
    return "stride";
  case Kind::Offset:
    return "offset";
  case Kind::Address:
    return "address";
  }
  return "?";
}

std::string RuntimeValue::str() const {
  if (kind == Kind::Size || kind == Kind::Stride)
    return std::string(kindName()) + "[" + std::to_string(dim) + "]";
  return kindName();
}

int64_t RuntimeValues::get(RuntimeValue v) const {
  switch (v.kind) {
  case RuntimeValue::Kind::Size:
    return v.dim < sizes.size() ? sizes[v.dim] : 0;
  case RuntimeValue::Kind::Stride:
    return v.dim < strides.size() ? strides[v.dim] : 0;
  case RuntimeValue::Kind::Offset:
    return offset;
  case RuntimeValue::Kind::Address:
    return static_cast<int64_t>(address);
  }
  return 0;
}

int64_t RuntimeField::evaluate(const RuntimeValues &values) const {
  uint64_t v =
      static_cast<uint64_t>(values.get(value)) * static_cast<uint64_t>(scale);
  return static_cast<int64_t>(v) / (divisor == 0 ? 1 : divisor);
}

std::string RuntimeField::str() const {
  std::string s = value.str();
  if (scale != 1)
    s += "*" + std::to_string(scale);
  if (divisor != 1)
    s += "/" + std::to_string(divisor);
  return s;
}

int64_t Guard::value(const RuntimeValues &values) const {
  uint64_t v = static_cast<uint64_t>(constant);
  for (const auto &[term, coeff] : terms)
    v += static_cast<uint64_t>(values.get(term)) * static_cast<uint64_t>(coeff);
  return static_cast<int64_t>(v);
}

bool Guard::holds(const RuntimeValues &values) const {
  int64_t v = value(values);
  if (kind == Kind::InRange)
    return v >= lo && v <= hi;
  // Unsigned remainder: the host computes addresses modulo 2^64, and every
  // modulus of a wrapping term is a power of two.
  return modulus <= 0 ||
         static_cast<uint64_t>(v) % static_cast<uint64_t>(modulus) == 0;
}

std::string Guard::str() const {
  std::string lin;
  for (const auto &[term, coeff] : terms) {
    if (!lin.empty())
      lin += " + ";
    lin += term.str();
    if (coeff != 1)
      lin += "*" + std::to_string(coeff);
  }
  if (constant != 0 || lin.empty())
    lin += (lin.empty() ? "" : " + ") + std::to_string(constant);
  if (kind == Kind::InRange)
    return std::to_string(lo) + " <= " + lin + " <= " + std::to_string(hi);
  if (terms.size() + (constant != 0) > 1)
    lin = "(" + lin + ")";
  return lin + " % " + std::to_string(modulus) + " == 0";
}

const Guard *firstFailedGuard(const TmaPlan &plan,
                              const RuntimeValues &values) {
  for (const Guard &g : plan.guards)
    if (!g.holds(values))
      return &g;
  return nullptr;
}

CopyRequest instantiateRequest(const CopyRequest &request,
                               const RuntimeValues &values) {
  if (!request.symbolicGlobal)
    return request;
  const SymbolicGlobal &g = *request.symbolicGlobal;
  CopyRequest out = request;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < g.sizes.size(); ++d) {
    out.globalShape[d] = g.sizes[d].value_or(
        d < values.sizes.size() ? values.sizes[d] : int64_t(0));
    strides.push_back(g.strides[d].value_or(
        d < values.strides.size() ? values.strides[d] : int64_t(0)));
  }
  out.globalLayout = Layout::strided(out.globalShape, strides,
                                     g.offset.value_or(values.offset));
  out.symbolicGlobal.reset();
  return out;
}

TmaPlan instantiatePlan(const TmaPlan &plan, const RuntimeValues &values) {
  TmaPlan out = plan;
  TensorMapDesc &m = out.map;
  for (size_t d = 0; d < m.runtimeGlobalDim.size() && d < m.globalDim.size();
       ++d)
    if (m.runtimeGlobalDim[d])
      m.globalDim[d] =
          static_cast<uint64_t>(m.runtimeGlobalDim[d]->evaluate(values));
  for (size_t i = 0;
       i < m.runtimeGlobalStrides.size() && i < m.globalStridesBytes.size();
       ++i)
    if (m.runtimeGlobalStrides[i])
      m.globalStridesBytes[i] =
          static_cast<uint64_t>(m.runtimeGlobalStrides[i]->evaluate(values));
  if (m.runtimeOffsetScale != 0)
    m.baseOffsetBytes += SymExpr(values.offset * m.runtimeOffsetScale);
  m.runtimeGlobalDim.clear();
  m.runtimeGlobalStrides.clear();
  m.runtimeOffsetScale = 0;
  out.guards.clear();
  return out;
}

namespace {
// True when no guard that reads `v` (and only values fixed so far) fails.
bool guardsOnHold(const TmaPlan &plan, const RuntimeValues &values,
                  RuntimeValue v) {
  for (const Guard &g : plan.guards)
    for (const auto &term : g.terms)
      if (term.first == v && !g.holds(values))
        return false;
  return true;
}

// Raises values[v] from its current value until every guard reading it holds.
bool settle(const TmaPlan &plan, RuntimeValues &values, RuntimeValue v,
            int64_t &slot) {
  for (int i = 0; i < 4096; ++i, ++slot)
    if (guardsOnHold(plan, values, v))
      return true;
  return false;
}
} // namespace

std::optional<RuntimeValues> exampleValues(const CopyRequest &request,
                                           const TmaPlan &plan) {
  if (!request.symbolicGlobal)
    return RuntimeValues();
  const SymbolicGlobal &g = *request.symbolicGlobal;
  size_t rank = g.sizes.size();
  RuntimeValues v;
  v.sizes.assign(rank, 1);
  v.strides.assign(rank, 0);
  v.offset = 0;
  v.address = 0;
  // Sizes: the region's end (symbols at zero), then up to the guards.
  for (size_t d = 0; d < rank; ++d) {
    if (g.sizes[d]) {
      v.sizes[d] = *g.sizes[d];
      continue;
    }
    int64_t end =
        d < request.globalOffsets.size()
            ? request.globalOffsets[d].constant + request.globalSizes[d]
            : 1;
    v.sizes[d] = std::max<int64_t>({end, request.globalSizes[d], int64_t(1)});
  }
  // Guards may read sizes of dimensions whose strides come later: settle
  // sizes first, then strides inner to outer (row-major), then the offset.
  for (size_t d = 0; d < rank; ++d)
    if (!g.sizes[d] && !settle(plan, v, RuntimeValue::size(d), v.sizes[d]))
      return std::nullopt;
  int64_t next = 1;
  for (size_t d = rank; d-- > 0;) {
    v.strides[d] = g.strides[d].value_or(next);
    if (!g.strides[d] &&
        !settle(plan, v, RuntimeValue::stride(d), v.strides[d]))
      return std::nullopt;
    next = v.strides[d] * v.sizes[d];
  }
  if (g.offset)
    v.offset = *g.offset;
  else if (!settle(plan, v, RuntimeValue::offset(), v.offset))
    return std::nullopt;
  if (firstFailedGuard(plan, v))
    return std::nullopt;
  return v;
}

namespace {
Guard multipleOf(RuleId rule,
                 std::vector<std::pair<RuntimeValue, int64_t>> terms,
                 int64_t constant, int64_t modulus) {
  Guard g;
  g.rule = rule;
  g.kind = Guard::Kind::MultipleOf;
  g.terms = std::move(terms);
  g.constant = constant;
  g.modulus = modulus;
  return g;
}

Guard inRange(RuleId rule, RuntimeValue v, int64_t lo, int64_t hi) {
  Guard g;
  g.rule = rule;
  g.kind = Guard::Kind::InRange;
  g.terms = {{v, 1}};
  g.lo = lo;
  g.hi = hi;
  return g;
}

void addUnique(std::vector<Guard> &guards, Guard g) {
  for (const Guard &existing : guards)
    if (existing == g)
      return;
  guards.push_back(std::move(g));
}
} // namespace

std::vector<Guard> deriveGuards(const CopyRequest &request,
                                const TmaPlan &plan) {
  std::vector<Guard> guards;
  const TensorMapDesc &m = plan.map;
  constexpr int64_t kMaxDim = limits::kMaxGlobalDim;
  constexpr int64_t kStrideLimit = limits::kGlobalStrideLimitBytes;
  constexpr int64_t kGranule = limits::kGranuleBytes;
  for (const std::optional<RuntimeField> &f : m.runtimeGlobalDim) {
    if (!f)
      continue;
    // dim = size / divisor in 1..2^32.
    addUnique(guards, inRange(RuleId::GlobalDim, f->value, f->divisor,
                              kMaxDim * f->divisor));
    if (f->divisor > 1)
      addUnique(guards, multipleOf(RuleId::RegionSplit, {{f->value, 1}}, 0,
                                   f->divisor));
  }
  for (const std::optional<RuntimeField> &f : m.runtimeGlobalStrides) {
    if (!f)
      continue;
    // stride bytes = stride * scale: a multiple of 16 in 16..2^40 - 16.
    addUnique(guards, multipleOf(RuleId::GlobalStride, {{f->value, f->scale}},
                                 0, kGranule));
    addUnique(guards, inRange(RuleId::GlobalStride, f->value, 0,
                              (kStrideLimit - 1) / f->scale));
  }
  // The encode's base address: address + offset * eb + the plan's constant.
  std::vector<std::pair<RuntimeValue, int64_t>> base = {
      {RuntimeValue::address(), 1}};
  if (m.runtimeOffsetScale != 0)
    base.push_back({RuntimeValue::offset(), m.runtimeOffsetScale});
  int64_t constant = m.baseOffsetBytes.constantValue().value_or(0);
  addUnique(guards, multipleOf(RuleId::GlobalAlign, base, constant, kGranule));
  // Stores clip at 16-byte granularity of the innermost dimension: a row
  // whose end is not on a 16-byte boundary would be overwritten past it.
  if (request.direction == Direction::SharedToGlobal &&
      !m.runtimeGlobalDim.empty() && m.runtimeGlobalDim[0]) {
    const RuntimeField &f = *m.runtimeGlobalDim[0];
    addUnique(guards,
              multipleOf(RuleId::StoreBounds, {{f.value, m.elementBytes}}, 0,
                         kGranule * f.divisor));
  }
  return guards;
}

} // namespace tile::tma
