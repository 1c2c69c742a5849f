//===- Planner.cpp - Search over box prefixes and element promotion -------===//
//
// For the element type as given (and, when only the 256 box limit keeps the
// stride-1 run from being one box row, for wider unsigned types), take the
// chain, try box prefixes from longest to shortest, keep the first candidate
// every rule accepts, and return the candidate with the fewest instructions
// (then the lowest rank; ties keep the unpromoted type). A copy no candidate
// satisfies declines with the first reason met, i.e. the one of the most
// ambitious plan.
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Planner.h"

#include "CopyModes.h"

#include <algorithm>

namespace tile::tma {

using namespace detail;

namespace {

bool stride1RunExceedsBox(const CopyModes &cm) {
  for (const Mode &m : cm.modes)
    if (m.sharedStride == 1 && m.step == 1 && cm.axes[m.axis].stride == 1)
      return m.extent > 256;
  return false;
}

bool better(const TmaPlan &a, const TmaPlan &b) {
  if (a.issues.size() != b.issues.size())
    return a.issues.size() < b.issues.size();
  if (a.map.rank != b.map.rank)
    return a.map.rank < b.map.rank;
  return a.guards.size() < b.guards.size();
}

} // namespace

PlanOutcome planTmaCopy(const CopyRequest &request) {
  PlanOutcome out;
  if (std::optional<std::string> d = checkRequestRules(request)) {
    out.decline = *d;
    return out;
  }
  std::string decline;
  std::optional<CopyModes> modes = buildCopyModes(request, &decline);
  if (!modes) {
    out.decline = decline;
    return out;
  }
  std::vector<CopyModes> variants = {*modes};
  // Promotion reinterprets bytes as unsigned integers: never with NaN fill
  // or reduce.
  // Nor over run-time strides, which would need a divisibility guard each.
  if (request.oobFill == OobFill::Zero && request.reduce == ReduceKind::None &&
      !request.symbolicGlobal &&
      request.sharedLayout.swizzle() == Swizzle::None &&
      stride1RunExceedsBox(*modes))
    for (int64_t factor : {2, 4, 8})
      if (modes->elementBytes * factor <= 8)
        if (std::optional<CopyModes> p = promote(*modes, factor))
          variants.push_back(std::move(*p));

  Swizzle swizzle = request.sharedLayout.swizzle();
  for (const CopyModes &variant : variants) {
    std::string reason;
    std::optional<Chain> chain = findChain(variant, swizzle, &reason);
    if (!chain) {
      if (out.decline.empty())
        out.decline = reason;
      continue;
    }
    for (size_t box = chain->order.size(); box >= 1; --box) {
      std::optional<TmaPlan> plan =
          buildCandidate(request, variant, *chain, box, &reason);
      if (plan) {
        if (std::optional<std::string> d = checkPlanRules(request, *plan))
          reason = *d;
        else {
          if (!out.plan || better(*plan, *out.plan))
            out.plan = std::move(plan);
          break;
        }
      }
      if (out.decline.empty())
        out.decline = reason;
    }
  }
  if (out.plan)
    out.decline.clear();
  return out;
}

std::string ruleIdOf(const std::string &decline) {
  return decline.substr(0, decline.find(':'));
}

} // namespace tile::tma
