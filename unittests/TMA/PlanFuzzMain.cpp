//===- PlanFuzzMain.cpp - tile-plan-fuzz: a deep planner sweep
//-------------===//
//
//   tile-plan-fuzz --cases N --seed S
//
// Runs N generated copies of seed S (default: 1000000 cases, a time-based
// seed), prints the seed, the acceptance summary and the first failures.
// Exit status 1 when any case fails.
//
//===----------------------------------------------------------------------===//

#include "PlanFuzz.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  uint64_t cases = 1000000;
  uint64_t seed = static_cast<uint64_t>(
      std::chrono::system_clock::now().time_since_epoch().count());
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--cases") && i + 1 < argc)
      cases = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: %s [--cases N] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  std::printf("seed %llu, %llu cases\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(cases));
  tile::tma::fuzz::FuzzStats stats = tile::tma::fuzz::runCases(seed, cases);
  std::printf("%s\n", tile::tma::fuzz::summary(stats).c_str());
  for (const std::string &f : stats.failureReports)
    std::printf("FAIL %s\n", f.c_str());
  return stats.failures ? 1 : 0;
}
