//===- WgmmaDescriptorTest.cpp - Worked wgmma descriptors and declines ----===//

#include "tile/MMA/WgmmaDescriptor.h"

#include <gtest/gtest.h>

using namespace tile;
using namespace tile::mma;

namespace {

Layout parse(const char *text) {
  std::optional<Layout> layout = Layout::parse(text);
  EXPECT_TRUE(layout.has_value()) << text;
  return layout.value_or(Layout());
}

/// The rule id of a decline, or "accepted" for a plan.
std::string ruleOf(const WgmmaDescriptorPlan &plan) {
  if (!plan.decline)
    return "accepted";
  return std::string(ruleIdName(plan.decline->rule));
}

// The GEMM's A tile: 128x64 bf16, 128B swizzle, rows of 128 B.
TEST(WgmmaDescriptor, Bf16Swizzle128) {
  Layout l = parse("(128, 64) : (64, 1), swizzle = 128B");
  WgmmaDescriptorPlan p =
      planWgmmaDescriptor(l, {128, 64}, 2, 0, 0, 64, 16, 1024);
  ASSERT_TRUE(p.accepted()) << messageOf(p.decline);
  EXPECT_EQ(p.fields->startByte, 0);
  EXPECT_EQ(p.fields->leadingByteOffset, 16);
  EXPECT_EQ(p.fields->strideByteOffset, 1024);
  EXPECT_EQ(p.fields->baseOffset, 0);
  EXPECT_EQ(p.fields->swizzleMode, WgmmaSwizzleMode::B128);
  EXPECT_EQ(encodeWgmmaDescriptor(*p.fields, 0), 0x4000004000010000ull);

  // Each k-step inside the 128-byte row advances the start by 32 B.
  for (int64_t step = 0; step < 4; ++step) {
    WgmmaDescriptorPlan s =
        planWgmmaDescriptor(l, {128, 64}, 2, 64, 16 * step, 64, 16, 1024);
    ASSERT_TRUE(s.accepted()) << messageOf(s.decline);
    EXPECT_EQ(s.fields->startByte, 64 * 128 + 32 * step);
    EXPECT_EQ(s.fields->strideByteOffset, 1024);
  }
  // Row 8, column 16: 1024 + 32 = 1056 B, start field 66.
  WgmmaDescriptorPlan q =
      planWgmmaDescriptor(l, {128, 64}, 2, 8, 16, 64, 16, 1024);
  ASSERT_TRUE(q.accepted()) << messageOf(q.decline);
  EXPECT_EQ(q.fields->startByte, 1056);
  EXPECT_EQ(encodeWgmmaDescriptor(*q.fields, 0), 0x4000004000010042ull);
  // At shared address 0x2000 (8 KiB): start field 0x200 + 66.
  EXPECT_EQ(encodeWgmmaDescriptor(*q.fields, 0x2000), 0x4000004000010242ull);
}

TEST(WgmmaDescriptor, EncodeDecodeRoundTrip) {
  WgmmaDescriptorFields f;
  f.startByte = 0x3FFF0;
  f.leadingByteOffset = 16;
  f.strideByteOffset = 512;
  f.swizzleMode = WgmmaSwizzleMode::B64;
  WgmmaDescriptorFields d = decodeWgmmaDescriptor(encodeWgmmaDescriptor(f, 0));
  EXPECT_EQ(d, f);
  EXPECT_EQ(encodeWgmmaDescriptor(f, 0) >> 62, 2u);
}

// 64B swizzle on bf16: 32-element K panels of 8 KiB (128 rows x 64 B).
TEST(WgmmaDescriptor, Bf16Swizzle64Panels) {
  Layout l = parse("(128, 2, 32) : (32, 4096, 1), swizzle = 64B");
  WgmmaDescriptorPlan p =
      planWgmmaDescriptor(l, {128, 64}, 2, 0, 48, 128, 16, 512);
  ASSERT_TRUE(p.accepted()) << messageOf(p.decline);
  EXPECT_EQ(p.fields->startByte, 8192 + 32);
  EXPECT_EQ(p.fields->strideByteOffset, 512);
  EXPECT_EQ(p.fields->swizzleMode, WgmmaSwizzleMode::B64);
}

// 32B swizzle on tf32 (k8) and on 8-bit elements (k32).
TEST(WgmmaDescriptor, Swizzle32Tf32AndFp8) {
  Layout tf32 = parse("(64, 8) : (8, 1), swizzle = 32B");
  WgmmaDescriptorPlan p =
      planWgmmaDescriptor(tf32, {64, 8}, 4, 0, 0, 64, 8, 256);
  ASSERT_TRUE(p.accepted()) << messageOf(p.decline);
  EXPECT_EQ(p.fields->strideByteOffset, 256);
  EXPECT_EQ(p.fields->swizzleMode, WgmmaSwizzleMode::B32);
  Layout fp8 = parse("(16, 128) : (128, 1), swizzle = 128B");
  WgmmaDescriptorPlan q =
      planWgmmaDescriptor(fp8, {16, 128}, 1, 8, 96, 8, 32, 1024);
  ASSERT_TRUE(q.accepted()) << messageOf(q.decline);
  EXPECT_EQ(q.fields->startByte, 1024 + 96);
}

// The model: element (m, kk) of the 128B operand at 0 lands where the
// layout (and TMA) puts it.
TEST(WgmmaDescriptor, ModelSwizzle128) {
  WgmmaDescriptorFields f;
  f.startByte = 32;
  f.strideByteOffset = 1024;
  f.leadingByteOffset = 16;
  f.swizzleMode = WgmmaSwizzleMode::B128;
  std::optional<WgmmaOperandAddress> a = wgmmaOperandByteAddress(f, 1, 0, 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->linear, 128 + 32);
  EXPECT_EQ(a->swizzled, 128 + (32 ^ 16));
  a = wgmmaOperandByteAddress(f, 9, 15, 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->linear, 1024 + 128 + 32 + 30);
  f.baseOffset = 1;
  EXPECT_FALSE(wgmmaOperandByteAddress(f, 0, 0, 2));
}

TEST(WgmmaDescriptor, ModelInterleave) {
  WgmmaDescriptorFields f;
  f.startByte = 256;
  f.leadingByteOffset = 128;
  f.strideByteOffset = 256;
  std::optional<WgmmaOperandAddress> a = wgmmaOperandByteAddress(f, 9, 12, 2);
  ASSERT_TRUE(a);
  // Row 1 of the second core-matrix row, K byte 24 = second core matrix.
  EXPECT_EQ(a->linear, 256 + 16 + 256 + 128 + 8);
  EXPECT_EQ(a->swizzled, a->linear);
}

// One decline per rule.
TEST(WgmmaDescriptor, Declines) {
  Layout l = parse("(128, 64) : (64, 1), swizzle = 128B");
  auto plan = [&](const Layout &layout, int64_t row, int64_t col,
                  int64_t rows = 64, int64_t k = 16, int64_t eb = 2,
                  int64_t align = 1024) {
    return planWgmmaDescriptor(layout, {128, 64}, eb, row, col, rows, k, align);
  };
  EXPECT_EQ(ruleOf(plan(l, 0, 0, 64, 8)), "wgmma-shape");
  EXPECT_EQ(ruleOf(plan(l, 0, 0, 60)), "wgmma-shape");
  EXPECT_EQ(ruleOf(plan(l, 0, 0, 64, 4, 8)), "wgmma-shape");
  EXPECT_EQ(ruleOf(plan(l, 72, 0)), "smem-bounds");
  EXPECT_EQ(ruleOf(plan(l, 0, 56)), "smem-bounds");
  EXPECT_EQ(ruleOf(plan(l, 0, 0, 64, 16, 2, 512)), "wgmma-align");
  EXPECT_EQ(ruleOf(plan(l, 1, 0)), "wgmma-align");
  EXPECT_EQ(ruleOf(plan(l, 0, 8)), "wgmma-align");
  EXPECT_EQ(ruleOf(plan(parse("(128, 64) : (64, 1)"), 0, 0)), "wgmma-layout");
  // Transposed: K has stride 128.
  EXPECT_EQ(ruleOf(plan(parse("(128, 64) : (1, 128), swizzle = 128B"), 0, 0)),
            "wgmma-layout");
  // Rows of 128 B under a 64B swizzle.
  EXPECT_EQ(ruleOf(plan(parse("(128, 64) : (64, 1), swizzle = 64B"), 0, 0)),
            "wgmma-layout");
  EXPECT_EQ(ruleOf(plan(parse("(4, 64)"), 0, 0)), "layout");
  std::string decline = messageOf(plan(l, 8, 8).decline);
  EXPECT_EQ(decline, "wgmma-align: start byte offset 1040 is not a multiple "
                     "of the 32 B k-step");
}

TEST(WgmmaDescriptor, DynamicStarts) {
  Layout l = parse("(128, 64) : (64, 1), swizzle = 128B");
  auto plan = [&](WgmmaStartIndex row, WgmmaStartIndex col) {
    return planWgmmaDescriptorStarts(l, {128, 64}, 2, row, col, 64, 16, 1024);
  };
  WgmmaDescriptorPlan p =
      plan(WgmmaStartIndex::multipleOf(64), WgmmaStartIndex::multipleOf(16));
  ASSERT_TRUE(p.accepted()) << messageOf(p.decline);
  EXPECT_EQ(p.fields->strideByteOffset, 1024);
  EXPECT_EQ(
      ruleOf(plan(WgmmaStartIndex::multipleOf(4), WgmmaStartIndex::known(0))),
      "wgmma-align");
  EXPECT_EQ(
      ruleOf(plan(WgmmaStartIndex::known(0), WgmmaStartIndex::multipleOf(8))),
      "wgmma-align");
  // Atoms 2048 B apart inside each 64-row half, 18432 B across the halves:
  // no single SBO serves every start.
  Layout uneven = parse("(2, 8, 8, 64) : (16384, 1024, 64, 1), swizzle = 128B");
  WgmmaDescriptorPlan u = planWgmmaDescriptorStarts(
      uneven, {128, 64}, 2, WgmmaStartIndex::multipleOf(8),
      WgmmaStartIndex::known(0), 16, 16, 1024);
  EXPECT_EQ(ruleOf(u), "wgmma-layout") << messageOf(u.decline);
}

// Attention's V stage: 128 kv rows x 128 head columns of bf16 in two
// 64-column panels of 128B-swizzled rows; P V reads it MN-major (K = kv
// rows, N = head columns contiguous).
TEST(WgmmaDescriptor, MnMajorValueTile) {
  Layout l = parse("(128, 2, 64) : (64, 8192, 1), swizzle = 128B");
  for (int64_t step = 0; step < 8; ++step) {
    WgmmaDescriptorPlan p = planWgmmaDescriptor(l, {128, 128}, 2, 16 * step, 0,
                                                128, 16, 1024, WgmmaMajor::MN);
    ASSERT_TRUE(p.accepted()) << messageOf(p.decline);
    // 16 kv rows of 128 B per k-step; the second panel 16 KiB on; 8-row
    // groups 1 KiB apart.
    EXPECT_EQ(p.fields->startByte, 2048 * step);
    EXPECT_EQ(p.fields->leadingByteOffset, 16384);
    EXPECT_EQ(p.fields->strideByteOffset, 1024);
    EXPECT_EQ(p.fields->swizzleMode, WgmmaSwizzleMode::B128);
  }
  WgmmaDescriptorPlan p = planWgmmaDescriptor(l, {128, 128}, 2, 0, 0, 128, 16,
                                              1024, WgmmaMajor::MN);
  ASSERT_TRUE(p.accepted());
  EXPECT_EQ(encodeWgmmaDescriptor(*p.fields, 0), 0x4000004004000000ull);
  // The model: element (n, kk) = V[kk, n]; (65, 9) is panel 1, row 9 (the
  // second 8-row group, row 1 in it), byte 2 of the row, swizzled by row 1:
  // 16384 + 1024 + 128 + 2 = 17538, chunk 0 ^ 1 -> 17554.
  std::optional<WgmmaOperandAddress> a =
      wgmmaOperandByteAddress(*p.fields, 65, 9, 2, WgmmaMajor::MN);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->linear, 17538);
  EXPECT_EQ(a->swizzled, 17554);

  auto rule = [&](int64_t row, int64_t col, int64_t rows, int64_t eb = 2) {
    return ruleOf(planWgmmaDescriptor(l, {128, 128}, eb, row, col, rows,
                                      32 / eb, 1024, WgmmaMajor::MN));
  };
  EXPECT_EQ(rule(0, 8, 64), "wgmma-align");   // inside a span
  EXPECT_EQ(rule(4, 0, 64), "wgmma-align");   // inside an 8-row group
  EXPECT_EQ(rule(120, 0, 64), "smem-bounds"); // 16 K-rows from 120
  EXPECT_EQ(rule(0, 64, 128), "smem-bounds");
  EXPECT_EQ(rule(0, 0, 64, 1), "wgmma-shape"); // 8-bit: K-major only
  // K contiguous is not MN-major.
  std::string decline = messageOf(
      planWgmmaDescriptor(parse("(128, 64) : (1, 128), swizzle = 128B"),
                          {128, 64}, 2, 0, 0, 64, 16, 1024, WgmmaMajor::MN)
          .decline);
  EXPECT_EQ(decline.substr(0, 13), "wgmma-layout:") << decline;
}

} // namespace
