//===- SymbolicFuzz.cpp - Random copies over run-time-sized globals -------===//
//
// Each case takes a random static copy, leaves some of its global sizes,
// strides and offset to run time, plans that, and instantiates the plan for
// several run-time values: the true ones and perturbed ones (an odd row
// pitch, a misaligned offset or base, smaller or larger extents). Where every
// guard holds, the instantiated plan must pass the driver's rules and the
// hardware model must place every byte as the reference enumeration does.
// Where a guard on a descriptor rule fails, the driver's rules must reject
// the instantiated plan: such a guard is never stronger than needed.
//
//===----------------------------------------------------------------------===//

#include "PlanFuzz.h"

#include "CopyModes.h"

#include "tile/Layout/Format.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Guards.h"
#include "tile/TMA/HardwareModel.h"
#include "tile/TMA/Planner.h"

#include <random>

namespace tile::tma::fuzz {

namespace {

std::string describeValues(const RuntimeValues &v) {
  return "sizes " + formatList(v.sizes) + " strides " + formatList(v.strides) +
         " offset " + std::to_string(v.offset) + " address " +
         std::to_string(v.address);
}

// The run-time values of the k-th trial: k = 0 the case's own buffer, then
// perturbations of it.
RuntimeValues trialValues(const RuntimeValues &truth, int64_t eb,
                          std::mt19937_64 &g, int k) {
  RuntimeValues v = truth;
  if (k == 0)
    return v;
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(g);
  };
  size_t rank = v.sizes.size();
  for (size_t d = 0; d < rank; ++d) {
    switch (pick(0, 5)) {
    case 0:
      v.sizes[d] = std::max<int64_t>(1, v.sizes[d] - pick(1, 40));
      break;
    case 1:
      v.sizes[d] += pick(1, 40);
      break;
    default:
      break;
    }
  }
  // Row-major strides over the new sizes, maybe with a pitch that is not a
  // multiple of 16 bytes.
  int64_t stride = v.strides.empty() ? 1 : v.strides.back();
  for (size_t d = rank; d-- > 0;) {
    if (d + 1 < rank) {
      v.strides[d] = stride;
      if (pick(0, 4) == 0)
        v.strides[d] += pick(1, 3);
    }
    stride = v.strides[d] * v.sizes[d];
  }
  if (pick(0, 3) == 0)
    v.offset += pick(1, 16 / eb + 1);
  if (pick(0, 5) == 0) // Misaligned, or aligned to make up for the offset.
    v.address += static_cast<uint64_t>(
        pick(0, 1) ? pick(1, 15) : (16 - (v.offset * eb) % 16) % 16);
  return v;
}

bool isDriverRule(RuleId rule) {
  return rule == RuleId::GlobalDim || rule == RuleId::GlobalStride ||
         rule == RuleId::GlobalAlign;
}

} // namespace

std::string runSymbolicCase(uint64_t seed, uint64_t index, SymbolicStats &stats,
                            const EncodeCheck &encodeCheck) {
  FuzzCase c = generateCase(seed, index);
  const CopyRequest &st = c.request;
  size_t rank = st.globalShape.size();
  if (st.globalLayout.shards().size() != rank)
    return "";
  std::mt19937_64 g(seed * 0xD1B54A32D192ED03ull + index);
  auto chance = [&](int percent) {
    return std::uniform_int_distribution<int>(0, 99)(g) < percent;
  };

  RuntimeValues truth;
  truth.offset = st.globalLayout.elementOffset();
  CopyRequest sym = st;
  SymbolicGlobal global;
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = st.globalShape[d];
    int64_t stride = st.globalLayout.shards()[d].stride;
    truth.sizes.push_back(size);
    truth.strides.push_back(stride);
    bool dynSize = chance(60);
    bool dynStride = d + 1 < rank ? chance(60) : chance(5);
    global.sizes.push_back(dynSize ? std::nullopt
                                   : std::optional<int64_t>(size));
    global.strides.push_back(dynStride ? std::nullopt
                                       : std::optional<int64_t>(stride));
    if (dynSize)
      sym.globalShape[d] = kUnknownExtent;
  }
  if (!chance(50))
    global.offset = truth.offset;
  sym.symbolicGlobal = global;
  ++stats.cases;

  PlanOutcome o = planTmaCopy(sym);
  if (!o.plan) {
    if (!o.decline)
      return "neither a plan nor a decline";
    ++stats.declines[std::string(ruleIdName(o.decline->rule))];
    return "";
  }
  ++stats.accepted;
  const TmaPlan &plan = *o.plan;
  for (int k = 0; k < 4; ++k) {
    RuntimeValues v = trialValues(truth, st.elementType.bytes, g, k);
    CopyRequest concrete = instantiateRequest(sym, v);
    TmaPlan encoded = instantiatePlan(plan, v);
    // The descriptor's rules; whether a store box past a run-time edge
    // clips right is the model's to say.
    std::optional<Decline> driver = detail::checkPlanRules(concrete, encoded);
    // The base address the driver sees includes the buffer's address.
    if (driver && (driver->rule == RuleId::StoreBounds ||
                   driver->rule == RuleId::GlobalAlign))
      driver.reset();
    int64_t base =
        static_cast<int64_t>(v.address) + encoded.map.baseOffsetBytes.constant;
    if (!driver && base % 16 != 0)
      driver =
          Decline{RuleId::GlobalAlign, "base address " + std::to_string(base)};
    const Guard *failed = firstFailedGuard(plan, v);
    std::string where = "\n  values " + describeValues(v);
    std::optional<std::string> refused;
    if (encodeCheck) {
      refused = encodeCheck(encoded.map, base);
      ++stats.encodeChecks;
    }
    // A store through strides that alias has no defined result.
    if (!failed && sym.direction == Direction::SharedToGlobal) {
      std::vector<int64_t> strides;
      for (const Shard &s : concrete.globalLayout.shards())
        strides.push_back(s.stride);
      if (Layout::strided(concrete.globalSizes, strides).hasOverlap())
        continue;
    }
    if (!failed) {
      ++stats.guardsHeld;
      if (driver)
        return "guards hold but the driver rejects: " + driver->message() +
               where;
      if (refused)
        return "guards hold but the encode check refuses the map: " + *refused +
               where;
      // The model's global image starts at address 0; a buffer elsewhere
      // differs only in the base address the driver checked above.
      if (v.address % 16 != 0)
        continue;
      for (const auto &symbols : c.symbolValues) {
        if (whyUndefined(concrete, symbols, /*storesClip=*/true))
          continue;
        ModelOptions options;
        options.storesClip = true;
        if (whyTooLargeToModel(concrete, options))
          continue;
        std::optional<std::string> e =
            verifyPlan(concrete, encoded, symbols, options);
        if (e)
          return "guards hold but the model rejects (symbols " +
                 formatList(symbols) + "): " + *e + where;
        ++stats.modelChecks;
      }
      continue;
    }
    ++stats.guardsFailed[std::string(ruleIdName(failed->rule))];
    if (isDriverRule(failed->rule) && !driver)
      return "guard " + std::string(ruleIdName(failed->rule)) + " (" +
             failed->str() + ") fails but the driver accepts the plan" + where;
    if (isDriverRule(failed->rule) && encodeCheck) {
      if (!refused)
        return "guard " + std::string(ruleIdName(failed->rule)) + " (" +
               failed->str() + ") fails but the encode check accepts the map" +
               where;
      ++stats.encodeRefusals;
    }
  }
  return "";
}

SymbolicStats runSymbolicCases(uint64_t seed, uint64_t count,
                               const EncodeCheck &encodeCheck) {
  SymbolicStats stats;
  for (uint64_t i = 0; i < count; ++i) {
    std::string e = runSymbolicCase(seed, i, stats, encodeCheck);
    if (e.empty())
      continue;
    ++stats.failures;
    if (stats.failureReports.size() < 10)
      stats.failureReports.push_back(
          e + "\n  " + describeRequest(generateCase(seed, i).request) +
          "\n  (seed " + std::to_string(seed) + ", case " + std::to_string(i) +
          ")");
  }
  return stats;
}

std::string summary(const SymbolicStats &s) {
  std::string out = "symbolic: planned " + std::to_string(s.accepted) + " / " +
                    std::to_string(s.cases) + ", guards held " +
                    std::to_string(s.guardsHeld) + " (model checks " +
                    std::to_string(s.modelChecks) + "), failures " +
                    std::to_string(s.failures) + "; failed guards:";
  for (const auto &[id, n] : s.guardsFailed)
    out += " " + id + " " + std::to_string(n);
  out += "; declines:";
  for (const auto &[id, n] : s.declines)
    out += " " + id + " " + std::to_string(n);
  return out;
}

} // namespace tile::tma::fuzz
