//===- PlannerWorkedTest.cpp - Exact plans for worked cases ---------------===//

#include "TestUtil.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

TEST(PlannerWorked, ReferenceDemo) {
  CopyRequest r =
      load(f16(), Layout::rowMajor({8, 256}), {8, 256},
           parse("(8, 4, 64) : (64, 512, 1), swizzle = 128B"), {8, 256});
  TmaPlan p = planOk(r);
  EXPECT_EQ(describe(p),
            "f16 rank 3 dim [64, 8, 4] strides [512, 128] box [64, 8, 4] "
            "estr [1, 1, 1] swz 3 oob 0 base 0 | smem 0 @ [0, 0, 0] | "
            "bytes 4096");
  EXPECT_EQ(p.map.interleave, 0);
  EXPECT_EQ(p.map.l2Promotion, 2);
  EXPECT_FALSE(p.map.promoted);
}

} // namespace
