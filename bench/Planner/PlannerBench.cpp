//===- PlannerBench.cpp - Time per TMA plan
//--------------------------------===//
//
//   bench-planner --benchmark_repetitions=10 --benchmark_report_aggregates_only
//
// Plans the reference demo (one rank-3 issue) and a rank-5 case whose swizzle
// atoms become an issue axis (four rank-5 issues); see bench/README.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Layout/Layout.h"
#include "tile/TMA/Planner.h"

#include <benchmark/benchmark.h>

using namespace tile;
using namespace tile::tma;

namespace {

CopyRequest fullLoad(Layout global, std::vector<int64_t> shape,
                     const char *shared) {
  CopyRequest r;
  r.elementType = {ScalarKind::Float, 2};
  r.globalLayout = std::move(global);
  r.globalShape = shape;
  r.globalOffsets.assign(shape.size(), SymExpr(0));
  r.globalSizes = shape;
  r.sharedLayout = *Layout::parse(shared);
  r.sharedShape = shape;
  r.sharedOffsets.assign(shape.size(), SymExpr(0));
  r.sharedSizes = shape;
  return r;
}

void run(benchmark::State &state, const CopyRequest &r, size_t issues) {
  for (auto _ : state) {
    PlanOutcome o = planTmaCopy(r);
    benchmark::DoNotOptimize(o);
    if (!o.plan || o.plan->issues.size() != issues) {
      state.SkipWithError("unexpected plan");
      return;
    }
  }
}

void BM_PlanReferenceDemo(benchmark::State &state) {
  run(state,
      fullLoad(Layout::rowMajor({8, 256}), {8, 256},
               "(8, 4, 64) : (64, 512, 1), swizzle = 128B"),
      1);
}

void BM_PlanRank5MultiIssue(benchmark::State &state) {
  run(state,
      fullLoad(Layout::strided({2, 3, 4, 8, 128}, {14080, 4672, 1152, 136, 1}),
               {2, 3, 4, 8, 128},
               "(2, 3, 4, 8, 4, 32) : (3072, 1024, 256, 32, 6144, 1), "
               "swizzle = 64B"),
      4);
}

// 64 rows of 96 bytes from row 33 of a 4x4x128x96 u8 tensor: the fused inner
// dims would need three u64 boxes; the search keeps them apart (one box).
void BM_PlanKeepDimsApart(benchmark::State &state) {
  CopyRequest r = fullLoad(Layout::rowMajor({4, 4, 128, 96}), {4, 4, 128, 96},
                           "(64, 96) : (96, 1)");
  r.elementType = {ScalarKind::UnsignedInt, 1};
  r.globalOffsets = {SymExpr(2), SymExpr(1), SymExpr(33), SymExpr(0)};
  r.globalSizes = {1, 1, 64, 96};
  r.sharedShape = {64, 96};
  r.sharedOffsets = {SymExpr(0), SymExpr(0)};
  r.sharedSizes = {64, 96};
  run(state, r, 1);
}

// The search's worst case among these: a contiguous rank-5 tensor (four
// fused boundaries) into a shared layout whose outer dims are permuted, so
// no candidate reaches one instruction (eight), and every fusion choice whose
// boundary a mode crosses is tried.
void BM_PlanSearchAllFusions(benchmark::State &state) {
  run(state,
      fullLoad(Layout::rowMajor({2, 3, 4, 8, 128}), {2, 3, 4, 8, 128},
               "(2, 3, 4, 8, 128) : (24576, 1024, 6144, 128, 1)"),
      8);
}

BENCHMARK(BM_PlanReferenceDemo);
BENCHMARK(BM_PlanRank5MultiIssue);
BENCHMARK(BM_PlanKeepDimsApart);
BENCHMARK(BM_PlanSearchAllFusions);

} // namespace

BENCHMARK_MAIN();
