//===- MemoryPoolTest.cpp - The runtime's stream-ordered pools ------------===//
//
// tileRuntimeMemAllocAsync and tileRuntimeMemPoolKeep against FakeCuda.cpp's
// library. The pools are process-wide (one per device, kept for the
// process), so this binary is theirs alone and its one test walks their
// life in order.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

namespace {

void *const kStream = reinterpret_cast<void *>(0x10);

TEST(RuntimeMemoryPool, CreatedOncePerDeviceKeepingWhatItIsTold) {
  ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
  memset(&fake(), 0, sizeof(FakeCudaState));

  // Before any pool exists the value is only kept for the pools to come.
  EXPECT_EQ(tileRuntimeMemPoolKeep(64ull << 20), TILE_SUCCESS);
  EXPECT_EQ(fake().poolSetAttributes, 0);

  // A pool the driver refuses: no allocation, the driver's error named.
  fake().poolCreateResult = 2;
  EXPECT_EQ(tileRuntimeMemAllocAsync(4096, kStream), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeMemAllocAsync: cuMemPoolCreate failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(fake().asyncAllocs, 0);
  fake().poolCreateResult = 0;

  // A pool that refuses the amount would keep nothing: it is destroyed and
  // the allocation fails with the driver's error.
  fake().poolSetAttributeResult = 1;
  EXPECT_EQ(tileRuntimeMemAllocAsync(4096, kStream), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeMemAllocAsync: cuMemPoolSetAttribute failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  EXPECT_EQ(fake().poolDestroys, 1);
  EXPECT_EQ(fake().asyncAllocs, 0);
  fake().poolSetAttributeResult = 0;

  // The first allocation makes device 0's pool: pinned device memory on
  // device 0, keeping 64 MiB across synchronizations.
  EXPECT_EQ(tileRuntimeMemAllocAsync(4096, kStream),
            reinterpret_cast<void *>(0x60000));
  EXPECT_EQ(fake().poolCreates, 3);
  EXPECT_EQ(fake().lastPoolAllocType, 1);
  EXPECT_EQ(fake().lastPoolLocationType, 1);
  EXPECT_EQ(fake().lastPoolDevice, 0);
  EXPECT_EQ(fake().poolThreshold, 64ull << 20);
  // Later ones reuse it.
  EXPECT_EQ(tileRuntimeMemAllocAsync(256, nullptr),
            reinterpret_cast<void *>(0x70000));
  EXPECT_EQ(fake().poolCreates, 3);
  EXPECT_EQ(fake().asyncAllocs, 2);

  // Another device's context gets a pool of its own, with the same value.
  mgpuSetDefaultDevice(1);
  memset(&fake(), 0, sizeof(FakeCudaState));
  EXPECT_EQ(tileRuntimeMemAllocAsync(128, kStream),
            reinterpret_cast<void *>(0x60000));
  EXPECT_EQ(fake().poolCreates, 1);
  EXPECT_EQ(fake().lastPoolDevice, 1);
  EXPECT_EQ(fake().poolThreshold, 64ull << 20);

  // A new value reaches both pools; 0 keeps nothing.
  EXPECT_EQ(tileRuntimeMemPoolKeep(0), TILE_SUCCESS);
  EXPECT_EQ(fake().poolSetAttributes, 3);
  EXPECT_EQ(fake().poolThreshold, 0u);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_SUCCESS);
  // A refusal is reported, and every pool is still asked.
  fake().poolSetAttributeResult = 1;
  EXPECT_EQ(tileRuntimeMemPoolKeep(1 << 20), TILE_ERROR_DRIVER);
  EXPECT_EQ(fake().poolSetAttributes, 5);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeMemPoolKeep: cuMemPoolSetAttribute failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  fake().poolSetAttributeResult = 0;
  EXPECT_STREQ(fake().memoryLog, "alloc 128 on 0x10 = 0x60000; ");
  mgpuSetDefaultDevice(0);
}

} // namespace
