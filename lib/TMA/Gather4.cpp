//===- Gather4.cpp - Plans of the tile::gather4 / tile::scatter4 forms ----===//
//
// A four-row copy (`rows(%r0, %r1, %r2, %r3)` on tile.copy_async) moves rows
// r0..r3, columns [col, col + n) of a 2D tensor with one instruction
// (PTX ISA 8.6, sm_100a: cp.async.bulk.tensor.2d ... .tile::gather4 for
// loads, .tile::scatter4 for stores). Its tensor map is an ordinary tiled
// 2D map whose box is one row high, {n, 1}; the instruction's coordinates
// are {col, r0, r1, r2, r3}, and the four boxes land in shared memory one
// after another, as the rows of a {n, 4} box of the tiled mode would: row i
// at i x pitch, pitch = n x element bytes (one swizzle span when swizzled,
// the rows padded as in the tiled mode).
//
// So the plan is the tiled plan of a box {n, 1} at {col, 0}, checked against
// every plan rule, with the rows put into the coordinates afterwards. The
// shared region must be exactly that dense four-row box: the planner does
// not split, reorder or promote these copies.
//
//===----------------------------------------------------------------------===//

#include "CopyModes.h"

#include "tile/TMA/Limits.h"
#include "tile/TMA/Planner.h"

namespace tile::tma {

using namespace detail;

namespace {

/// The row stride (elements) of a 2D global layout whose columns are
/// contiguous, or nullopt with *why set.
std::optional<int64_t> getRowStride(const CopyRequest &r, Decline *why) {
  std::string error;
  std::optional<GroupedLayout> g =
      groupOnto(r.globalLayout, r.globalShape, &error);
  if (!g) {
    *why = Decline{RuleId::Layout, error};
    return std::nullopt;
  }
  auto single = [](const std::vector<Shard> &group) -> std::optional<Shard> {
    std::optional<Shard> only;
    for (const Shard &s : group) {
      if (s.extent == 1)
        continue;
      if (only)
        return std::nullopt;
      only = s;
    }
    return only.value_or(Shard{1, 0});
  };
  std::optional<Shard> rows = single(g->groups[0]);
  std::optional<Shard> cols = single(g->groups[1]);
  if (!rows || !cols || (r.globalShape[1] > 1 && cols->stride != 1)) {
    *why = Decline{RuleId::Gather4,
                   "the tensor's columns must be contiguous and its rows "
                   "one stride apart; its layout is " +
                       r.globalLayout.str()};
    return std::nullopt;
  }
  // A one-row tensor has no row stride of its own: any legal one will do.
  return r.globalShape[0] > 1 ? rows->stride : r.globalShape[1];
}

/// The element offset of the shared region's first element, when the region
/// holds the four rows densely `pitch` elements apart; nullopt with *why
/// set otherwise.
std::optional<int64_t> getDenseRowsStart(const CopyRequest &r, int64_t n,
                                         int64_t pitch, Decline *why) {
  std::string error;
  std::optional<GroupedLayout> g =
      groupOnto(r.sharedLayout, r.sharedShape, &error);
  if (!g) {
    *why = Decline{RuleId::Layout, error};
    return std::nullopt;
  }
  std::vector<int64_t> start;
  for (const SymExpr &o : r.sharedOffsets) {
    std::optional<int64_t> c = o.constantValue();
    if (!c) {
      *why = Decline{RuleId::Gather4,
                     "the shared region of a four-row copy starts at "
                     "constant offsets; offset " +
                         o.str() + " is not one"};
      return std::nullopt;
    }
    start.push_back(*c);
  }
  int64_t first = g->offsetOf(start);
  int64_t count = 4 * n;
  std::vector<int64_t> index(start.size());
  for (int64_t k = 0; k < count; ++k) {
    // Row-major position k of the region.
    int64_t rest = k;
    for (size_t d = start.size(); d-- > 0;) {
      index[d] = start[d] + rest % r.sharedSizes[d];
      rest /= r.sharedSizes[d];
    }
    int64_t expected = first + (k / n) * pitch + k % n;
    int64_t actual = g->offsetOf(index);
    if (actual != expected) {
      *why = Decline{RuleId::Gather4,
                     "the shared region must hold the four rows as one "
                     "dense box, " +
                         std::to_string(pitch) + " elements apart; element " +
                         std::to_string(k) + " is at offset " +
                         std::to_string(actual) + ", expected " +
                         std::to_string(expected)};
      return std::nullopt;
    }
  }
  return first;
}

/// Constant rows of a store must lie inside the tensor (a negative TMA
/// store coordinate traps; rows past the end would be dropped silently).
std::optional<Decline> checkRows(const CopyRequest &r) {
  for (const SymExpr &row : r.gatherRows) {
    std::optional<int64_t> c = row.constantValue();
    if (!c)
      continue;
    if (*c < -(int64_t(1) << 31) || *c >= (int64_t(1) << 31))
      return Decline{RuleId::CoordRange,
                     "row " + std::to_string(*c) + " does not fit int32"};
    if (r.direction != Direction::SharedToGlobal)
      continue;
    if (*c < 0)
      return Decline{RuleId::StoreNegativeCoord,
                     "scatter4 row " + std::to_string(*c) + " is negative"};
    if (*c >= r.globalShape[0])
      return Decline{RuleId::StoreBounds, "scatter4 row " + std::to_string(*c) +
                                              " leaves the tensor's " +
                                              std::to_string(r.globalShape[0]) +
                                              " rows"};
  }
  return std::nullopt;
}

} // namespace

PlanOutcome planGather4(const CopyRequest &r) {
  PlanOutcome out;
  auto decline = [&](Decline reason) {
    out.decline = std::move(reason);
    return out;
  };
  if (std::optional<Decline> d = checkRequestRules(r))
    return decline(*d);
  if (r.gatherRows.size() != 4)
    return decline(
        Decline{RuleId::Gather4, "rows(...) names 4 rows, not " +
                                     std::to_string(r.gatherRows.size())});
  if (r.symbolicGlobal)
    return decline(Decline{RuleId::Gather4,
                           "the global buffer of a four-row copy has a "
                           "static shape, strides and offset"});
  if (r.globalShape.size() != 2 || r.globalSizes.size() != 2 ||
      r.globalOffsets.size() != 2)
    return decline(Decline{RuleId::Gather4,
                           "tile::gather4 and tile::scatter4 address a 2D "
                           "tensor; the global buffer has " +
                               std::to_string(r.globalShape.size()) +
                               " dimensions"});
  if (r.globalSizes[0] != 4 || r.globalOffsets[0].constantValue() != 0)
    return decline(Decline{RuleId::Gather4,
                           "the global region of a four-row copy is [0, "
                           "col] [4, n]"});
  Decline why{};
  std::optional<int64_t> rowStride = getRowStride(r, &why);
  if (!rowStride)
    return decline(why);

  int64_t eb = r.elementType.bytes;
  int64_t n = r.globalSizes[1];
  // Before the shared region is walked element by element.
  if (n < 1 || n > limits::kMaxBoxDim)
    return decline(
        Decline{RuleId::BoxDim, "box dimension 0 is " + std::to_string(n) +
                                    ", TMA allows 1 to " +
                                    std::to_string(limits::kMaxBoxDim)});
  Swizzle swizzle = r.sharedLayout.swizzle();
  int64_t pitchBytes = n * eb;
  if (swizzle != Swizzle::None)
    pitchBytes = std::max(pitchBytes, swizzleSpanBytes(swizzle));
  if (pitchBytes % eb != 0)
    return decline(Decline{RuleId::Gather4,
                           "a row pitch of " + std::to_string(pitchBytes) +
                               " B is not a whole number of elements"});
  std::optional<int64_t> first = getDenseRowsStart(r, n, pitchBytes / eb, &why);
  if (!first)
    return decline(why);

  TmaPlan plan;
  TensorMapDesc &map = plan.map;
  map.elementBytes = eb;
  map.dataType = dataTypeFor(r.elementType).value_or(TensorDataType::U8);
  map.rank = 2;
  map.globalDim = {static_cast<uint64_t>(r.globalShape[1]),
                   static_cast<uint64_t>(r.globalShape[0])};
  map.globalStridesBytes = {static_cast<uint64_t>(*rowStride * eb)};
  map.boxDim = {static_cast<uint32_t>(n), 1};
  map.elementStrides = {1, 1};
  map.swizzle = swizzle;
  map.oobFill = r.oobFill == OobFill::NaN ? 1 : 0;
  map.baseOffsetBytes = SymExpr(r.globalLayout.elementOffset() * eb);
  TmaIssue issue;
  issue.smemByteOffset = SymExpr(*first * eb);
  // The tiled box {n, 1} at {col, 0}: every plan rule holds for it exactly
  // when it holds for the four boxes at rows 0 (the rows are checked below).
  issue.coords = {r.globalOffsets[1], SymExpr(0)};
  plan.issues.push_back(issue);
  plan.bytes = 4 * n * eb;
  if (std::optional<Decline> d = checkPlanRules(r, plan))
    return decline(*d);
  if (std::optional<Decline> d = checkRows(r))
    return decline(*d);
  plan.issues[0].coords = {r.globalOffsets[1], r.gatherRows[0], r.gatherRows[1],
                           r.gatherRows[2], r.gatherRows[3]};
  out.plan = std::move(plan);
  return out;
}

} // namespace tile::tma
