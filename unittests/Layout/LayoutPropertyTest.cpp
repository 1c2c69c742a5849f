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

namespace {

// The widest vector by its definition: v elements along the last dimension,
// from a last index divisible by v, at consecutive offsets from a multiple
// of v, for every such start.
int64_t bruteVectorWidth(const GroupedLayout &g, int64_t maxElements) {
  int64_t total = 1;
  for (int64_t e : g.shape)
    total *= e;
  int64_t best = 1;
  for (int64_t v = 2; v <= maxElements; v *= 2) {
    if (g.shape.empty() || g.shape.back() % v != 0)
      break;
    bool ok = true;
    std::vector<int64_t> index(g.shape.size(), 0);
    for (int64_t flat = 0; flat < total && ok; ++flat) {
      int64_t rest = flat;
      for (size_t d = g.shape.size(); d-- > 0;) {
        index[d] = rest % g.shape[d];
        rest /= g.shape[d];
      }
      if (index.back() % v != 0)
        continue;
      int64_t start = g.offsetOf(index);
      ok = start % v == 0;
      for (int64_t j = 1; j < v && ok; ++j) {
        std::vector<int64_t> next = index;
        next.back() += j;
        ok = g.offsetOf(next) == start + j;
      }
    }
    if (!ok)
      break;
    best = v;
  }
  return best;
}

TEST(LayoutProperty, VectorWidthMatchesItsDefinition) {
  Gen gen;
  int checked = 0, wide = 0;
  for (int i = 0; i < 4000; ++i) {
    // Shards whose strides are often powers of two and often continue one
    // another, grouped onto a random factorisation.
    std::vector<Shard> shards;
    std::vector<int64_t> shape;
    int dims = static_cast<int>(gen.pick(1, 3));
    int64_t running = 1;
    for (int d = 0; d < dims; ++d) {
      int per = static_cast<int>(gen.pick(1, 2));
      int64_t dim = 1;
      for (int k = 0; k < per; ++k) {
        int64_t e = int64_t(1) << gen.pick(0, 3);
        if (gen.pick(0, 4) == 0)
          e = gen.pick(1, 6);
        shards.push_back({e, 0});
        dim *= e;
      }
      shape.push_back(dim);
    }
    // Strides: innermost first, continuing, doubled, or random.
    for (size_t k = shards.size(); k-- > 0;) {
      int64_t mode = gen.pick(0, 3);
      int64_t s = mode == 0   ? running
                  : mode == 1 ? running * 2
                  : mode == 2 ? int64_t(1) << gen.pick(0, 6)
                              : gen.pick(1, 40);
      shards[k].stride = shards[k].extent == 1 ? 0 : s;
      running = std::max(running, s * shards[k].extent);
    }
    Layout l(shards, Swizzle::None, gen.pick(0, 2) == 0 ? gen.pick(0, 8) : 0);
    if (l.verify())
      continue;
    std::optional<GroupedLayout> g = groupOnto(l, shape);
    if (!g)
      continue;
    for (int64_t maxElements : {1, 2, 8, 16}) {
      int64_t want = bruteVectorWidth(*g, maxElements);
      ASSERT_EQ(vectorWidth(*g, maxElements), want)
          << l.str() << " max " << maxElements;
      wide += want > 1;
      ++checked;
    }
  }
  EXPECT_GT(checked, 8000);
  EXPECT_GT(wide, 1000);
}

TEST(LayoutProperty, MaxCommonVectorOfTwoLayouts) {
  // A row-major 8 x 64 tile and the same tile in 16-element chunks 32
  // elements apart: 16 elements in both, 8 when capped at 8.
  GroupedLayout a = *groupOnto(Layout::rowMajor({8, 64}), {8, 64});
  GroupedLayout b =
      *groupOnto(*Layout::parse("(8, 4, 16) : (128, 32, 1)"), {8, 64});
  EXPECT_EQ(vectorWidth(a, 64), 64);
  EXPECT_EQ(vectorWidth(b, 64), 16);
  EXPECT_EQ(maxCommonVector(a, b, 64), 16);
  EXPECT_EQ(maxCommonVector(a, b, 8), 8);
  // Fused within the last dimension: 2:4 continues 4:1, a run of 8.
  GroupedLayout c = *groupOnto(*Layout::parse("(4, 2, 4) : (8, 4, 1)"), {4, 8});
  EXPECT_EQ(vectorWidth(c, 16), 8);
  // An offset of 2 elements halves it to 2.
  GroupedLayout d = *groupOnto(Layout::strided({4, 8}, {8, 1}, 2), {4, 8});
  EXPECT_EQ(vectorWidth(d, 16), 2);
}

} // namespace
