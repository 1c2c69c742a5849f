//===- Grouping.cpp - Grouping shards onto a buffer shape -----------------===//

#include "tile/Layout/Format.h"
#include "tile/Layout/Layout.h"

namespace tile {

namespace {
std::string groupError(const Layout &layout,
                       const std::vector<int64_t> &shape) {
  std::vector<int64_t> extents;
  for (const Shard &s : layout.shards())
    extents.push_back(s.extent);
  return "cannot group shard extents " + formatTuple(extents) + " onto shape " +
         formatTuple(shape);
}

// Digit of `index` on shard k of `group` and the offset contribution of the
// whole group; the outermost shard takes the remaining quotient.
int64_t groupOffset(const std::vector<Shard> &group, int64_t index) {
  int64_t result = 0;
  for (size_t k = group.size(); k-- > 0;) {
    if (k == 0) {
      result += index * group[k].stride;
      break;
    }
    result += (index % group[k].extent) * group[k].stride;
    index /= group[k].extent;
  }
  return result;
}
} // namespace

std::optional<GroupedLayout> groupOnto(const Layout &layout,
                                       const std::vector<int64_t> &shape,
                                       std::string *error) {
  auto fail = [&]() -> std::optional<GroupedLayout> {
    if (error)
      *error = groupError(layout, shape);
    return std::nullopt;
  };
  const std::vector<Shard> &shards = layout.shards();
  GroupedLayout result;
  result.shape = shape;
  result.groups.resize(shape.size());
  result.swizzle = layout.swizzle();
  result.elementOffset = layout.elementOffset();
  size_t k = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] <= 0)
      return fail();
    int64_t product = 1;
    while (product < shape[d]) {
      if (k == shards.size())
        return fail();
      int64_t extent = shards[k].extent;
      if (extent <= 0 || extent > shape[d] / product ||
          shape[d] % (product * extent) != 0)
        return fail();
      product *= extent;
      result.groups[d].push_back(shards[k++]);
    }
  }
  // Trailing extent-1 shards join the last group.
  for (; k < shards.size(); ++k) {
    if (shards[k].extent != 1)
      return fail();
    if (!shape.empty())
      result.groups.back().push_back(shards[k]);
  }
  return result;
}

int64_t GroupedLayout::offsetOf(const std::vector<int64_t> &index) const {
  int64_t result = elementOffset;
  for (size_t d = 0; d < groups.size() && d < index.size(); ++d)
    result += groupOffset(groups[d], index[d]);
  return result;
}

int64_t GroupedLayout::byteAddressOf(const std::vector<int64_t> &index,
                                     int64_t elementBytes,
                                     int64_t baseByteAddress) const {
  return applySwizzle(swizzle,
                      baseByteAddress + offsetOf(index) * elementBytes);
}

Layout GroupedLayout::flatten() const {
  std::vector<Shard> shards;
  for (const std::vector<Shard> &g : groups)
    shards.insert(shards.end(), g.begin(), g.end());
  return Layout(std::move(shards), swizzle, elementOffset);
}

int64_t Region::numElements() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

} // namespace tile
