//===- Planner.cpp - Search over axis fusions, promotion and box prefixes ===//
//
// The candidates: for each choice of which contiguous global axes stay fused
// (all of them first), the element type as given and, when only the 256 box
// limit keeps the stride-1 run from being one box row, wider unsigned types;
// for each, the chain's box prefixes from longest to shortest, keeping the
// first one every rule accepts. The winner has the fewest instructions, then
// the most bytes per instruction (equal counts move equal bytes each), then
// the fewest guards, then a map whose bounds stay the tensor's
// (buildCandidate's loosensBounds), then the lowest rank; remaining ties keep
// the earlier candidate (all axes fused, the unpromoted type).
//
// The search stays small: a fused boundary is only kept apart when a mode
// runs across it (elsewhere the modes split there anyway), and only while the
// best plan needs more than one instruction or loosens the bounds; a box
// prefix is only built when its instruction count (region / box) can beat
// the best plan's (for the kept-apart variants, beat it strictly). A copy no
// candidate satisfies declines with the first reason met, i.e. the one of the
// most ambitious plan.
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

/// A candidate and whether its map's bounds are wider than the tensor's.
struct Candidate {
  TmaPlan plan;
  bool loosensBounds = false;
};

bool better(const Candidate &a, const Candidate &b) {
  if (a.plan.issues.size() != b.plan.issues.size())
    return a.plan.issues.size() < b.plan.issues.size();
  // Equal regions: equal counts give equal bytes per instruction.
  if (a.plan.guards.size() != b.plan.guards.size())
    return a.plan.guards.size() < b.plan.guards.size();
  if (a.loosensBounds != b.loosensBounds)
    return !a.loosensBounds;
  return a.plan.map.rank < b.plan.map.rank;
}

/// The best candidate so far and the first decline met.
struct Search {
  const CopyRequest &request;
  std::optional<Candidate> best;
  std::optional<Decline> decline;

  void noteDecline(const Decline &reason) {
    if (!decline)
      decline = reason;
  }

  // The longest box prefix every rule accepts, for one element type.
  void addModes(const CopyModes &variant, bool ties) {
    Decline reason{};
    std::optional<Chain> chain =
        findChain(variant, request.sharedLayout.swizzle(), &reason);
    if (!chain) {
      noteDecline(reason);
      return;
    }
    // A box of the first `box` chain modes needs region / box instructions;
    // prefixes that cannot beat the best candidate are not built.
    std::vector<int64_t> boxElements(chain->order.size() + 1, 1);
    for (size_t p = 0; p < chain->order.size(); ++p)
      boxElements[p + 1] =
          boxElements[p] * chain->modes[chain->order[p]].extent;
    for (size_t box = chain->order.size(); box >= 1; --box) {
      if (!canBeat(variant.regionElements / boxElements[box], ties))
        return;
      bool loosens = false;
      std::optional<TmaPlan> plan =
          buildCandidate(request, variant, *chain, box, &reason, &loosens);
      if (plan) {
        if (std::optional<Decline> d = checkPlanRules(request, *plan))
          reason = *d;
        else {
          Candidate c{std::move(*plan), loosens};
          if (!best || better(c, *best))
            best = std::move(c);
          return;
        }
      }
      noteDecline(reason);
    }
  }

  // The element type as given, then the promoted ones.
  void addVariant(const CopyModes &modes, bool ties) {
    addModes(modes, ties);
    // Promotion reinterprets bytes as unsigned integers: never with NaN fill
    // or reduce, nor over run-time strides, which would need a divisibility
    // guard each.
    if (request.oobFill == OobFill::Zero &&
        request.reduce == ReduceKind::None && !request.symbolicGlobal &&
        request.sharedLayout.swizzle() == Swizzle::None &&
        stride1RunExceedsBox(modes))
      for (int64_t factor : {2, 4, 8})
        if (modes.elementBytes * factor <= 8)
          if (std::optional<CopyModes> p = promote(modes, factor))
            addModes(*p, ties);
  }

  /// Whether a candidate of `issues` instructions can beat the best one; with
  /// `ties`, also one that only ties it on the count.
  bool canBeat(int64_t issues, bool ties) const {
    if (!best)
      return true;
    int64_t have = static_cast<int64_t>(best->plan.issues.size());
    return issues < have || (issues == have && (ties || best->loosensBounds));
  }

  /// No candidate can beat one instruction within the tensor's bounds.
  bool optimal() const {
    return best && best->plan.issues.size() == 1 && !best->loosensBounds;
  }
};

// The fused boundaries that a mode runs across: keeping one of them apart
// splits that mode (and can let the box cut there); at the others the modes
// already split and fusing changes nothing.
std::vector<unsigned> crossedBoundaries(const CopyModes &cm) {
  std::vector<unsigned> crossed;
  for (const FusedBoundary &f : cm.fusedBoundaries)
    for (const Mode &m : cm.modes)
      if (m.axis == f.axis && m.step < f.digit && f.digit < m.step * m.extent) {
        crossed.push_back(f.boundary);
        break;
      }
  return crossed;
}

// The sets of boundaries to keep apart: every non-empty subset for up to
// four boundaries, else each one alone and all of them.
std::vector<uint64_t> keepSets(const std::vector<unsigned> &fused) {
  std::vector<uint64_t> sets;
  auto bitOf = [](unsigned b) {
    return b <= 64 ? uint64_t(1) << (b - 1) : uint64_t(0);
  };
  if (fused.size() <= 4) {
    for (uint64_t subset = 1; subset < (uint64_t(1) << fused.size());
         ++subset) {
      uint64_t keep = 0;
      for (size_t i = 0; i < fused.size(); ++i)
        if ((subset >> i) & 1)
          keep |= bitOf(fused[i]);
      sets.push_back(keep);
    }
    return sets;
  }
  uint64_t all = 0;
  for (unsigned b : fused) {
    sets.push_back(bitOf(b));
    all |= bitOf(b);
  }
  sets.push_back(all);
  return sets;
}

} // namespace

PlanOutcome planTmaCopy(const CopyRequest &request) {
  if (!request.gatherRows.empty())
    return planGather4(request);
  PlanOutcome out;
  if (std::optional<Decline> d = checkRequestRules(request)) {
    out.decline = *d;
    return out;
  }
  Decline decline{};
  std::optional<SlicedRegions> sliced = sliceRegions(request, &decline);
  std::optional<CopyModes> modes;
  if (sliced)
    modes = fuseAndRefine(request, *sliced, 0, &decline);
  if (!modes) {
    out.decline = decline;
    return out;
  }
  Search search{request, std::nullopt, {}};
  search.addVariant(*modes, /*ties=*/true);
  // Fusing contiguous axes saves dimensions but fixes where the box may cut
  // them; keeping some apart can fit the region in fewer boxes.
  if (!search.optimal())
    for (uint64_t keep : keepSets(crossedBoundaries(*modes))) {
      std::optional<CopyModes> apart =
          fuseAndRefine(request, *sliced, keep, &decline);
      if (apart)
        search.addVariant(*apart, /*ties=*/false);
      if (search.optimal())
        break;
    }
  if (search.best)
    out.plan = std::move(search.best->plan);
  else
    out.decline = search.decline.value_or(
        Decline{RuleId::Elementwise, "no box of the copy's modes fits"});
  return out;
}

} // namespace tile::tma
