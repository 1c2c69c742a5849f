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

#include <functional>

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

/// A field of a rank-2 map set to the last value Limits.h allows (the model
/// accepts) and to the next one (the model rejects).
struct Boundary {
  const char *field;
  int64_t last;
  int64_t next;
  std::function<void(TensorMapDesc &, int64_t)> set;
};

TEST(Limits, DescriptorBoundariesAgreeWithTheModel) {
  const Boundary boundaries[] = {
      {"boxDim[1]", limits::kMaxBoxDim, limits::kMaxBoxDim + 1,
       [](TensorMapDesc &m, int64_t v) {
         m.globalDim[1] = 1024;
         m.boxDim[1] = v;
       }},
      {"boxDim[0] bytes", limits::kGranuleBytes, limits::kGranuleBytes + 1,
       [](TensorMapDesc &m, int64_t v) { m.boxDim[0] = v; }},
      {"globalStrides[0] granule", 64 + limits::kGranuleBytes,
       64 + limits::kGranuleBytes / 2,
       [](TensorMapDesc &m, int64_t v) { m.globalStridesBytes[0] = v; }},
      {"globalStrides[0] limit",
       limits::kGlobalStrideLimitBytes - limits::kGranuleBytes,
       limits::kGlobalStrideLimitBytes,
       [](TensorMapDesc &m, int64_t v) { m.globalStridesBytes[0] = v; }},
      {"elementStrides[1]", limits::kMaxElementStride,
       limits::kMaxElementStride + 1,
       [](TensorMapDesc &m, int64_t v) { m.elementStrides[1] = v; }},
      {"globalDim[1]", limits::kMaxGlobalDim, limits::kMaxGlobalDim + 1,
       [](TensorMapDesc &m, int64_t v) { m.globalDim[1] = v; }},
  };
  for (const Boundary &b : boundaries) {
    TensorMapDesc m = mapOfRank(2);
    b.set(m, b.last);
    EXPECT_FALSE(modelVerdict(m)) << b.field << " = " << b.last;
    b.set(m, b.next);
    EXPECT_TRUE(modelVerdict(m)) << b.field << " = " << b.next;
  }
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
