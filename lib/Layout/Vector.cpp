//===- Vector.cpp - The widest contiguous vector of a grouped layout ------===//

#include "tile/Layout/Layout.h"

#include <algorithm>

namespace tile {

int64_t vectorWidth(const GroupedLayout &layout, int64_t maxElements) {
  if (layout.groups.empty() || maxElements < 2)
    return 1;
  // The stride-1 run of the last dimension: its innermost moving shard and
  // the shards that continue it (stride = the run so far), as
  // canonicalize() would fuse them.
  const std::vector<Shard> &last = layout.groups.back();
  std::vector<const Shard *> run;
  int64_t runExtent = 1;
  for (auto it = last.rbegin(); it != last.rend(); ++it) {
    if (it->extent == 1)
      continue;
    if (it->stride != runExtent)
      break;
    run.push_back(&*it);
    runExtent *= it->extent;
  }
  int64_t width = 1;
  while (width * 2 <= maxElements && runExtent % (width * 2) == 0)
    width *= 2;
  // Every other moving shard, and the start, keep the runs aligned.
  auto inRun = [&](const Shard &shard) {
    return std::find(run.begin(), run.end(), &shard) != run.end();
  };
  auto aligned = [&](int64_t v) {
    if (layout.elementOffset % v != 0)
      return false;
    for (const std::vector<Shard> &group : layout.groups)
      for (const Shard &shard : group)
        if (shard.extent > 1 && !inRun(shard) && shard.stride % v != 0)
          return false;
    return true;
  };
  while (width > 1 && !aligned(width))
    width /= 2;
  return width;
}

int64_t maxCommonVector(const GroupedLayout &a, const GroupedLayout &b,
                        int64_t maxElements) {
  return std::min(vectorWidth(a, maxElements), vectorWidth(b, maxElements));
}

} // namespace tile
