//===- FakeNoDeviceTest.cpp - A driver whose cuInit fails -----------------===//
//
// A library that loads but whose cuInit fails (no device; the toolkit's stub
// answers CUDA_ERROR_STUB_LIBRARY) counts as no driver.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

namespace {

const bool kPathSet = [] {
  tileRuntimeSetDriverLibraryForTesting(FAKE_CUDA_PATH);
  return true;
}();

TEST(RuntimeFakeNoDevice, CuInitFailureIsNoDriver) {
  ASSERT_TRUE(kPathSet);
  tileRuntimeClearError();
  EXPECT_EQ(tileRuntimeDriverAvailable(), 0);
  EXPECT_EQ(tileRuntimeInit(), TILE_ERROR_NO_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeInit: no CUDA driver: cuInit failed: "
               "CUDA_ERROR_NO_DEVICE (100)");
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(".version 8.0"), 2), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuModuleLoadJIT: no CUDA driver: cuInit failed: "
               "CUDA_ERROR_NO_DEVICE (100)");
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  mgpuLaunchKernel(reinterpret_cast<void *>(0x3000), 1, 1, 1, 1, 1, 1, 0,
                   nullptr, nullptr, nullptr, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuLaunchKernel: no CUDA driver: cuInit failed: "
               "CUDA_ERROR_NO_DEVICE (100)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_NO_DRIVER);
}

} // namespace
