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

BENCHMARK(BM_PlanReferenceDemo);
BENCHMARK(BM_PlanRank5MultiIssue);

} // namespace

BENCHMARK_MAIN();
