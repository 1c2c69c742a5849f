//===- Layout.cpp - Shard layouts: evaluation, checks, canonical form -----===//

#include "tile/Layout/Layout.h"
#include "tile/Layout/Coalesce.h"
#include "tile/Layout/Format.h"

#include <algorithm>
#include <numeric>

namespace tile {

namespace {
// Layouts above this many elements or offsets are rejected by verify() so
// that every later product and sum fits comfortably in int64_t.
constexpr int64_t kMaxLayoutValue = int64_t(1) << 52;

bool mulBounded(int64_t a, int64_t b, int64_t &out) {
  return !__builtin_mul_overflow(a, b, &out) && out <= kMaxLayoutValue;
}

// Largest layout whose overlap is decided by enumerating every offset.
constexpr int64_t kMaxEnumeratedCosize = int64_t(1) << 26;
} // namespace

Layout Layout::rowMajor(const std::vector<int64_t> &shape, Swizzle swizzle) {
  std::vector<Shard> shards(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    shards[i] = {shape[i], stride};
    stride *= shape[i];
  }
  return Layout(std::move(shards), swizzle);
}

Layout Layout::strided(const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &strides,
                       int64_t elementOffset) {
  std::vector<Shard> shards;
  for (size_t i = 0; i < shape.size() && i < strides.size(); ++i)
    shards.push_back({shape[i], strides[i]});
  return Layout(std::move(shards), Swizzle::None, elementOffset);
}

int64_t Layout::size() const {
  int64_t n = 1;
  for (const Shard &s : shardList)
    n *= s.extent;
  return n;
}

int64_t Layout::cosize() const {
  int64_t last = 0;
  for (const Shard &s : shardList) {
    if (s.extent <= 0)
      return 0;
    last += (s.extent - 1) * s.stride;
  }
  return last + 1;
}

std::optional<std::string> Layout::verify() const {
  int64_t size = 1, span = 0;
  for (size_t i = 0; i < shardList.size(); ++i) {
    const Shard &s = shardList[i];
    std::string name = "shard " + std::to_string(i);
    if (s.extent <= 0)
      return name + " has extent " + std::to_string(s.extent);
    if (s.stride < 0)
      return name + " has negative stride " + std::to_string(s.stride);
    if (s.stride == 0 && s.extent != 1)
      return name + " has stride 0 but extent " + std::to_string(s.extent);
    int64_t reach;
    if (!mulBounded(size, s.extent, size) ||
        !mulBounded(s.extent - 1, s.stride, reach) ||
        __builtin_add_overflow(span, reach, &span) || span > kMaxLayoutValue)
      return name + " (" + std::to_string(s.extent) + ":" +
             std::to_string(s.stride) + ") makes the layout exceed 2^52";
  }
  if (offset < 0)
    return "element offset " + std::to_string(offset) + " is negative";
  if (offset > kMaxLayoutValue)
    return "element offset " + std::to_string(offset) + " exceeds 2^52";
  return std::nullopt;
}

bool Layout::hasOverlap() const {
  std::vector<Shard> shards;
  for (const Shard &s : shardList)
    if (s.extent > 1)
      shards.push_back(s);
  int64_t n = size(), co = cosize();
  if (n > co)
    return true; // Pigeonhole: more indices than offsets.
  // Sufficient test: sorted by stride, each stride passes the reach of all
  // smaller ones.
  std::sort(shards.begin(), shards.end(),
            [](const Shard &a, const Shard &b) { return a.stride < b.stride; });
  int64_t reach = 0;
  bool separated = true;
  for (const Shard &s : shards) {
    if (s.stride <= reach) {
      separated = false;
      break;
    }
    reach += (s.extent - 1) * s.stride;
  }
  if (separated)
    return false;
  if (co > kMaxEnumeratedCosize)
    return true; // Conservative for huge interleaved layouts.
  std::vector<bool> seen(static_cast<size_t>(co), false);
  Layout plain(shards);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = plain.offsetOf(i);
    if (seen[off])
      return true;
    seen[off] = true;
  }
  return false;
}

std::optional<std::string> Layout::verifySwizzle(int64_t elementBytes) const {
  if (swz == Swizzle::None)
    return std::nullopt;
  if (elementBytes <= 0 || 16 % elementBytes != 0)
    return std::string("swizzle ") + toString(swz) +
           " needs an element size that divides 16 bytes, got " +
           std::to_string(elementBytes) + " bytes";
  return std::nullopt;
}

int64_t Layout::offsetOf(int64_t flatIndex) const {
  int64_t result = offset;
  for (size_t i = shardList.size(); i-- > 0;) {
    const Shard &s = shardList[i];
    if (i == 0) {
      result += flatIndex * s.stride; // Outermost shard takes the quotient.
      break;
    }
    result += (flatIndex % s.extent) * s.stride;
    flatIndex /= s.extent;
  }
  return result;
}

int64_t Layout::byteAddressOf(int64_t flatIndex, int64_t elementBytes,
                              int64_t baseByteAddress) const {
  return applySwizzle(swz,
                      baseByteAddress + offsetOf(flatIndex) * elementBytes);
}

Layout Layout::canonicalize() const {
  std::vector<Shard> used;
  for (const Shard &s : shardList)
    if (s.extent != 1)
      used.push_back(s);
  // Fuse when the outer neighbour continues exactly where the inner one ends.
  std::vector<Shard> out = coalesceRuns(
      used, [](const Shard &outer, const Shard &inner) -> std::optional<Shard> {
        if (outer.stride != inner.extent * inner.stride)
          return std::nullopt;
        return Shard{outer.extent * inner.extent, inner.stride};
      });
  return Layout(std::move(out), swz, offset);
}

std::string formatTuple(const std::vector<int64_t> &values) {
  std::string s = "(";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + ")";
}

std::string formatList(const std::vector<int64_t> &values) {
  std::string s = formatTuple(values);
  s.front() = '[';
  s.back() = ']';
  return s;
}

} // namespace tile
