//===- Coalesce.h - Fusing neighbouring strided runs ------------*- C++ -*-===//
//
// Shards of a layout, the modes a copy walks and the axes of a tensor map are
// all strided runs listed outer to inner; each is simplified by fusing an
// outer run with the inner one it continues. The walk is shared here; what
// "continues" means (and what a fused run keeps) is the caller's.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_COALESCE_H
#define TILE_LAYOUT_COALESCE_H

#include <optional>
#include <vector>

namespace tile {

/// Walks `runs` outer to inner and replaces each neighbouring pair for which
/// `fuse(outer, inner)` returns a run by that run (which may fuse again with
/// the next inner one).
template <typename Run, typename FuseFn>
std::vector<Run> coalesceRuns(const std::vector<Run> &runs, FuseFn fuse) {
  std::vector<Run> out;
  for (const Run &run : runs) {
    if (!out.empty()) {
      if (std::optional<Run> fused = fuse(out.back(), run)) {
        out.back() = *fused;
        continue;
      }
    }
    out.push_back(run);
  }
  return out;
}

} // namespace tile

#endif // TILE_LAYOUT_COALESCE_H
