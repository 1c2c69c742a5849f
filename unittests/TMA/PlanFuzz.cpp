//===- PlanFuzz.cpp - Random copies for the planner property test ---------===//

#include "PlanFuzz.h"

#include "tile/Layout/Format.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/HardwareModel.h"
#include "tile/TMA/Limits.h"
#include "tile/TMA/Planner.h"

#include <algorithm>
#include <random>

namespace tile::tma::fuzz {

namespace {

struct Rng {
  std::mt19937_64 g;
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(g);
  }
  bool chance(double p) {
    return std::uniform_real_distribution<>(0, 1)(g) < p;
  }
  template <typename T>
  T choose(const std::vector<T> &v) {
    return v[static_cast<size_t>(pick(0, static_cast<int64_t>(v.size()) - 1))];
  }
};

const std::vector<ElementType> kTypes = {
    {ScalarKind::Float, 2},       {ScalarKind::BFloat, 2},
    {ScalarKind::Float, 4},       {ScalarKind::Float, 8},
    {ScalarKind::Float8, 1},      {ScalarKind::SignlessInt, 1},
    {ScalarKind::UnsignedInt, 1}, {ScalarKind::SignedInt, 2},
    {ScalarKind::SignlessInt, 4}, {ScalarKind::UnsignedInt, 4},
    {ScalarKind::SignlessInt, 8}, {ScalarKind::UnsignedInt, 8}};

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

} // namespace

FuzzCase generateCase(uint64_t seed, uint64_t index) {
  Rng rng{std::mt19937_64(seed * 0x9E3779B97F4A7C15ull + index)};
  FuzzCase fc;
  CopyRequest &r = fc.request;
  r.elementType = rng.choose(kTypes);
  int64_t eb = r.elementType.bytes;
  int64_t v16 = 16 / eb; // elements per 16 bytes
  r.direction =
      rng.chance(0.7) ? Direction::GlobalToShared : Direction::SharedToGlobal;
  bool isLoad = r.direction == Direction::GlobalToShared;
  Swizzle swz =
      rng.chance(0.4) ? Swizzle::None : static_cast<Swizzle>(rng.pick(1, 3));
  int64_t span = swizzleSpanBytes(swz);

  // Box row of the shared atom and the tile's inner width.
  int64_t rowElems;
  if (span > 0)
    rowElems = 16 * rng.pick(1, span / 16) / eb;
  else
    rowElems = v16 * rng.choose<int64_t>({1, 2, 4, 8, 16, 32});
  if (rng.chance(0.03))
    rowElems += rng.pick(1, 3); // Deliberately ragged.
  bool fullRow = span == 0 || rowElems * eb == span;
  int64_t width = rowElems * (fullRow ? rng.choose<int64_t>({1, 1, 2, 4}) : 1);
  if (width > 512)
    width = rowElems;

  // Tile: outer dims, then the inner width.
  std::vector<int64_t> tile;
  int outerDims = static_cast<int>(rng.pick(0, 3));
  int64_t budget = std::max<int64_t>(1, 8192 / (width * eb));
  for (int i = 0; i < outerDims; ++i) {
    int64_t n = std::min(budget, rng.choose<int64_t>({1, 2, 3, 4, 8, 16}));
    budget = std::max<int64_t>(1, budget / n);
    tile.push_back(n);
  }
  tile.push_back(width);
  size_t tr = tile.size();

  // Global tensor: extra batch/unit dims in front, each tile dim padded out.
  int extra = static_cast<int>(rng.pick(0, 2));
  std::vector<int64_t> gShape, gSizes;
  std::vector<SymExpr> gOffsets;
  for (int i = 0; i < extra; ++i) {
    int64_t n = rng.choose<int64_t>({1, 1, 2, 3});
    gShape.push_back(n);
    gSizes.push_back(1);
    gOffsets.push_back(SymExpr(rng.pick(0, n - 1)));
  }
  fc.symbolValues = {{0, 0, 0}};
  bool dynamicOuter = false;
  for (size_t d = 0; d < tr; ++d) {
    bool inner = d + 1 == tr;
    int64_t n = tile[d];
    int64_t extent = n + (rng.chance(0.5) ? 0 : rng.pick(0, n));
    if (inner && rng.chance(0.5))
      extent = roundUp(extent, v16) + (rng.chance(0.1) ? 1 : 0);
    int64_t off = rng.pick(0, extent - n);
    if (inner && rng.chance(0.9))
      off = off / v16 * v16;
    if (isLoad && rng.chance(0.1)) // Leave the tensor on either side.
      off = rng.chance(0.5) ? -rng.pick(1, n) : extent - n + rng.pick(1, n);
    if (inner && isLoad && rng.chance(0.9))
      off = off >= 0 ? off / v16 * v16 : -roundUp(-off, v16);
    SymExpr offset(off);
    if (!inner && !dynamicOuter && rng.chance(0.15)) {
      dynamicOuter = true;
      extent = std::max(extent, 2 * n);
      offset = SymExpr::symbol(1, n); // Tile index times tile size.
      fc.symbolValues.push_back({0, 1, 0});
    } else if (inner && rng.chance(0.06)) {
      int64_t coeff = rng.chance(0.5) ? v16 : 1;
      int64_t div = rng.choose<int64_t>({1, 2, 16});
      r.symbolDivisors.resize(3, 1);
      r.symbolDivisors[2] = div;
      extent = std::max(extent, n + coeff * div);
      offset = SymExpr::symbol(2, coeff);
      fc.symbolValues.push_back({0, 0, div});
    }
    gShape.push_back(extent);
    gSizes.push_back(n);
    gOffsets.push_back(offset);
  }
  // Strides: row-major with a padded inner pitch; sometimes permuted.
  size_t gr = gShape.size();
  std::vector<int64_t> gStrides(gr);
  int64_t stride = 1;
  for (size_t d = gr; d-- > 0;) {
    gStrides[d] = stride;
    int64_t ext = gShape[d];
    if (d + 1 == gr && rng.chance(0.9))
      ext = roundUp(ext, v16 * rng.choose<int64_t>({1, 1, 2}));
    stride *= ext;
  }
  if (gr > 1 && rng.chance(0.04))
    std::swap(gStrides[gr - 1], gStrides[static_cast<size_t>(rng.pick(
                                    0, static_cast<int64_t>(gr) - 2))]);
  int64_t gOffset = rng.chance(0.2) ? v16 * rng.pick(0, 4) : 0;
  if (rng.chance(0.03))
    gOffset += 1;
  r.globalLayout = Layout::strided(gShape, gStrides, gOffset);
  r.globalShape = gShape;
  r.globalSizes = gSizes;
  r.globalOffsets = gOffsets;

  // Shared layout: the row atom, then row shards in some order at the pitch.
  int64_t pitch = span > 0 ? std::max(rowElems * eb, span) / eb : rowElems;
  if (span == 0 && rng.chance(0.1))
    pitch += v16 * rng.pick(1, 4);
  std::vector<std::vector<Shard>> groups(tr);
  struct RowShard {
    size_t dim;
    size_t slot;
  };
  std::vector<RowShard> rows;
  for (size_t d = 0; d + 1 < tr; ++d) {
    groups[d].push_back({tile[d], 0});
    if (tile[d] > 1)
      rows.push_back({d, 0});
  }
  if (width > rowElems) {
    groups[tr - 1].push_back({width / rowElems, 0});
    rows.push_back({tr - 1, 0});
  }
  groups[tr - 1].push_back({std::min(width, rowElems), 1});
  if (rng.chance(0.4))
    std::shuffle(rows.begin(), rows.end(), rng.g);
  int64_t s = pitch;
  for (const RowShard &row : rows) {
    Shard &sh = groups[row.dim][row.slot];
    sh.stride = s;
    s *= sh.extent;
    if (rng.chance(0.04))
      s += v16 * rng.pick(1, 8); // A gap between shards.
  }
  for (auto &g : groups)
    for (Shard &sh : g)
      if (sh.extent == 1)
        sh.stride = 0;
  if (!rows.empty() && rng.chance(0.03)) // Transposed: swap stride-1 role.
    std::swap(groups[tr - 1].back().stride,
              groups[rows[0].dim][rows[0].slot].stride);
  int64_t tileCosize = s;

  // Shared shape: the tile, maybe reshaped, with unit dims and a stage dim.
  std::vector<int64_t> sShape;
  std::vector<std::vector<Shard>> sGroups;
  for (size_t d = 0; d < tr; ++d) {
    bool merge = d + 1 < tr && rng.chance(0.15);
    if (merge) { // Merge dims d and d+1 (a reshape of the region).
      std::vector<Shard> g = groups[d];
      g.insert(g.end(), groups[d + 1].begin(), groups[d + 1].end());
      sShape.push_back(tile[d] * tile[d + 1]);
      sGroups.push_back(g);
      ++d;
    } else {
      sShape.push_back(tile[d]);
      sGroups.push_back(groups[d]);
    }
    if (rng.chance(0.08)) {
      sShape.push_back(1);
      sGroups.push_back(rng.chance(0.5) ? std::vector<Shard>{}
                                        : std::vector<Shard>{{1, 0}});
    }
  }
  std::vector<SymExpr> sOffsets(sShape.size(), SymExpr(0));
  std::vector<int64_t> sSizes = sShape;
  if (rng.chance(0.3)) {
    int64_t stages = rng.pick(2, 4);
    int64_t stageStride = roundUp(tileCosize, 1024 / eb);
    if (rng.chance(0.05))
      stageStride = roundUp(tileCosize, v16); // Not 128-byte aligned.
    sShape.insert(sShape.begin(), stages);
    sGroups.insert(sGroups.begin(), std::vector<Shard>{{stages, stageStride}});
    sSizes.insert(sSizes.begin(), 1);
    if (rng.chance(0.5)) {
      sOffsets.insert(sOffsets.begin(), SymExpr::symbol(0));
      for (auto &v : fc.symbolValues)
        v[0] = stages - 1;
      fc.symbolValues.push_back({0, 0, 0});
    } else {
      sOffsets.insert(sOffsets.begin(), SymExpr(rng.pick(0, stages - 1)));
    }
  }
  std::vector<Shard> sShards;
  for (const auto &g : sGroups)
    sShards.insert(sShards.end(), g.begin(), g.end());
  r.sharedLayout = Layout(sShards, swz);
  r.sharedShape = sShape;
  r.sharedOffsets = sOffsets;
  r.sharedSizes = sSizes;
  r.sharedBaseAlignment =
      rng.chance(0.9) ? 1024 : rng.choose<int64_t>({128, 256, 512, 64});
  if (isLoad && rng.chance(0.15))
    r.oobFill = OobFill::NaN;
  if (!isLoad && rng.chance(0.2))
    r.reduce = static_cast<ReduceKind>(rng.pick(1, 8));
  if (rng.chance(0.01))
    r.globalSizes.back() += 1; // Count mismatch.
  return fc;
}

std::string describeRequest(const CopyRequest &r) {
  auto offsets = [](const std::vector<SymExpr> &v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + v[i].str();
    return s + "]";
  };
  return std::string(r.direction == Direction::GlobalToShared ? "load"
                                                              : "store") +
         " " + toString(r.elementType) + "\n  global " + r.globalLayout.str() +
         " shape " + formatList(r.globalShape) + " region " +
         offsets(r.globalOffsets) + " " + formatList(r.globalSizes) +
         "\n  shared " + r.sharedLayout.str() + " shape " +
         formatList(r.sharedShape) + " region " + offsets(r.sharedOffsets) +
         " " + formatList(r.sharedSizes) + "\n  divisors " +
         formatList(r.symbolDivisors) + " align " +
         std::to_string(r.sharedBaseAlignment) + " oob " +
         (r.oobFill == OobFill::NaN ? "nan" : "zero") + " reduce " +
         toString(r.reduce);
}

std::string runCase(const FuzzCase &c, FuzzStats &stats) {
  ++stats.cases;
  PlanOutcome o = planTmaCopy(c.request);
  std::string error;
  if (!o.plan) {
    if (!o.decline)
      error = "neither a plan nor a decline";
    else
      ++stats.declines[std::string(ruleIdName(o.decline->rule))];
  } else {
    ++stats.accepted;
    if (static_cast<int64_t>(o.plan->issues.size()) > limits::kMaxIssues)
      error = "too many issues";
    for (const auto &values : c.symbolValues) {
      if (!error.empty())
        break;
      if (std::optional<std::string> e = verifyPlan(c.request, *o.plan, values))
        error =
            "model rejects plan (symbols " + formatList(values) + "): " + *e;
    }
  }
  if (!error.empty()) {
    ++stats.failures;
    if (stats.failureReports.size() < 10)
      stats.failureReports.push_back(error + "\n  " +
                                     describeRequest(c.request));
  }
  return error;
}

FuzzStats runCases(uint64_t seed, uint64_t count) {
  FuzzStats stats;
  for (uint64_t i = 0; i < count; ++i) {
    std::string e = runCase(generateCase(seed, i), stats);
    if (!e.empty() && stats.failureReports.size() <= 10)
      stats.failureReports.back() += "\n  (seed " + std::to_string(seed) +
                                     ", case " + std::to_string(i) + ")";
  }
  return stats;
}

std::string summary(const FuzzStats &s) {
  char pct[32];
  snprintf(pct, sizeof(pct), "%.1f%%",
           s.cases ? 100.0 * static_cast<double>(s.accepted) /
                         static_cast<double>(s.cases)
                   : 0.0);
  std::string out = "accepted " + std::to_string(s.accepted) + " / " +
                    std::to_string(s.cases) + " (" + pct + "), failures " +
                    std::to_string(s.failures) + "; declines:";
  for (const auto &[id, n] : s.declines)
    out += " " + id + " " + std::to_string(n);
  return out;
}

} // namespace tile::tma::fuzz
