//===- RefusedLaunchTest.cpp - A guarded kernel without a fallback --------===//
//
// unittests/Runtime/Inputs/max_rows.mlir compiled by tile-compile: a kernel
// that max-reduces a shared tile into a tensor of run-time rows. Its store's
// plan guards (1 <= rows <= 2^32, a 16-byte aligned base) have no fallback
// (per-element atomics have no floating-point max), so the entry launches
// where they hold and, where one fails, launches nothing and records the
// guard (on the fake driver).
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

extern "C" void _mlir_ciface_max_rows(Descriptor2 *x, Descriptor2 *out);

class RefusedLaunch : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
  }
  int32_t call(int64_t rows, uint16_t *base) {
    Descriptor2 x{tile, tile, 0, {8, 64}, {64, 1}};
    Descriptor2 out{base, base, 0, {rows, 64}, {64, 1}};
    _mlir_ciface_max_rows(&x, &out);
    return tileRuntimeConsumeStatus();
  }
  // The fake driver never touches the data; only addresses matter.
  static inline std::vector<uint16_t> data = std::vector<uint16_t>(64 * 64 + 8);
  alignas(16) static inline uint16_t tile[8 * 64];
};

TEST_F(RefusedLaunch, GuardsHoldLaunchesWithBothMaps) {
  ASSERT_EQ(reinterpret_cast<uintptr_t>(data.data()) % 16, 0u);
  EXPECT_EQ(call(64, data.data()), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
  EXPECT_EQ(std::string(fake().lastFunctionName), "max_rows");
  EXPECT_EQ(fake().encodeCalls, 2);
  // The store's map reads the rows from the descriptor: dims (64, 64).
  EXPECT_EQ(fake().lastEncodeDims[0], 64u);
  EXPECT_EQ(fake().lastEncodeDims[1], 64u);
}

TEST_F(RefusedLaunch, NoRowsRefusesTheLaunchNamingTheGuard) {
  EXPECT_EQ(call(0, data.data()), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(fake().launches, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@max_rows: launch of @kernels::@max_rows: guard failed "
               "(global-dim: 1 <= size[0] <= 4294967296) and the kernel has "
               "no fallback version; nothing was launched");
}

TEST_F(RefusedLaunch, MisalignedBaseRefusesTheLaunchNamingTheGuard) {
  EXPECT_EQ(call(64, data.data() + 1), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(fake().launches, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@max_rows: launch of @kernels::@max_rows: guard failed "
               "(global-align: address % 16 == 0) and the kernel has no "
               "fallback version; nothing was launched");
}
