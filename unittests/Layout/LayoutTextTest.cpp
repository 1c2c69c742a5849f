//===- LayoutTextTest.cpp - Printing and parsing layouts ------------------===//

#include "tile/Layout/Layout.h"

#include <gtest/gtest.h>

using namespace tile;

namespace {

Layout parseOk(std::string_view text) {
  std::string error;
  std::optional<Layout> l = Layout::parse(text, &error);
  EXPECT_TRUE(l.has_value()) << text << ": " << error;
  return l.value_or(Layout());
}

std::string parseError(std::string_view text) {
  std::string error;
  EXPECT_FALSE(Layout::parse(text, &error).has_value()) << text;
  return error;
}

TEST(LayoutText, RoundTrip) {
  for (const char *text :
       {"(8, 256)", "(8, 4, 64) : (64, 512, 1), swizzle = 128B", "()",
        "(4) : (2)", "(2, 3), swizzle = 32B", "(5, 7) : (1, 5), swizzle = 64B",
        "(16, 16), offset = 24", "(3, 1, 4) : (9, 0, 1)"}) {
    Layout l = parseOk(text);
    EXPECT_EQ(l.str(), text);
    EXPECT_EQ(parseOk(l.str()), l);
  }
}

TEST(LayoutText, ShortFormForRowMajor) {
  EXPECT_EQ(parseOk("(8, 256) : (256, 1)").str(), "(8, 256)");
  EXPECT_EQ(Layout::rowMajor({2, 3, 4}).str(), "(2, 3, 4)");
  Layout demo = parseOk("( 8,4 ,64 ):(64,512,1) , swizzle=128B");
  ASSERT_EQ(demo.rank(), 3u);
  EXPECT_EQ(demo.shards()[1], (Shard{4, 512}));
  EXPECT_EQ(demo.swizzle(), Swizzle::B128);
  EXPECT_EQ(parseOk("(8, 2), offset = 3, swizzle = 32B").elementOffset(), 3);
}

// Strides whose row-major products overflow int64: the printer must not
// overflow deciding whether the short form applies, and what it prints must
// parse back to the same layout.
TEST(LayoutText, HugeExtentsRoundTrip) {
  Layout outer = parseOk("(4611686018427387904, 4) : (4, 1)");
  EXPECT_EQ(outer.str(), "(4611686018427387904, 4)");
  EXPECT_EQ(parseOk(outer.str()), outer);

  Layout middle = parseOk("(2, 4611686018427387904, 4) : (0, 4, 1)");
  EXPECT_EQ(middle.str(), "(2, 4611686018427387904, 4) : (0, 4, 1)");
  EXPECT_EQ(parseOk(middle.str()), middle);

  Layout negative(
      {{-(int64_t(1) << 62), -(int64_t(1) << 62)}, {-(int64_t(1) << 62), 1}});
  EXPECT_EQ(negative.str(), "(-4611686018427387904, -4611686018427387904)");
  EXPECT_EQ(parseOk(negative.str()), negative);

  EXPECT_EQ(parseError("(2, 4611686018427387904, 4)"),
            "row-major strides overflow at column 28");
}

TEST(LayoutText, Errors) {
  EXPECT_EQ(parseError("8, 256"), "expected '(' at column 1");
  EXPECT_EQ(parseError("(8, x)"), "expected an integer at column 5");
  EXPECT_EQ(parseError("(8, 4) : (1)"),
            "stride count 1 does not match extent count 2 at column 13");
  EXPECT_EQ(parseError("(8), swizzle = 16B"),
            "unknown swizzle '16B' (expected 32B, 64B or 128B) at column 19");
  EXPECT_EQ(parseError("(8), swizzle = none"),
            "unknown swizzle 'none' (expected 32B, 64B or 128B) at column 20");
  EXPECT_EQ(parseError("(8) junk"),
            "unexpected trailing text 'junk' at column 5");
  EXPECT_EQ(
      parseError("(8), color = 3"),
      "unexpected 'color' (expected swizzle or offset, each at most once) "
      "at column 13");
  EXPECT_EQ(parseError("(8), swizzle 32B"),
            "expected '=' after 'swizzle' at column 14");
  EXPECT_EQ(parseError("(8 4)"), "expected ',' or ')' at column 4");
  EXPECT_EQ(parseError("(99999999999999999999)"),
            "integer out of range at column 20");
}

TEST(Swizzle, Helpers) {
  EXPECT_EQ(swizzleSpanBytes(Swizzle::None), 0);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B32), 32);
  EXPECT_EQ(swizzleSpanBytes(Swizzle::B128), 128);
  EXPECT_EQ(swizzleRepeatBytes(Swizzle::B64), 512);
  EXPECT_EQ(swizzleRepeatBytes(Swizzle::None), 1);
  EXPECT_EQ(parseSwizzle("64B"), Swizzle::B64);
  EXPECT_FALSE(parseSwizzle("64").has_value());
  EXPECT_STREQ(toString(Swizzle::B32), "32B");
  // 128B: bits [4,7) ^= bits [7,10).
  EXPECT_EQ(applySwizzle(Swizzle::B128, 0x80), 0x90);
  EXPECT_EQ(applySwizzle(Swizzle::B128, 0x380 + 5), 0x3F5);
  EXPECT_EQ(applySwizzle(Swizzle::B32, 0x380), 0x390);
  EXPECT_EQ(applySwizzle(Swizzle::None, 0x380), 0x380);
  // Absolute: a buffer at 1024 + 128 sees row 1's pattern.
  EXPECT_EQ(applySwizzle(Swizzle::B128, 1024 + 128), 1024 + 128 + 16);
}

} // namespace
