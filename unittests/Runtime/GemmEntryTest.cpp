//===- GemmEntryTest.cpp - The GEMM example called from C -----------------===//
//
// examples/gemm/gemm.mlir compiled by tile-compile and called from C through
// its `gemm` entry (A: M x K, Bt: N x K bf16, C: M x N f32), on the fake
// driver: the launch shape, the dynamic shared memory, the three tensor maps
// read from the descriptors, and the fallback version when K's rows are not
// a multiple of 16 bytes, and no launch for an empty C.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

Descriptor2 matrix(void *data, int64_t rows, int64_t cols) {
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

} // namespace

extern "C" void _mlir_ciface_gemm(Descriptor2 *a, Descriptor2 *bt,
                                  Descriptor2 *c);

class GemmEntry : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
  }
  int32_t call(int64_t m, int64_t n, int64_t k) {
    Descriptor2 a = matrix(data.data(), m, k);
    Descriptor2 bt = matrix(data.data(), n, k);
    Descriptor2 c = matrix(data.data(), m, n);
    _mlir_ciface_gemm(&a, &bt, &c);
    return tileRuntimeConsumeStatus();
  }
  // The fake driver never touches the data; only addresses matter.
  static inline std::vector<uint64_t> data = std::vector<uint64_t>(64);
};

TEST_F(GemmEntry, LaunchesOneCtaPerTileWithItsMaps) {
  EXPECT_EQ(call(1000, 600, 520), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
  EXPECT_STREQ(fake().lastFunctionName, "gemm");
  // 128 x 256 tiles: ceil(600 / 256) x ceil(1000 / 128).
  EXPECT_EQ(fake().grid[0], 3u);
  EXPECT_EQ(fake().grid[1], 8u);
  EXPECT_EQ(fake().block[0], 384u);
  // Three stages of 48 KiB; the C tile reuses them.
  EXPECT_EQ(fake().smem, 147456u);
  // A, Bt and C: three maps; the last one encoded is C's (f32, 600 x 1000).
  EXPECT_EQ(fake().encodeCalls, 3);
  EXPECT_EQ(fake().lastEncodeDims[0], 600u);
  EXPECT_EQ(fake().lastEncodeDims[1], 1000u);
  EXPECT_EQ(fake().lastEncodeStrides[0], 2400u);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_GUARDED), 1);
}

TEST_F(GemmEntry, RowsOffSixteenBytesRunTheFallback) {
  // K = 100: rows of A and Bt are 200 bytes (global-stride).
  EXPECT_EQ(call(256, 256, 100), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
  EXPECT_STREQ(fake().lastFunctionName, "gemm_fallback");
  // Each map is encoded where its own guards hold: C's (rows of 1024 B)
  // is, A's and Bt's are not.
  EXPECT_EQ(fake().encodeCalls, 1);
  EXPECT_EQ(fake().lastEncodeDims[0], 256u);
  EXPECT_EQ(fake().lastEncodeStrides[0], 1024u);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 1);
}

TEST_F(GemmEntry, AnEmptyCLaunchesNothing) {
  // M = 0 or N = 0: a grid of no tile rows or columns, which the driver
  // would refuse; C has no element to write, so nothing is launched and the
  // call succeeds.
  EXPECT_EQ(call(0, 600, 520), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(call(1000, 0, 520), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 0);
  EXPECT_EQ(fake().encodeCalls, 0);
  // K = 0 with a non-empty C still launches: the kernel writes its zeros.
  EXPECT_EQ(call(256, 256, 0), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
}
