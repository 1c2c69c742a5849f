//===- LayoutPropertyTest.cpp - Layouts against brute-force enumeration ---===//
//
// Thousands of random layouts (fixed seed): addresses, canonical form,
// grouping and overlap are compared with independent brute-force versions.
//
//===----------------------------------------------------------------------===//

#include "tile/Layout/Layout.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace tile;

namespace {

struct Gen {
  std::mt19937_64 rng{20240611};
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  Layout layout(bool allowSwizzle) {
    std::vector<Shard> shards;
    int n = static_cast<int>(pick(0, 5));
    for (int i = 0; i < n; ++i) {
      int64_t e = pick(0, 3) == 0 ? 1 : pick(1, 6);
      int64_t s = e == 1 && pick(0, 1) ? 0 : pick(1, 40);
      shards.push_back({e, s});
    }
    Swizzle swz =
        allowSwizzle ? static_cast<Swizzle>(pick(0, 3)) : Swizzle::None;
    return Layout(shards, swz, pick(0, 3) == 0 ? pick(0, 100) : 0);
  }
};

// Offsets by odometer over the shard digits (innermost fastest).
std::vector<int64_t> bruteOffsets(const Layout &l) {
  std::vector<int64_t> out;
  std::vector<int64_t> digit(l.rank(), 0);
  for (int64_t i = 0; i < l.size(); ++i) {
    int64_t off = l.elementOffset();
    for (size_t k = 0; k < l.rank(); ++k)
      off += digit[k] * l.shards()[k].stride;
    out.push_back(off);
    for (size_t k = l.rank(); k-- > 0;) {
      if (++digit[k] < l.shards()[k].extent)
        break;
      digit[k] = 0;
    }
  }
  return out;
}

int64_t bruteSwizzle(Swizzle s, int64_t addr) {
  for (int b = 0; b < swizzleBits(s); ++b)
    if ((addr >> (7 + b)) & 1)
      addr ^= int64_t(1) << (4 + b);
  return addr;
}

TEST(LayoutProperty, AddressesMatchEnumeration) {
  Gen gen;
  for (int iter = 0; iter < 4000; ++iter) {
    Layout l = gen.layout(true);
    ASSERT_FALSE(l.verify()) << l.str();
    std::vector<int64_t> offs = bruteOffsets(l);
    int64_t eb = int64_t(1) << gen.pick(0, 3);
    int64_t base = gen.pick(0, 8) * 128;
    int64_t maxOff = 0;
    for (int64_t i = 0; i < l.size(); ++i) {
      ASSERT_EQ(l.offsetOf(i), offs[i]) << l.str() << " index " << i;
      ASSERT_EQ(l.byteAddressOf(i, eb, base),
                bruteSwizzle(l.swizzle(), base + offs[i] * eb));
      maxOff = std::max(maxOff, offs[i] - l.elementOffset());
    }
    ASSERT_EQ(l.cosize(), maxOff + 1) << l.str();
    // Text round trip.
    std::optional<Layout> back = Layout::parse(l.str());
    ASSERT_TRUE(back) << l.str();
    ASSERT_EQ(*back, l);
  }
}

TEST(LayoutProperty, CanonicalizeKeepsAddresses) {
  Gen gen;
  for (int iter = 0; iter < 4000; ++iter) {
    Layout l = gen.layout(true);
    Layout c = l.canonicalize();
    ASSERT_EQ(c.size(), l.size());
    for (int64_t i = 0; i < l.size(); ++i)
      ASSERT_EQ(c.offsetOf(i), l.offsetOf(i)) << l.str() << " -> " << c.str();
    for (size_t k = 0; k < c.rank(); ++k) {
      ASSERT_NE(c.shards()[k].extent, 1);
      if (k > 0)
        ASSERT_NE(c.shards()[k - 1].stride,
                  c.shards()[k].extent * c.shards()[k].stride);
    }
    ASSERT_EQ(c.canonicalize(), c);
  }
}

TEST(LayoutProperty, OverlapMatchesEnumeration) {
  Gen gen;
  int overlapping = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    Layout l = gen.layout(false);
    std::vector<int64_t> offs = bruteOffsets(l);
    bool dup =
        std::set<int64_t>(offs.begin(), offs.end()).size() != offs.size();
    overlapping += dup;
    ASSERT_EQ(l.hasOverlap(), dup) << l.str();
  }
  EXPECT_GT(overlapping, 100);
  EXPECT_LT(overlapping, 3900);
}

TEST(LayoutProperty, GroupingKeepsAddresses) {
  Gen gen;
  int grouped = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    Layout l = gen.layout(true);
    // A shape from consecutive runs of shards (and stray unit dims).
    std::vector<int64_t> shape;
    int64_t dim = 1;
    for (const Shard &s : l.shards()) {
      dim *= s.extent;
      if (gen.pick(0, 1)) {
        shape.push_back(dim);
        dim = 1;
      }
      if (gen.pick(0, 5) == 0)
        shape.push_back(1);
    }
    if (dim != 1 || shape.empty())
      shape.push_back(dim);
    std::string error;
    std::optional<GroupedLayout> g = groupOnto(l, shape, &error);
    ASSERT_TRUE(g) << l.str() << ": " << error;
    ++grouped;
    std::vector<int64_t> index(shape.size(), 0);
    for (int64_t i = 0; i < l.size(); ++i) {
      ASSERT_EQ(g->offsetOf(index), l.offsetOf(i));
      ASSERT_EQ(g->byteAddressOf(index, 2, 1024), l.byteAddressOf(i, 2, 1024));
      for (size_t d = shape.size(); d-- > 0;) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    ASSERT_EQ(g->flatten(), l);
    // A shape with a wrong product never groups.
    std::vector<int64_t> bad = shape;
    bad.back() += 1;
    ASSERT_FALSE(groupOnto(l, bad));
  }
  EXPECT_EQ(grouped, 4000);
}

} // namespace
