//===- ClusterEntryTest.cpp - A guarded cluster kernel's two versions -----===//
//
// unittests/Runtime/Inputs/cluster_pipeline.mlir compiled by tile-compile: a
// tile.pipeline across a cluster of 2 whose multicast load reads a tensor of
// run-time rows. Where its plan's guards (1 <= rows <= 2^32, a 16-byte
// aligned base) hold, the entry launches the kernel with its map; where one
// fails, the fallback version (the multicast done per thread through the
// cluster's shared window), in the same clusters and without a map (on the
// fake driver).
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

struct Descriptor1 {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

extern "C" void _mlir_ciface_shared_rows(Descriptor2 *a, int64_t n,
                                         Descriptor1 *out);

class ClusterEntry : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    fake().launchExCalls = 0;
  }
  /// Launches of any kind (a cluster launch is a cuLaunchKernelEx).
  int launches() { return fake().launches + fake().launchExCalls; }
  int32_t call(int64_t rows, float *base) {
    Descriptor2 a{base, base, 0, {rows, 64}, {64, 1}};
    Descriptor1 out{sums, sums, 0, {2}, {1}};
    _mlir_ciface_shared_rows(&a, rows / 8, &out);
    return tileRuntimeConsumeStatus();
  }
  // The fake driver never touches the data; only addresses matter.
  static inline std::vector<float> data = std::vector<float>(64 * 64 + 4);
  static inline float sums[2];
};

TEST_F(ClusterEntry, GuardsHoldLaunchesOneClusterOfTwo) {
  ASSERT_EQ(reinterpret_cast<uintptr_t>(data.data()) % 16, 0u);
  EXPECT_EQ(call(64, data.data()), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launchExCalls, 1);
  EXPECT_EQ(launches(), 1);
  EXPECT_EQ(std::string(fake().lastFunctionName), "shared_rows");
  EXPECT_EQ(fake().grid[0], 2u);
  EXPECT_EQ(fake().cluster[0], 2u);
  EXPECT_EQ(fake().block[0], 128u);
  // The map reads the rows from the descriptor: dims (64, 64).
  EXPECT_EQ(fake().lastEncodeDims[0], 64u);
  EXPECT_EQ(fake().lastEncodeDims[1], 64u);
}

TEST_F(ClusterEntry, NoRowsLaunchesTheFallbackInClustersOfTwo) {
  EXPECT_EQ(call(0, data.data()), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launchExCalls, 1);
  EXPECT_EQ(launches(), 1);
  EXPECT_EQ(fake().encodeCalls, 0);
  EXPECT_EQ(std::string(fake().lastFunctionName), "shared_rows_fallback");
  EXPECT_EQ(fake().grid[0], 2u);
  EXPECT_EQ(fake().cluster[0], 2u);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 1);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 0);
}

TEST_F(ClusterEntry, MisalignedBaseLaunchesTheFallback) {
  EXPECT_EQ(call(64, data.data() + 1), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(launches(), 1);
  EXPECT_EQ(std::string(fake().lastFunctionName), "shared_rows_fallback");
  EXPECT_EQ(fake().cluster[0], 2u);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 1);
}
