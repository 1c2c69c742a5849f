//===- Slice.cpp - Slicing grouped layouts by regions ---------------------===//

#include "tile/Layout/Slice.h"

namespace tile {

namespace {
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}
int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

const std::vector<Shard> &orUnit(const std::vector<Shard> &group) {
  static const std::vector<Shard> unit = {Shard{1, 0}};
  return group.empty() ? unit : group;
}

bool setError(std::string *error, std::string message) {
  if (error)
    *error = std::move(message);
  return false;
}
} // namespace

std::optional<DimCover> coverOf(const std::vector<Shard> &group, int64_t size,
                                std::string *error) {
  const std::vector<Shard> &g = orUnit(group);
  if (size <= 0) {
    setError(error, "region size " + std::to_string(size) + " is not positive");
    return std::nullopt;
  }
  DimCover cover;
  int64_t n = size;
  for (size_t k = g.size(); k-- > 0 && n > 1;) {
    int64_t e = g[k].extent;
    if (k > 0 && n % e == 0) {
      ++cover.fullShards;
      cover.innerProduct *= e;
      n /= e;
      continue;
    }
    if (k > 0 && n > e) {
      setError(error, "region size " + std::to_string(size) +
                          " is not a multiple of the shard extents it spans");
      return std::nullopt;
    }
    cover.partialCount = n;
    n = 1;
  }
  return cover;
}

std::optional<std::vector<SliceAxis>>
sliceGroup(const std::vector<Shard> &group, int64_t start, int64_t size,
           std::string *error) {
  const std::vector<Shard> &g = orUnit(group);
  if (size <= 0) {
    setError(error, "region size " + std::to_string(size) + " is not positive");
    return std::nullopt;
  }
  std::vector<SliceAxis> axes(g.size());
  int64_t o = start, n = size;
  for (size_t k = g.size(); k-- > 0;) {
    int64_t e = g[k].extent, s = g[k].stride;
    if (k == 0) {
      axes[k] = {e, s, o, n}; // The outermost shard takes the quotient.
      break;
    }
    if (n == 1) {
      axes[k] = {e, s, floorMod(o, e), 1};
      o = floorDiv(o, e);
    } else if (n % e == 0) {
      if (floorMod(o, e) != 0) {
        setError(error, "region start " + std::to_string(start) +
                            " does not align to shard " + std::to_string(k) +
                            " of extent " + std::to_string(e));
        return std::nullopt;
      }
      axes[k] = {e, s, 0, e};
      o = floorDiv(o, e);
      n /= e;
    } else if (n < e && floorMod(o, e) + n <= e) {
      axes[k] = {e, s, floorMod(o, e), n};
      o = floorDiv(o, e);
      n = 1;
    } else {
      setError(error, "region [" + std::to_string(start) + ", " +
                          std::to_string(start + size) +
                          ") crosses a boundary of shard " + std::to_string(k) +
                          " of extent " + std::to_string(e));
      return std::nullopt;
    }
  }
  return axes;
}

std::optional<Layout> sliceRegion(const GroupedLayout &layout,
                                  const Region &region, std::string *error) {
  size_t rank = layout.rank();
  if (region.offsets.size() != rank || region.sizes.size() != rank) {
    setError(error, "region rank does not match the layout's rank " +
                        std::to_string(rank));
    return std::nullopt;
  }
  std::vector<Shard> shards;
  int64_t offset = layout.elementOffset;
  for (size_t d = 0; d < rank; ++d) {
    int64_t start = region.offsets[d], size = region.sizes[d];
    if (start < 0 || size <= 0 || start > layout.shape[d] - size) {
      setError(error, "region [" + std::to_string(start) + ", " +
                          std::to_string(start + size) + ") of dimension " +
                          std::to_string(d) + " leaves [0, " +
                          std::to_string(layout.shape[d]) + ")");
      return std::nullopt;
    }
    std::optional<std::vector<SliceAxis>> axes =
        sliceGroup(layout.groups[d], start, size, error);
    if (!axes)
      return std::nullopt;
    for (const SliceAxis &a : *axes) {
      shards.push_back({a.size, a.size == 1 ? 0 : a.stride});
      offset += a.start * a.stride;
    }
  }
  return Layout(std::move(shards), layout.swizzle, offset);
}

std::vector<size_t> strideOneChain(const Layout &layout) {
  std::vector<size_t> chain;
  const std::vector<Shard> &shards = layout.shards();
  int64_t want = 1;
  while (true) {
    size_t found = shards.size();
    for (size_t i = 0; i < shards.size(); ++i)
      if (shards[i].extent > 1 && shards[i].stride == want)
        found = i;
    if (found == shards.size())
      return chain;
    for (size_t i : chain)
      if (i == found)
        return chain; // Overlapping layouts could loop.
    chain.push_back(found);
    want *= shards[found].extent;
  }
}

} // namespace tile
