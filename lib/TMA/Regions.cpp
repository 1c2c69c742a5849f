//===- Regions.cpp - L1: group, canonicalize and slice both regions -------===//

#include "CopyModes.h"

#include "tile/Layout/Coalesce.h"
#include "tile/Layout/Format.h"
#include "tile/Layout/Slice.h"

namespace tile::tma::detail {

namespace {

// A symbolic start's digit on a shard of extent e is known when every symbol
// coefficient divides by e: then it is the constant's digit.
struct SymbolicStart {
  using Offset = SymExpr;
  static std::optional<int64_t> digit(const SymExpr &o, int64_t e) {
    SymExpr terms = o - SymExpr(o.constant);
    if (!terms.divExact(e))
      return std::nullopt;
    return IntegerStart::digit(o.constant, e);
  }
  static SymExpr quotient(const SymExpr &o, int64_t digit, int64_t e) {
    return *(o - SymExpr(digit)).divExact(e);
  }
};

using SymAxis = SliceAxisOf<SymExpr>;

// sliceGroupWith (tile/Layout/Slice.h) with a symbolic start; a failure
// becomes a region-split decline.
std::optional<std::vector<SymAxis>>
sliceSymbolic(const std::vector<Shard> &group, const SymExpr &start,
              int64_t size, const std::string &where, Decline *decline) {
  SliceFailure failure;
  std::optional<std::vector<SymAxis>> axes =
      sliceGroupWith<SymbolicStart>(group, start, size, &failure);
  if (axes)
    return axes;
  std::string e = std::to_string(failure.extent), why;
  switch (failure.kind) {
  case SliceFailure::UnknownDigit:
    why = "has a start whose digit on a shard of extent " + e + " is not known";
    break;
  case SliceFailure::Misaligned:
    why = "does not start on a multiple of the shard extent " + e;
    break;
  case SliceFailure::Crosses:
    why = "crosses a boundary of a shard of extent " + e;
    break;
  }
  *decline =
      Decline{RuleId::RegionSplit, where + " region [" + start.str() + ", +" +
                                       std::to_string(size) + ") " + why};
  return std::nullopt;
}

std::vector<Shard> canonicalGroup(const std::vector<Shard> &group) {
  return Layout(group).canonicalize().shards();
}

bool checkRegionShape(const char *side, const std::vector<int64_t> &shape,
                      const std::vector<SymExpr> &offsets,
                      const std::vector<int64_t> &sizes, Decline *decline) {
  if (offsets.size() != shape.size() || sizes.size() != shape.size()) {
    *decline = Decline{RuleId::Layout,
                       std::string(side) + " region has " +
                           std::to_string(offsets.size()) + " offsets and " +
                           std::to_string(sizes.size()) + " sizes for a rank-" +
                           std::to_string(shape.size()) + " buffer"};
    return false;
  }
  // Offsets beyond int32 cannot become TMA coordinates; bounding them (and
  // the strides, in checkedGroup) keeps every offset * stride product of the
  // planner inside int64.
  constexpr int64_t kMaxCoord = int64_t(1) << 31;
  for (size_t d = 0; d < shape.size(); ++d) {
    bool inRange =
        offsets[d].constant >= -kMaxCoord && offsets[d].constant <= kMaxCoord;
    for (const auto &term : offsets[d].terms)
      inRange =
          inRange && term.second >= -kMaxCoord && term.second <= kMaxCoord;
    if (!inRange) {
      *decline = Decline{RuleId::CoordRange,
                         std::string(side) + " offset " + offsets[d].str() +
                             " in dimension " + std::to_string(d) +
                             " does not fit int32"};
      return false;
    }
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (sizes[d] <= 0 || sizes[d] > (int64_t(1) << 31) || shape[d] <= 0) {
      *decline = Decline{RuleId::Layout,
                         std::string(side) + " region size " +
                             std::to_string(sizes[d]) + " on a dimension of " +
                             std::to_string(shape[d]) + " (dimension " +
                             std::to_string(d) + ")"};
      return false;
    }
  }
  return true;
}

std::optional<GroupedLayout> checkedGroup(const char *side, const Layout &l,
                                          const std::vector<int64_t> &shape,
                                          Decline *decline) {
  if (std::optional<std::string> err = l.verify()) {
    *decline = Decline{RuleId::Layout,
                       std::string(side) + " layout " + l.str() + ": " + *err};
    return std::nullopt;
  }
  for (const Shard &shard : l.shards())
    if (shard.extent > 1 && shard.stride > (int64_t(1) << 31)) {
      // A global stride is a descriptor field; a shared one is the layout's.
      *decline =
          Decline{std::string_view(side) == "global" ? RuleId::GlobalStride
                                                     : RuleId::Layout,
                  std::string(side) + " layout " + l.str() +
                      " has a stride of " + std::to_string(shard.stride) +
                      " elements, above the 2^31 the planner handles"};
      return std::nullopt;
    }
  std::string err;
  std::optional<GroupedLayout> g = groupOnto(l, shape, &err);
  if (!g)
    *decline = Decline{RuleId::Layout, std::string(side) + " layout: " + err};
  return g;
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t p = 1;
  for (int64_t x : v)
    if (__builtin_mul_overflow(p, x, &p))
      return -1;
  return p;
}

// Both regions fit their buffers' ranks and hold the same number of elements;
// returns that number.
std::optional<int64_t> checkRegionCounts(const CopyRequest &r,
                                         Decline *decline) {
  if (!checkRegionShape("global", r.globalShape, r.globalOffsets, r.globalSizes,
                        decline) ||
      !checkRegionShape("shared", r.sharedShape, r.sharedOffsets, r.sharedSizes,
                        decline))
    return std::nullopt;
  int64_t count = product(r.globalSizes);
  if (count < 0 || count > (int64_t(1) << 40)) {
    *decline =
        Decline{RuleId::Layout, "global region " + formatTuple(r.globalSizes) +
                                    " is too large"};
    return std::nullopt;
  }
  if (count != product(r.sharedSizes)) {
    *decline = Decline{RuleId::CountMismatch,
                       "global region " + formatTuple(r.globalSizes) + " has " +
                           std::to_string(count) + " elements, shared region " +
                           formatTuple(r.sharedSizes) + " has " +
                           std::to_string(product(r.sharedSizes))};
    return std::nullopt;
  }
  return count;
}

bool checkSwizzleAndOverlap(const CopyRequest &r, Decline *decline) {
  if (r.globalLayout.swizzle() != Swizzle::None) {
    *decline = Decline{RuleId::Layout,
                       "global layout " + r.globalLayout.str() +
                           " is swizzled; TMA reads global memory unswizzled"};
    return false;
  }
  if (std::optional<std::string> err =
          r.sharedLayout.verifySwizzle(r.elementType.bytes)) {
    *decline = Decline{RuleId::Layout, "shared layout: " + *err};
    return false;
  }
  // Two elements at one shared address make a load's result depend on the
  // order the hardware writes them in.
  if (r.sharedLayout.hasOverlap()) {
    *decline = Decline{RuleId::Overlap,
                       "shared layout " + r.sharedLayout.str() +
                           " maps several elements to the same address"};
    return false;
  }
  return true;
}

// Shared side: the region's strided runs (extent, stride) and its start
// offset (out.sharedBase).
bool collectSharedRuns(const CopyRequest &r, const GroupedLayout &s,
                       CopyModes &out,
                       std::vector<std::pair<int64_t, int64_t>> &sharedRuns,
                       Decline *decline) {
  out.sharedBase = SymExpr(r.sharedLayout.elementOffset());
  for (size_t d = 0; d < r.sharedShape.size(); ++d) {
    const SymExpr &o = r.sharedOffsets[d];
    int64_t n = r.sharedSizes[d];
    if (o.isConstant() &&
        (o.constant < 0 || o.constant > r.sharedShape[d] - n)) {
      *decline = Decline{
          RuleId::SharedBounds,
          "shared region [" + o.str() + ", " + std::to_string(o.constant + n) +
              ") of dimension " + std::to_string(d) + " leaves [0, " +
              std::to_string(r.sharedShape[d]) + ")"};
      return false;
    }
    std::optional<std::vector<SymAxis>> axes =
        sliceSymbolic(canonicalGroup(s.groups[d]), o, n,
                      "shared dimension " + std::to_string(d), decline);
    if (!axes)
      return false;
    for (const SymAxis &a : *axes) {
      out.sharedBase += a.start * a.stride;
      if (a.size > 1)
        sharedRuns.push_back({a.size, a.stride});
    }
  }
  return true;
}

// Global side: axes keep their tensor extent for bounds and coordinates.
std::optional<std::vector<GlobalAxis>> collectGlobalAxes(const CopyRequest &r,
                                                         const GroupedLayout &g,
                                                         Decline *decline) {
  std::vector<GlobalAxis> axes;
  for (size_t d = 0; d < r.globalShape.size(); ++d) {
    std::optional<std::vector<SymAxis>> sliced = sliceSymbolic(
        canonicalGroup(g.groups[d]), r.globalOffsets[d], r.globalSizes[d],
        "global dimension " + std::to_string(d), decline);
    if (!sliced)
      return std::nullopt;
    for (const SymAxis &a : *sliced) {
      if (a.extent == 1 && a.size == 1 && a.start == SymExpr(0))
        continue; // Touches nothing: no coordinate, no bound.
      axes.push_back(
          {a.extent, a.stride, a.start, a.size, std::nullopt, std::nullopt});
    }
  }
  return axes;
}

// Global side of a SymbolicGlobal: one axis per memref dimension (a strided
// buffer has one shard per dimension), run-time extents and strides marked.
std::optional<std::vector<GlobalAxis>> collectSymbolicAxes(const CopyRequest &r,
                                                           Decline *decline) {
  const SymbolicGlobal &g = *r.symbolicGlobal;
  if (g.sizes.size() != r.globalShape.size() ||
      g.strides.size() != r.globalShape.size()) {
    *decline = Decline{
        RuleId::Layout,
        "symbolic global buffer has " + std::to_string(g.sizes.size()) +
            " sizes and " + std::to_string(g.strides.size()) +
            " strides for rank " + std::to_string(r.globalShape.size())};
    return std::nullopt;
  }
  std::vector<GlobalAxis> axes;
  for (unsigned d = 0; d < g.sizes.size(); ++d) {
    GlobalAxis a;
    a.extent = g.sizes[d].value_or(kUnknownExtent);
    a.stride = g.strides[d].value_or(0);
    if (!g.sizes[d])
      a.runtimeExtent = d;
    if (!g.strides[d])
      a.runtimeStride = d;
    if (g.strides[d] &&
        (*g.strides[d] < 0 || *g.strides[d] > (int64_t(1) << 31))) {
      *decline =
          Decline{RuleId::GlobalStride,
                  "global dimension " + std::to_string(d) +
                      " has a stride of " + std::to_string(*g.strides[d]) +
                      " elements, outside the 0..2^31 the planner handles"};
      return std::nullopt;
    }
    a.start = r.globalOffsets[d];
    a.size = r.globalSizes[d];
    if (a.extent == 1 && a.size == 1 && a.start == SymExpr(0))
      continue; // Touches nothing: no coordinate, no bound.
    axes.push_back(a);
  }
  return axes;
}

// Fuses an axis with the outer neighbour when it is whole and contiguous
// under it (fewer tensor-map dimensions). A run-time extent or stride never
// fuses (that would need an equality guard).
std::optional<GlobalAxis> fuseAxisPair(const GlobalAxis &outer,
                                       const GlobalAxis &a) {
  if (outer.runtimeExtent || outer.runtimeStride || a.runtimeExtent ||
      a.runtimeStride || a.start != SymExpr(0) || a.size != a.extent ||
      outer.stride != a.extent * a.stride ||
      outer.extent > (int64_t(1) << 32) / a.extent)
    return std::nullopt;
  return GlobalAxis{
      outer.extent * a.extent, a.stride,     outer.start * a.extent,
      outer.size * a.extent,   std::nullopt, std::nullopt};
}

// Fuses every fusable neighbour pair except at the kept boundaries; records
// the boundaries it fused and where each lies in its fused axis.
std::vector<GlobalAxis> fuseAxes(const std::vector<GlobalAxis> &axes,
                                 uint64_t keepBoundaries,
                                 std::vector<FusedBoundary> &fused) {
  unsigned boundary = 0, axis = 0;
  return coalesceRuns(axes,
                      [&](const GlobalAxis &outer,
                          const GlobalAxis &a) -> std::optional<GlobalAxis> {
                        unsigned b = ++boundary;
                        std::optional<GlobalAxis> f;
                        if (b > 64 || !((keepBoundaries >> (b - 1)) & 1))
                          f = fuseAxisPair(outer, a);
                        if (!f) {
                          ++axis;
                          return f;
                        }
                        // The fused axis counts in units of the inner axis's
                        // stride.
                        for (FusedBoundary &e : fused)
                          if (e.axis == axis)
                            e.digit *= a.extent;
                        fused.push_back({b, axis, a.extent});
                        return f;
                      });
}

// A store whose region aliases in global memory has no defined result.
bool checkStoreOverlap(const CopyRequest &r,
                       const std::vector<GlobalAxis> &axes, Decline *decline) {
  if (r.direction == Direction::SharedToGlobal) {
    std::vector<Shard> written;
    for (const GlobalAxis &a : axes)
      if (a.runtimeStride)
        return true; // Run-time strides: the caller's contract.
    for (const GlobalAxis &a : axes)
      if (a.size > 1)
        written.push_back({a.size, a.stride});
    if (Layout(written).hasOverlap()) {
      *decline = Decline{RuleId::Layout, "store region of global layout " +
                                             r.globalLayout.str() +
                                             " writes overlapping addresses"};
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<SlicedRegions> sliceRegions(const CopyRequest &r,
                                          Decline *decline) {
  std::optional<int64_t> count = checkRegionCounts(r, decline);
  if (!count)
    return std::nullopt;
  std::optional<GroupedLayout> g;
  if (!r.symbolicGlobal) {
    g = checkedGroup("global", r.globalLayout, r.globalShape, decline);
    if (!g)
      return std::nullopt;
  }
  std::optional<GroupedLayout> s =
      checkedGroup("shared", r.sharedLayout, r.sharedShape, decline);
  if (!s)
    return std::nullopt;
  if (!checkSwizzleAndOverlap(r, decline))
    return std::nullopt;

  SlicedRegions out;
  out.modes.elementBytes = r.elementType.bytes;
  out.modes.regionElements = *count;
  out.modes.globalBase = r.symbolicGlobal ? r.symbolicGlobal->offset.value_or(0)
                                          : r.globalLayout.elementOffset();
  if (!collectSharedRuns(r, *s, out.modes, out.sharedRuns, decline))
    return std::nullopt;
  std::optional<std::vector<GlobalAxis>> axes =
      r.symbolicGlobal ? collectSymbolicAxes(r, decline)
                       : collectGlobalAxes(r, *g, decline);
  if (!axes)
    return std::nullopt;
  out.axes = std::move(*axes);
  return out;
}

std::optional<CopyModes> fuseAndRefine(const CopyRequest &r,
                                       const SlicedRegions &sliced,
                                       uint64_t keepBoundaries,
                                       Decline *decline) {
  CopyModes out = sliced.modes;
  std::vector<GlobalAxis> axes =
      fuseAxes(sliced.axes, keepBoundaries, out.fusedBoundaries);
  if (!checkStoreOverlap(r, axes, decline))
    return std::nullopt;
  std::optional<std::vector<Mode>> modes =
      refineModes(axes, sliced.sharedRuns, decline);
  if (!modes)
    return std::nullopt;
  out.axes = std::move(axes);
  out.modes = std::move(*modes);
  coalesceAcrossAxes(out);
  return out;
}

std::optional<CopyModes> buildCopyModes(const CopyRequest &r,
                                        Decline *decline) {
  std::optional<SlicedRegions> sliced = sliceRegions(r, decline);
  if (!sliced)
    return std::nullopt;
  return fuseAndRefine(r, *sliced, 0, decline);
}

} // namespace tile::tma::detail
