//===- Descriptor.cpp - L3: stack box and issue axes into a tensor map ----===//
//
// The first `boxModes` chain modes form the box; every other mode is an issue
// axis (one instruction per step). Each global axis is cut into
// sub-dimensions, one per box mode on it (the box mode being the innermost
// digit of its sub-dimension); issue modes ride on the sub-dimension below
// them as coordinate steps. Box sub-dimensions go in chain order (so the
// stride-1 mode is dimension 0), the others after them, inner axes first.
//
//===----------------------------------------------------------------------===//

#include "CopyModes.h"

#include "tile/TMA/Limits.h"

#include "tile/Support/Rules.h"

#include <algorithm>

namespace tile::tma::detail {

namespace {

struct SubDim {
  unsigned axis = 0;
  int64_t base = 1; // the axis digit step of this sub-dimension's unit
  std::optional<size_t> boxMode;
  std::vector<size_t> issueModes;
  size_t chainPos = SIZE_MAX;
  int64_t globalDim = 1;
  int64_t stride = 0; // elements
  SymExpr coordBase;
  /// Run-time fields of a symbolic global: the dimension (size / base) and
  /// the stride (in elements: stride * base).
  std::optional<RuntimeField> runtimeDim;
  std::optional<RuntimeField> runtimeStride;
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Cuts one axis into sub-dimensions; false with *decline when the cut needs a
// start or extent that does not divide.
bool cutAxis(const GlobalAxis &axis, unsigned index, const Chain &chain,
             const std::vector<size_t> &chainPosOf, size_t boxModes,
             std::vector<SubDim> &out, bool *loosens, Decline *decline) {
  std::vector<size_t> ms;
  for (size_t i = 0; i < chain.modes.size(); ++i)
    if (chain.modes[i].axis == index)
      ms.push_back(i);
  std::sort(ms.begin(), ms.end(), [&](size_t a, size_t b) {
    return chain.modes[a].step < chain.modes[b].step;
  });
  std::vector<SubDim> subs(1);
  subs[0].axis = index;
  for (size_t m : ms) {
    const Mode &mode = chain.modes[m];
    if (chainPosOf[m] < boxModes) {
      SubDim &cur = subs.back();
      if (!cur.boxMode && cur.issueModes.empty() && cur.base == mode.step) {
        cur.boxMode = m;
        cur.chainPos = chainPosOf[m];
        continue;
      }
      SubDim next;
      next.axis = index;
      next.base = mode.step;
      next.boxMode = m;
      next.chainPos = chainPosOf[m];
      subs.push_back(next);
    } else {
      subs.back().issueModes.push_back(m);
    }
  }
  int64_t outerBase = subs.back().base;
  SymExpr outerStart = axis.start;
  // A region inside a static axis whose start does not divide by the cut:
  // the innermost sub-dimension spans the whole axis from the start, the
  // outer ones step from 0 over the region only (they overlap the inner one
  // in memory; every element a box reads is inside the axis).
  bool overlapping = false;
  if (subs.size() > 1) {
    std::optional<SymExpr> q = axis.start.divExact(outerBase);
    std::optional<int64_t> c = axis.start.constantValue();
    bool inside = c && *c >= 0 && *c + axis.size <= axis.extent;
    // A run-time extent must divide by the cut (a region-split guard).
    bool divides = axis.runtimeExtent || axis.extent % outerBase == 0;
    overlapping = !q && inside && !axis.runtimeExtent;
    *loosens = *loosens || overlapping;
    if (!overlapping && (!q || (!divides && !inside))) {
      *decline = Decline{RuleId::RegionSplit,
                         "global run of extent " + std::to_string(axis.extent) +
                             " at [" + axis.start.str() + ", +" +
                             std::to_string(axis.size) +
                             ") cannot split into tensor-map dimensions at " +
                             std::to_string(outerBase)};
      return false;
    }
    if (!overlapping)
      outerStart = *q;
  }
  for (size_t j = 0; j < subs.size(); ++j) {
    SubDim &s = subs[j];
    bool outermost = j + 1 == subs.size();
    s.globalDim =
        outermost ? ceilDiv(axis.extent, s.base) : subs[j + 1].base / s.base;
    s.stride = axis.stride * s.base;
    s.coordBase = outermost ? outerStart : SymExpr(0);
    if (overlapping) {
      s.globalDim = j == 0      ? axis.extent
                    : outermost ? ceilDiv(axis.size, s.base)
                                : subs[j + 1].base / s.base;
      s.coordBase = j == 0 ? axis.start : SymExpr(0);
    }
    if (outermost && axis.runtimeExtent) {
      s.globalDim = 0;
      s.runtimeDim =
          RuntimeField{RuntimeValue::size(*axis.runtimeExtent), 1, s.base};
    }
    if (axis.runtimeStride)
      s.runtimeStride =
          RuntimeField{RuntimeValue::stride(*axis.runtimeStride), s.base, 1};
    out.push_back(s);
  }
  return true;
}

// A sub-dimension with neither a box mode nor issue modes: it only offsets
// the coordinates.
bool isIdle(const SubDim &s) { return !s.boxMode && s.issueModes.empty(); }

// Cuts every axis (inner first) into sub-dimensions, puts the box
// sub-dimensions first in chain order and drops idle ones that do nothing.
std::optional<std::vector<SubDim>>
cutAxes(const CopyModes &cm, const Chain &chain,
        const std::vector<size_t> &chainPosOf, size_t boxModes, bool *loosens,
        Decline *decline) {
  std::vector<SubDim> subs;
  for (unsigned a = static_cast<unsigned>(cm.axes.size()); a-- > 0;)
    if (!cutAxis(cm.axes[a], a, chain, chainPosOf, boxModes, subs, loosens,
                 decline))
      return std::nullopt;
  // Box sub-dimensions in chain order first; the rest keep inner-first order.
  std::stable_sort(
      subs.begin(), subs.end(),
      [](const SubDim &a, const SubDim &b) { return a.chainPos < b.chainPos; });
  subs.erase(std::remove_if(subs.begin(), subs.end(),
                            [&](const SubDim &s) {
                              return isIdle(s) && s.globalDim == 1 &&
                                     s.coordBase == SymExpr(0);
                            }),
             subs.end());
  return subs;
}

// Whether a fixed offset of `k` elements can move into the inner coordinate:
// the inner dimension is the stride-1 start of an axis that holds the region
// (so no element of it reads the extended bounds' new lower part), and the
// coordinate stays 16-byte aligned and inside int32.
bool foldsIntoInner(const SubDim &inner, const CopyModes &cm, int64_t k,
                    int64_t eb) {
  const GlobalAxis &a = cm.axes[inner.axis];
  std::optional<int64_t> start = a.start.constantValue();
  std::optional<int64_t> c0 = inner.coordBase.constantValue();
  return inner.base == 1 && a.stride == 1 && !a.runtimeExtent &&
         !a.runtimeStride && start && *start >= 0 &&
         *start + a.size <= a.extent && c0 && ((*c0 + k) * eb) % 16 == 0 &&
         *c0 + k < (int64_t(1) << 31) &&
         inner.globalDim + k <= (int64_t(1) << 32);
}

// A sub-dimension that only offsets the coordinates by a fixed amount inside
// its bounds; *offset gets that offset in elements.
bool isFixed(const SubDim &s, int64_t *offset) {
  std::optional<int64_t> c = s.coordBase.constantValue();
  if (!isIdle(s) || s.runtimeDim || s.runtimeStride || !c || *c < 0 ||
      *c >= s.globalDim)
    return false;
  *offset = *c * s.stride;
  return true;
}

// Folds fixed coordinates into the base address (or else, for the dimensions
// whose strides a descriptor cannot hold, into the inner coordinate): all
// those dimensions whose stride is not a multiple of 16 bytes, together, then
// past rank 5 one at a time. Returns the base address in bytes.
SymExpr foldFixedDims(std::vector<SubDim> &subs, const CopyModes &cm,
                      int64_t eb, bool *loosens) {
  SymExpr base = SymExpr(cm.globalBase * eb);
  std::vector<size_t> illegal;
  int64_t sum = 0, k = 0;
  for (size_t i = 1; i < subs.size(); ++i)
    if ((subs[i].stride * eb) % 16 != 0 && isFixed(subs[i], &k)) {
      illegal.push_back(i);
      sum += k;
    }
  if (!illegal.empty()) {
    bool folds = true;
    if ((sum * eb) % 16 == 0)
      base += SymExpr(sum * eb);
    else if (foldsIntoInner(subs[0], cm, sum, eb)) {
      subs[0].coordBase += SymExpr(sum);
      subs[0].globalDim += sum;
      *loosens = true;
    } else
      folds = false;
    for (size_t j = illegal.size(); folds && j-- > 0;)
      subs.erase(subs.begin() + static_cast<std::ptrdiff_t>(illegal[j]));
  }
  for (size_t i = subs.size(); i-- > 0 && subs.size() > 5;)
    if (isFixed(subs[i], &k) && (k * eb) % 16 == 0) {
      base += SymExpr(k * eb);
      subs.erase(subs.begin() + static_cast<std::ptrdiff_t>(i));
    }
  return base;
}

// Fills the tensor map from the sub-dimensions; returns, per chain mode, the
// map dimension its issue steps move (-1 for box modes).
std::vector<int> fillMap(TensorMapDesc &map, const CopyRequest &request,
                         const Chain &chain, const std::vector<SubDim> &subs,
                         int64_t eb, const SymExpr &base) {
  map.elementBytes = eb;
  map.promoted = eb != request.elementType.bytes;
  std::optional<TensorDataType> type =
      map.promoted ? promotedDataType(eb) : dataTypeFor(request.elementType);
  map.dataType = type.value_or(TensorDataType::U8);
  map.rank = static_cast<unsigned>(subs.size());
  map.swizzle = request.sharedLayout.swizzle();
  map.oobFill = request.oobFill == OobFill::NaN ? 1 : 0;
  map.baseOffsetBytes = base;
  bool symbolic = request.symbolicGlobal.has_value();
  if (symbolic && !request.symbolicGlobal->offset)
    map.runtimeOffsetScale = eb;
  std::vector<int> dimOfMode(chain.modes.size(), -1);
  for (size_t d = 0; d < subs.size(); ++d) {
    const SubDim &s = subs[d];
    map.globalDim.push_back(static_cast<uint64_t>(s.globalDim));
    if (symbolic)
      map.runtimeGlobalDim.push_back(s.runtimeDim);
    if (d > 0) {
      map.globalStridesBytes.push_back(
          s.runtimeStride ? 0 : static_cast<uint64_t>(s.stride * eb));
      if (symbolic) {
        std::optional<RuntimeField> stride = s.runtimeStride;
        if (stride)
          stride->scale *= eb;
        map.runtimeGlobalStrides.push_back(stride);
      }
    }
    map.boxDim.push_back(
        s.boxMode ? static_cast<uint32_t>(chain.modes[*s.boxMode].extent) : 1);
    map.elementStrides.push_back(1);
    for (size_t m : s.issueModes)
      dimOfMode[m] = static_cast<int>(d);
  }
  // Only maps with a run-time field carry the lists.
  auto allStatic = [](const std::vector<std::optional<RuntimeField>> &v) {
    return std::none_of(v.begin(), v.end(),
                        [](const auto &f) { return f.has_value(); });
  };
  if (allStatic(map.runtimeGlobalDim) && allStatic(map.runtimeGlobalStrides)) {
    map.runtimeGlobalDim.clear();
    map.runtimeGlobalStrides.clear();
  }
  return dimOfMode;
}

// Issue axes: every mode outside the box, outer to inner; *count gets the
// number of instructions they need.
std::optional<std::vector<size_t>>
collectIssueModes(const Chain &chain, const std::vector<size_t> &chainPosOf,
                  size_t boxModes, int64_t *count, Decline *decline) {
  std::vector<size_t> issueModes;
  *count = 1;
  for (size_t m = 0; m < chain.modes.size(); ++m) {
    if (chainPosOf[m] < boxModes)
      continue;
    issueModes.push_back(m);
    *count *= chain.modes[m].extent;
    if (*count > limits::kMaxIssues) {
      *decline =
          Decline{RuleId::IssueCount, "the plan needs more than " +
                                          std::to_string(limits::kMaxIssues) +
                                          " instructions"};
      return std::nullopt;
    }
  }
  return issueModes;
}

// One issue per step of the issue modes, the innermost mode stepping fastest.
void appendIssues(TmaPlan &plan, const CopyModes &cm, const Chain &chain,
                  const std::vector<SubDim> &subs,
                  const std::vector<size_t> &issueModes,
                  const std::vector<int> &dimOfMode, int64_t count,
                  int64_t eb) {
  std::vector<int64_t> digit(issueModes.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    TmaIssue issue;
    SymExpr smem = cm.sharedBase;
    for (const SubDim &s : subs)
      issue.coords.push_back(s.coordBase);
    for (size_t k = 0; k < issueModes.size(); ++k) {
      const Mode &m = chain.modes[issueModes[k]];
      smem += SymExpr(digit[k] * m.sharedStride);
      int d = dimOfMode[issueModes[k]];
      issue.coords[d] += SymExpr(digit[k] * (m.step / subs[d].base));
    }
    issue.smemByteOffset = smem * eb;
    plan.issues.push_back(std::move(issue));
    for (size_t k = issueModes.size(); k-- > 0;) {
      if (++digit[k] < chain.modes[issueModes[k]].extent)
        break;
      digit[k] = 0;
    }
  }
}

} // namespace

std::optional<TmaPlan> buildCandidate(const CopyRequest &request,
                                      const CopyModes &cm, const Chain &chain,
                                      size_t boxModes, Decline *decline,
                                      bool *loosensBounds) {
  int64_t eb = cm.elementBytes;
  bool loosens = false;
  std::vector<size_t> chainPosOf(chain.modes.size(), SIZE_MAX);
  for (size_t p = 0; p < chain.order.size(); ++p)
    chainPosOf[chain.order[p]] = p;

  std::optional<std::vector<SubDim>> subs =
      cutAxes(cm, chain, chainPosOf, boxModes, &loosens, decline);
  if (!subs)
    return std::nullopt;
  SymExpr base = foldFixedDims(*subs, cm, eb, &loosens);
  if (loosensBounds)
    *loosensBounds = loosens;

  TmaPlan plan;
  std::vector<int> dimOfMode =
      fillMap(plan.map, request, chain, *subs, eb, base);
  plan.bytes = cm.regionElements * eb;

  int64_t count = 1;
  std::optional<std::vector<size_t>> issueModes =
      collectIssueModes(chain, chainPosOf, boxModes, &count, decline);
  if (!issueModes)
    return std::nullopt;
  appendIssues(plan, cm, chain, *subs, *issueModes, dimOfMode, count, eb);
  if (request.symbolicGlobal)
    plan.guards = deriveGuards(request, plan);
  return plan;
}

} // namespace tile::tma::detail
