//===- LimitsTest.cpp - tile/TMA/Limits.h against the hardware model ------===//
//
// The planner, guards, runtime and lowering read the TMA's limits from
// Limits.h; the hardware model keeps literals of its own. Each limit is
// checked at its boundary against the model: the last legal value is
// accepted and the first illegal one rejected, so the two cannot drift
// apart unnoticed.
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Limits.h"
#include "tile/TMA/HardwareModel.h"
#include "gtest/gtest.h"

using namespace tile;
using namespace tile::tma;
namespace limits = tile::tma::limits;

namespace {

/// A rank-`rank` map of 1-byte elements: every dimension 64 wide, box 16 x 1
/// x ..., dense strides.
TensorMapDesc mapOfRank(unsigned rank) {
  TensorMapDesc m;
  m.rank = rank;
  m.elementBytes = 1;
  m.globalDim.assign(rank, 64);
  m.boxDim.assign(rank, 1);
  m.boxDim[0] = 16;
  m.elementStrides.assign(rank, 1);
  uint64_t stride = 64;
  for (unsigned d = 1; d < rank; ++d, stride *= 64)
    m.globalStridesBytes.push_back(stride);
  return m;
}

/// What the model says of one load of the map's first box: nullopt when the
/// descriptor and the issue are legal.
std::optional<std::string> modelVerdict(const TensorMapDesc &m) {
  TmaIssue issue{SymExpr(0), std::vector<SymExpr>(m.rank, SymExpr(0))};
  return walkBox(m, issue, Direction::GlobalToShared, {},
                 limits::kArenaAlignmentBytes, [](const BoxElement &) {});
}

TEST(Limits, RankAgreesWithTheModel) {
  EXPECT_FALSE(modelVerdict(mapOfRank(limits::kMaxRank)));
  EXPECT_TRUE(modelVerdict(mapOfRank(limits::kMaxRank + 1)));
}

TEST(Limits, BoxDimAgreesWithTheModel) {
  TensorMapDesc m = mapOfRank(2);
  m.globalDim[1] = 1024;
  m.boxDim[1] = limits::kMaxBoxDim;
  EXPECT_FALSE(modelVerdict(m));
  m.boxDim[1] = limits::kMaxBoxDim + 1;
  EXPECT_TRUE(modelVerdict(m));
}

TEST(Limits, GranuleAgreesWithTheModel) {
  TensorMapDesc m = mapOfRank(2);
  m.boxDim[0] = limits::kGranuleBytes;
  EXPECT_FALSE(modelVerdict(m));
  m.boxDim[0] = limits::kGranuleBytes + 1;
  EXPECT_TRUE(modelVerdict(m));
  m = mapOfRank(2);
  m.globalStridesBytes[0] = 64 + limits::kGranuleBytes / 2;
  EXPECT_TRUE(modelVerdict(m));
}

TEST(Limits, ElementStrideAgreesWithTheModel) {
  TensorMapDesc m = mapOfRank(2);
  m.elementStrides[1] = limits::kMaxElementStride;
  EXPECT_FALSE(modelVerdict(m));
  m.elementStrides[1] = limits::kMaxElementStride + 1;
  EXPECT_TRUE(modelVerdict(m));
}

TEST(Limits, GlobalDimAndStrideAgreeWithTheModel) {
  TensorMapDesc m = mapOfRank(2);
  m.globalDim[1] = limits::kMaxGlobalDim;
  EXPECT_FALSE(modelVerdict(m));
  m.globalDim[1] = limits::kMaxGlobalDim + 1;
  EXPECT_TRUE(modelVerdict(m));
  m = mapOfRank(2);
  m.globalStridesBytes[0] =
      limits::kGlobalStrideLimitBytes - limits::kGranuleBytes;
  EXPECT_FALSE(modelVerdict(m));
  m.globalStridesBytes[0] = limits::kGlobalStrideLimitBytes;
  EXPECT_TRUE(modelVerdict(m));
}

TEST(Limits, SharedAlignmentAgreesWithTheModel) {
  TensorMapDesc m = mapOfRank(1);
  TmaIssue aligned{SymExpr(limits::kSharedAlignmentBytes), {SymExpr(0)}};
  TmaIssue misaligned{SymExpr(limits::kSharedAlignmentBytes / 2), {SymExpr(0)}};
  auto visit = [](const BoxElement &) {};
  EXPECT_FALSE(walkBox(m, aligned, Direction::GlobalToShared, {},
                       limits::kArenaAlignmentBytes, visit));
  EXPECT_TRUE(walkBox(m, misaligned, Direction::GlobalToShared, {},
                      limits::kArenaAlignmentBytes, visit));
  // The arena's alignment is a multiple of the TMA's.
  EXPECT_EQ(limits::kArenaAlignmentBytes % limits::kSharedAlignmentBytes, 0);
}

TEST(Limits, Im2colBitWidths) {
  // 16 bits shared by the rank's corner offsets: 1, 2 or 3 signed fields.
  EXPECT_EQ(limits::im2colCornerLimit(3), int64_t(1) << 15);
  EXPECT_EQ(limits::im2colCornerLimit(4), int64_t(1) << 7);
  EXPECT_EQ(limits::im2colCornerLimit(5), int64_t(1) << 4);
  EXPECT_EQ(limits::im2colOffsetLimit(3), int64_t(1) << 16);
  EXPECT_EQ(limits::im2colOffsetLimit(4), int64_t(1) << 8);
  EXPECT_EQ(limits::im2colOffsetLimit(5), int64_t(1) << 5);
}

} // namespace
