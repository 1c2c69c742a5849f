//===- GuardedEntryTest.cpp - Entries over run-time-sized buffers ---------===//
//
// examples/dynamic_tiled_copy.mlir compiled by tile-compile: its entry
// `tiled_copy(memref<?x?xf16>, memref<?x?xf16>)` reads sizes and strides from
// the descriptors, checks the plans' guards, encodes the maps (cached) and
// launches the TMA kernel, or the fallback version when a guard fails,
// counting each (on the fake driver, which records the encode's fields and
// the name of the function launched).
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char *kSite =
    "@tiled_copy: launch of @tiled_copy_kernel::@tiled_copy_kernel";

} // namespace

extern "C" void _mlir_ciface_tiled_copy(Descriptor2 *a, Descriptor2 *b);

class GuardedEntry : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
  }
  /// A rows x cols view of `data` with row pitch `pitch`.
  Descriptor2 view(int64_t rows, int64_t cols, int64_t pitch) {
    return {data.data(), data.data(), 0, {rows, cols}, {pitch, 1}};
  }
  int32_t call(Descriptor2 a, Descriptor2 b) {
    _mlir_ciface_tiled_copy(&a, &b);
    return tileRuntimeConsumeStatus();
  }
  int64_t count(int32_t version) {
    return tileRuntimeSiteLaunchVersionCount(kSite, version);
  }
  std::string launched() { return fake().lastFunctionName; }
  // The fake driver never touches the data; only addresses matter.
  static inline std::vector<uint16_t> data = std::vector<uint16_t>(4200 * 48);
};

TEST_F(GuardedEntry, GuardsHoldLaunchesTheTmaKernelWithRunTimeFields) {
  ASSERT_EQ(reinterpret_cast<uintptr_t>(data.data()) % 16, 0u);
  EXPECT_EQ(call(view(100, 40, 40), view(100, 40, 40)), TILE_SUCCESS)
      << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
  EXPECT_EQ(launched(), "tiled_copy_kernel");
  // One 64x64 tile per CTA: ceil(40 / 64) x ceil(100 / 64).
  EXPECT_EQ(fake().grid[0], 1u);
  EXPECT_EQ(fake().grid[1], 2u);
  // A and B are the same view: one map, read from the descriptor.
  EXPECT_EQ(fake().encodeCalls, 1);
  EXPECT_EQ(fake().lastEncodeRank, 2u);
  EXPECT_EQ(fake().lastEncodeDims[0], 40u);
  EXPECT_EQ(fake().lastEncodeDims[1], 100u);
  EXPECT_EQ(fake().lastEncodeStrides[0], 80u);
  EXPECT_EQ(count(TILE_VERSION_GUARDED), 1);
  EXPECT_EQ(count(TILE_VERSION_FALLBACK), 0);
}

TEST_F(GuardedEntry, MapsAreCachedUntilASizeChanges) {
  EXPECT_EQ(call(view(100, 40, 40), view(100, 40, 40)), TILE_SUCCESS);
  EXPECT_EQ(call(view(100, 40, 40), view(100, 40, 40)), TILE_SUCCESS);
  EXPECT_EQ(fake().encodeCalls, 1);
  EXPECT_EQ(call(view(120, 40, 40), view(120, 40, 40)), TILE_SUCCESS);
  EXPECT_EQ(fake().encodeCalls, 2);
  EXPECT_EQ(fake().lastEncodeDims[1], 120u);
  EXPECT_EQ(fake().launches, 3);
  EXPECT_EQ(count(TILE_VERSION_GUARDED), 3);
}

TEST_F(GuardedEntry, OddRowPitchRunsTheFallbackWithoutError) {
  // 33 f16 = 66 bytes: not a multiple of 16 (global-stride).
  EXPECT_EQ(call(view(4097, 33, 33), view(4097, 33, 33)), TILE_SUCCESS)
      << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
  EXPECT_EQ(launched(), "tiled_copy_kernel_fallback");
  EXPECT_EQ(fake().encodeCalls, 0);
  EXPECT_EQ(fake().grid[0], 1u);
  EXPECT_EQ(fake().grid[1], 65u);
  EXPECT_EQ(count(TILE_VERSION_GUARDED), 0);
  EXPECT_EQ(count(TILE_VERSION_FALLBACK), 1);
  EXPECT_EQ(tileRuntimeLaunchVersionCount(TILE_VERSION_FALLBACK), 1);
}

TEST_F(GuardedEntry, StoreThatWouldClipMidChunkFallsBack) {
  // Padded rows (pitch 40) satisfy the loads; the store's rows of 66 bytes
  // would clip inside a 16-byte chunk (store-bounds).
  EXPECT_EQ(call(view(64, 33, 40), view(64, 33, 40)), TILE_SUCCESS);
  EXPECT_EQ(launched(), "tiled_copy_kernel_fallback");
  EXPECT_EQ(count(TILE_VERSION_FALLBACK), 1);
}

TEST_F(GuardedEntry, MisalignedBaseFallsBackAndLogsOncePerSite) {
  setenv("TILE_LOG_FALLBACK", "1", 1);
  testing::internal::CaptureStderr();
  // A base 2 bytes past a 16-byte boundary (the type's offset is 0).
  Descriptor2 a = view(64, 64, 64);
  a.aligned = data.data() + 1;
  EXPECT_EQ(call(a, view(64, 64, 64)), TILE_SUCCESS);
  EXPECT_EQ(call(a, view(64, 64, 64)), TILE_SUCCESS);
  std::string log = testing::internal::GetCapturedStderr();
  unsetenv("TILE_LOG_FALLBACK");
  EXPECT_EQ(log, std::string("tile: ") + kSite +
                     ": guard failed (global-align: address % 16 == 0); "
                     "running the fallback version\n");
  EXPECT_EQ(launched(), "tiled_copy_kernel_fallback");
  EXPECT_EQ(count(TILE_VERSION_FALLBACK), 2);
}
