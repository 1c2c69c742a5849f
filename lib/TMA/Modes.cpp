//===- Modes.cpp - L1: refine two regions into common strided modes -------===//

#include "CopyModes.h"

#include "tile/Layout/Coalesce.h"
#include "tile/Layout/Format.h"

#include <algorithm>
#include <numeric>

namespace tile::tma::detail {

std::optional<std::vector<Mode>>
refineModes(const std::vector<GlobalAxis> &globalAxes,
            const std::vector<std::pair<int64_t, int64_t>> &sharedRuns,
            Decline *decline) {
  std::vector<size_t> g;
  for (size_t i = 0; i < globalAxes.size(); ++i)
    if (globalAxes[i].size > 1)
      g.push_back(i);
  std::vector<Mode> modes; // inner to outer while building
  size_t gi = g.size(), si = sharedRuns.size();
  int64_t gRem = 0, gStep = 1, sRem = 0, sStride = 0;
  while (true) {
    if (gRem <= 1 && gi > 0) {
      --gi;
      gRem = globalAxes[g[gi]].size;
      gStep = 1;
    }
    if (sRem <= 1 && si > 0) {
      --si;
      sRem = sharedRuns[si].first;
      sStride = sharedRuns[si].second;
    }
    if (gRem <= 1 || sRem <= 1)
      break;
    int64_t m = std::gcd(gRem, sRem);
    if (m == 1) {
      std::vector<int64_t> gs, ss;
      for (size_t i : g)
        gs.push_back(globalAxes[i].size);
      for (const auto &run : sharedRuns)
        ss.push_back(run.first);
      *decline = Decline{RuleId::Elementwise,
                         "global region runs " + formatTuple(gs) +
                             " and shared region runs " + formatTuple(ss) +
                             " do not factor into common strided runs"};
      return std::nullopt;
    }
    modes.push_back({m, static_cast<unsigned>(g[gi]), gStep, sStride});
    gStep *= m;
    sStride *= m;
    gRem /= m;
    sRem /= m;
  }
  std::reverse(modes.begin(), modes.end());
  // Coalesce neighbours contiguous in both layouts.
  return coalesceRuns(
      modes, [](const Mode &o, const Mode &m) -> std::optional<Mode> {
        if (o.axis != m.axis || o.step != m.step * m.extent ||
            o.sharedStride != m.sharedStride * m.extent)
          return std::nullopt;
        return Mode{o.extent * m.extent, m.axis, m.step, m.sharedStride};
      });
}

namespace {
/// Whether axis `a` can take axis `inner`'s digits below its own.
bool continues(const GlobalAxis &inner, const GlobalAxis &a) {
  return !inner.runtimeExtent && !inner.runtimeStride && !a.runtimeExtent &&
         !a.runtimeStride && inner.start == SymExpr(0) &&
         a.stride == inner.stride * inner.extent &&
         a.extent <= (int64_t(1) << 32) / inner.extent;
}

/// The first pair (inner mode, outer mode) that merges, if any.
std::optional<std::pair<size_t, size_t>> findMergeable(const CopyModes &cm) {
  for (size_t i = 0; i < cm.modes.size(); ++i) {
    const Mode &in = cm.modes[i];
    const GlobalAxis &inner = cm.axes[in.axis];
    // The mode must walk the whole axis, every element of it in the region.
    if (in.step != 1 || in.extent != inner.extent)
      continue;
    for (size_t j = 0; j < cm.modes.size(); ++j) {
      const Mode &out = cm.modes[j];
      // Neighbours in memref order (outer, then inner) are fuseAxes'
      // to fuse or keep apart.
      if (j == i || out.axis == in.axis || out.axis + 1 == in.axis ||
          out.step != 1 || out.sharedStride != in.sharedStride * in.extent ||
          !continues(inner, cm.axes[out.axis]))
        continue;
      return std::make_pair(i, j);
    }
  }
  return std::nullopt;
}
} // namespace

void coalesceAcrossAxes(CopyModes &cm) {
  while (std::optional<std::pair<size_t, size_t>> pair = findMergeable(cm)) {
    const Mode in = cm.modes[pair->first];
    unsigned innerAxis = in.axis, outerAxis = cm.modes[pair->second].axis;
    const GlobalAxis inner = cm.axes[innerAxis];
    GlobalAxis &outer = cm.axes[outerAxis];
    // The outer axis's digits move up by the inner axis's extent.
    outer = GlobalAxis{
        outer.extent * inner.extent, inner.stride, outer.start * inner.extent,
        outer.size * inner.extent,   std::nullopt, std::nullopt};
    for (Mode &m : cm.modes)
      if (m.axis == outerAxis)
        m.step *= inner.extent;
    Mode &merged = cm.modes[pair->second];
    merged = Mode{merged.extent * in.extent, outerAxis, 1, in.sharedStride};
    for (FusedBoundary &f : cm.fusedBoundaries) {
      if (f.axis == outerAxis)
        f.digit *= inner.extent;
      else if (f.axis == innerAxis)
        f.axis = outerAxis;
    }
    cm.modes.erase(cm.modes.begin() + static_cast<std::ptrdiff_t>(pair->first));
    cm.axes.erase(cm.axes.begin() + innerAxis);
    for (Mode &m : cm.modes)
      if (m.axis > innerAxis)
        --m.axis;
    for (FusedBoundary &f : cm.fusedBoundaries)
      if (f.axis > innerAxis)
        --f.axis;
  }
}

std::optional<CopyModes> promote(const CopyModes &in, int64_t factor) {
  CopyModes out = in;
  // The stride-1 mode of both layouts is the one that widens.
  auto it =
      std::find_if(out.modes.begin(), out.modes.end(), [&](const Mode &m) {
        return m.sharedStride == 1 && m.step == 1 &&
               out.axes[m.axis].stride == 1;
      });
  if (it == out.modes.end() || it->extent % factor != 0)
    return std::nullopt;
  unsigned inner = it->axis;
  for (size_t a = 0; a < out.axes.size(); ++a) {
    GlobalAxis &axis = out.axes[a];
    if (a == inner) {
      std::optional<SymExpr> start = axis.start.divExact(factor);
      if (axis.extent % factor != 0 || axis.size % factor != 0 || !start)
        return std::nullopt;
      axis = {axis.extent / factor, 1,           *start, axis.size / factor,
              std::nullopt,         std::nullopt};
    } else {
      if (axis.stride % factor != 0)
        return std::nullopt;
      axis.stride /= factor;
    }
  }
  for (Mode &m : out.modes) {
    if (&m == &*it) {
      m.extent /= factor;
      continue;
    }
    if (m.sharedStride % factor != 0)
      return std::nullopt;
    m.sharedStride /= factor;
    if (m.axis == inner) {
      if (m.step % factor != 0)
        return std::nullopt;
      m.step /= factor;
    }
  }
  std::optional<SymExpr> base = in.sharedBase.divExact(factor);
  if (!base || in.globalBase % factor != 0)
    return std::nullopt;
  out.sharedBase = *base;
  out.globalBase /= factor;
  out.elementBytes *= factor;
  out.regionElements /= factor;
  return out;
}

} // namespace tile::tma::detail
