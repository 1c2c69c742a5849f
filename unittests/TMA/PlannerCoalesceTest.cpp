//===- PlannerCoalesceTest.cpp - Runs contiguous across memref axes -------===//
//
// Copies that are one contiguous run once two memref dimensions are merged,
// although the dimensions are not neighbours in the memref (or are in the
// other order): the planner merges them as CuTe's coalescing does and issues
// one instruction, where it used to decline or cut the run into boxes below
// the 16-byte granule. Each plan passes the hardware model.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

// An 8x8 int8 tile stored column-major, from a column-major 8x8 tensor: 64
// contiguous bytes. Before merging, the inner box was one 8-byte column.
TEST(PlannerCoalesce, ColumnMajorInt8Tile) {
  CopyRequest r = load(i8(), parse("(8, 8) : (1, 8)"), {8, 8},
                       parse("(8, 8) : (1, 8)"), {8, 8});
  EXPECT_EQ(
      describe(planOk(r)),
      "u8 rank 1 dim [64] strides [] box [64] estr [1] swz 0 oob 0 base 0 | "
      "smem 0 @ [0] | bytes 64");
}

// The same tile, one of four 8x8 tiles of a 16x16 tensor stored tile by tile
// (each tile column-major): the region [8, 16) x [0, 8) is one 64-byte run,
// the second of the map's two 64-byte tiles per 128 bytes.
TEST(PlannerCoalesce, ColumnMajorTileOfTiledTensor) {
  CopyRequest r = load(i8(), parse("(2, 8, 2, 8) : (128, 1, 64, 8)"), {16, 16},
                       parse("(8, 8) : (1, 8)"), {8, 8});
  r.globalOffsets = {SymExpr(8), SymExpr(0)};
  r.globalSizes = {8, 8};
  EXPECT_EQ(
      describe(planOk(r)),
      "u8 rank 2 dim [128, 2] strides [128] box [64, 1] estr [1, 1] swz 0 "
      "oob 0 base 0 | smem 0 @ [0, 1] | bytes 64");
}

// Dimensions (k0, k1, m) with strides (1, 512, 4): k0 and m together are
// contiguous although k1 lies between them; with k1 the whole copy is one
// 2048-byte run (widened to u64).
TEST(PlannerCoalesce, NonAdjacentContiguousDims) {
  CopyRequest r = load(f16(), parse("(4, 2, 128) : (1, 512, 4)"), {4, 2, 128},
                       parse("(4, 2, 128) : (1, 512, 4)"), {4, 2, 128});
  EXPECT_EQ(
      describe(planOk(r)),
      "u64 rank 1 dim [256] strides [] box [256] estr [1] swz 0 oob 0 base 0 "
      "| smem 0 @ [0] | bytes 2048");
}

// The tile's columns are 16 bytes apart in the tensor but 8 in shared
// memory: no common run crosses a column, and the planner still declines.
TEST(PlannerCoalesce, ColumnsApartStillDecline) {
  CopyRequest r = load(i8(), parse("(8, 8) : (1, 16)"), {8, 8},
                       parse("(8, 8) : (1, 8)"), {8, 8});
  EXPECT_EQ(declineRuleOf(r), "inner-box-bytes");
}

// Rows 0..7 of a column-major 16x8 tensor: each column's part is 8 bytes,
// the next column 16 bytes on; the partly copied axis must not merge.
TEST(PlannerCoalesce, PartOfAColumnStaysApart) {
  CopyRequest r = load(i8(), parse("(16, 8) : (1, 16)"), {16, 8},
                       parse("(8, 8) : (1, 8)"), {8, 8});
  r.globalSizes = {8, 8};
  EXPECT_EQ(declineRuleOf(r), "inner-box-bytes");
}

} // namespace
