//===- LayoutVerifyTest.cpp - Every verifier and grouping error -----------===//

#include "tile/Layout/Layout.h"

#include <gtest/gtest.h>

using namespace tile;

namespace {

TEST(LayoutVerify, Errors) {
  EXPECT_EQ(Layout({{8, 1}, {4, 8}, {0, 1}}).verify(), "shard 2 has extent 0");
  EXPECT_EQ(Layout({{2, 4}, {-3, 1}}).verify(), "shard 1 has extent -3");
  EXPECT_EQ(Layout({{8, 1}, {4, 0}}).verify(),
            "shard 1 has stride 0 but extent 4");
  EXPECT_EQ(Layout({{8, -1}}).verify(), "shard 0 has negative stride -1");
  EXPECT_EQ(Layout({{1 << 30, 1}, {1 << 30, 1 << 30}}).verify(),
            "shard 1 (1073741824:1073741824) makes the layout exceed 2^52");
  EXPECT_EQ(Layout({{4, 1}}, Swizzle::None, -2).verify(),
            "element offset -2 is negative");
  EXPECT_EQ(Layout({{4, 1}}, Swizzle::None, int64_t(1) << 60).verify(),
            "element offset 1152921504606846976 exceeds 2^52");
  EXPECT_FALSE(Layout({{8, 1}, {1, 0}}).verify().has_value());
  EXPECT_FALSE(Layout().verify().has_value());
}

TEST(LayoutVerify, Swizzle) {
  Layout l({{8, 64}}, Swizzle::B64);
  EXPECT_FALSE(l.verifySwizzle(2).has_value());
  EXPECT_FALSE(l.verifySwizzle(16).has_value());
  EXPECT_EQ(l.verifySwizzle(3),
            "swizzle 64B needs an element size that divides 16 bytes, got 3 "
            "bytes");
  EXPECT_EQ(l.verifySwizzle(32),
            "swizzle 64B needs an element size that divides 16 bytes, got 32 "
            "bytes");
  EXPECT_FALSE(Layout({{8, 1}}).verifySwizzle(3).has_value());
}

TEST(LayoutVerify, Overlap) {
  EXPECT_FALSE(Layout({{8, 4}, {4, 1}}).hasOverlap());
  EXPECT_TRUE(Layout({{8, 2}, {4, 1}}).hasOverlap());
  EXPECT_FALSE(Layout({{2, 4}, {3, 3}}).hasOverlap()); // {0,3,6,4,7,10}
  EXPECT_TRUE(Layout({{3, 3}, {4, 2}}).hasOverlap());  // 6 = 2*3 = 3*2
  EXPECT_FALSE(Layout({{8, 64}, {4, 512}, {64, 1}}).hasOverlap());
  EXPECT_FALSE(Layout({{1, 0}, {5, 1}}).hasOverlap());
  EXPECT_FALSE(Layout().hasOverlap());
}

TEST(LayoutGroup, Errors) {
  std::string error;
  EXPECT_FALSE(
      groupOnto(Layout({{8, 64}, {4, 512}, {64, 1}}), {8, 100}, &error));
  EXPECT_EQ(error, "cannot group shard extents (8, 4, 64) onto shape (8, 100)");
  EXPECT_FALSE(groupOnto(Layout({{4, 1}, {6, 4}}), {8, 3}, &error));
  EXPECT_EQ(error, "cannot group shard extents (4, 6) onto shape (8, 3)");
  EXPECT_FALSE(groupOnto(Layout({{4, 1}}), {4, 2}, &error));
  EXPECT_FALSE(groupOnto(Layout({{4, 1}, {2, 4}}), {4}, &error));
  EXPECT_FALSE(groupOnto(Layout({{4, 1}}), {4, 0}, &error));
  EXPECT_EQ(error, "cannot group shard extents (4) onto shape (4, 0)");
}

TEST(LayoutGroup, UnitShardsAndDims) {
  Layout l({{1, 0}, {8, 64}, {1, 7}, {4, 512}, {64, 1}, {1, 3}});
  std::optional<GroupedLayout> g = groupOnto(l, {1, 8, 1, 256});
  ASSERT_TRUE(g);
  ASSERT_EQ(g->groups.size(), 4u);
  EXPECT_EQ(g->groups[0].size(), 0u);
  EXPECT_EQ(g->groups[1], (std::vector<Shard>{{1, 0}, {8, 64}}));
  EXPECT_EQ(g->groups[2].size(), 0u);
  EXPECT_EQ(g->groups[3],
            (std::vector<Shard>{{1, 7}, {4, 512}, {64, 1}, {1, 3}}));
  EXPECT_EQ(g->offsetOf({0, 3, 0, 130}), 3 * 64 + 2 * 512 + 2);
  EXPECT_EQ(g->flatten().canonicalize(), l.canonicalize());
  std::optional<GroupedLayout> scalar = groupOnto(Layout({{1, 1}}), {});
  ASSERT_TRUE(scalar);
  EXPECT_EQ(scalar->groups.size(), 0u);
}

TEST(LayoutCanonicalize, Basic) {
  EXPECT_EQ(Layout({{8, 256}, {1, 9}, {256, 1}}).canonicalize().str(),
            "(2048)");
  EXPECT_EQ(
      Layout({{8, 64}, {4, 512}, {64, 1}}, Swizzle::B128).canonicalize().str(),
      "(8, 4, 64) : (64, 512, 1), swizzle = 128B");
  EXPECT_EQ(Layout({{1, 0}}, Swizzle::None, 5).canonicalize().str(),
            "(), offset = 5");
}

} // namespace
