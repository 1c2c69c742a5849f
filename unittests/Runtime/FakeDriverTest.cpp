//===- FakeDriverTest.cpp - Driver paths against a fake libcuda -----------===//
//
// Runs the module, launch, stream, event, memory and encode paths on a CPU
// machine by pointing the runtime at FakeCuda.cpp's library.
//
//===----------------------------------------------------------------------===//

#include "FakeDriver.h"
#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using tile::runtime::test::Im2colMapArgs;
using tile::runtime::test::MapArgs;
using tile::runtime::test::MapStorage;

namespace {

using RuntimeFakeDriver = FakeDriverTest;

TEST_F(RuntimeFakeDriver, InitAndVersion) {
  EXPECT_EQ(tileRuntimeDriverAvailable(), 1);
  int32_t version = 0;
  EXPECT_EQ(tileRuntimeDriverVersion(&version), TILE_SUCCESS);
  EXPECT_EQ(version, 13000);
}

TEST_F(RuntimeFakeDriver, EncodeUsesDriverAndPatches) {
  MapArgs args;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().encodeCalls, 1);
  EXPECT_EQ(map.bytes[10], 0xdf);   // driver 13000, 4 KiB tensor
  EXPECT_EQ(fake().contextSets, 1); // the primary context became current
  tileTensorMapCacheClear();
  const void *cached = args.cached();
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(memcmp(cached, map.bytes, 128), 0);
  EXPECT_EQ(args.cached(), cached);
  EXPECT_EQ(fake().encodeCalls, 2);
  tileTensorMapCacheClear();
}

TEST_F(RuntimeFakeDriver, EncodeIm2colUsesDriverAndPatches) {
  Im2colMapArgs args;
  args.lower[0] = -2;
  args.upper[1] = 1;
  args.channelsPerPixel = 32;
  args.pixelsPerColumn = 100;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().encodeIm2colCalls, 1);
  EXPECT_EQ(fake().encodeCalls, 0);
  EXPECT_EQ(fake().lastIm2colRank, 4u);
  EXPECT_EQ(fake().lastIm2colAddress, 0x10000u);
  EXPECT_EQ(fake().lastIm2colLower[0], -2);
  EXPECT_EQ(fake().lastIm2colLower[1], -1);
  EXPECT_EQ(fake().lastIm2colUpper[0], -1);
  EXPECT_EQ(fake().lastIm2colUpper[1], 1);
  EXPECT_EQ(fake().lastIm2colChannels, 32u);
  EXPECT_EQ(fake().lastIm2colPixels, 100u);
  EXPECT_EQ(map.bytes[9], 0xee);
  EXPECT_EQ(map.bytes[10], 0xce); // driver 13000, 16 KiB tensor
  tileTensorMapCacheClear();
  const void *cached = args.cached();
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(memcmp(cached, map.bytes, 128), 0);
  EXPECT_EQ(args.cached(), cached);
  EXPECT_EQ(fake().encodeIm2colCalls, 2);
  tileTensorMapCacheClear();
}

TEST_F(RuntimeFakeDriver, ModuleLoad) {
  void *module = nullptr;
  const char ptx[] = ".version 8.0";
  ASSERT_EQ(tileModuleLoad(&module, ptx, sizeof(ptx)), TILE_SUCCESS);
  EXPECT_EQ(module, reinterpret_cast<void *>(0x2000));
  EXPECT_EQ(fake().lastOptLevel, -1);
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(ptx), 3), module);
  EXPECT_EQ(fake().lastOptLevel, 3);
  EXPECT_EQ(mgpuModuleLoad(const_cast<char *>(ptx), sizeof(ptx)), module);
  EXPECT_EQ(fake().lastOptLevel, -1);
  mgpuModuleUnload(module);
  EXPECT_EQ(tileModuleUnload(module), TILE_SUCCESS);
  EXPECT_EQ(fake().moduleUnloads, 2);
}

TEST_F(RuntimeFakeDriver, ModuleLoadFailureCarriesJitLog) {
  void *module = reinterpret_cast<void *>(1);
  EXPECT_EQ(tileModuleLoad(&module, "bad ptx", 8), TILE_ERROR_DRIVER);
  EXPECT_EQ(module, nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileModuleLoad: cuModuleLoadDataEx failed: "
               "CUDA_ERROR_INVALID_PTX (218): ptxas fatal: bad input");
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>("bad"), 2), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuModuleLoadJIT: cuModuleLoadDataEx failed: "
               "CUDA_ERROR_INVALID_PTX (218): ptxas fatal: bad input");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
}

TEST_F(RuntimeFakeDriver, GetFunction) {
  void *module = reinterpret_cast<void *>(0x2000);
  void *function = nullptr;
  ASSERT_EQ(tileModuleGetFunction(&function, module, "kernel"), TILE_SUCCESS);
  EXPECT_EQ(function, reinterpret_cast<void *>(0x3000));
  EXPECT_EQ(mgpuModuleGetFunction(module, "kernel"), function);
  EXPECT_EQ(tileModuleGetFunction(&function, module, "missing"),
            TILE_ERROR_DRIVER);
  EXPECT_EQ(function, nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileModuleGetFunction: cuModuleGetFunction(\"missing\") "
               "failed: CUDA_ERROR_NOT_FOUND (500)");
  EXPECT_EQ(mgpuModuleGetFunction(module, "missing"), nullptr);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
}

TEST_F(RuntimeFakeDriver, PlainLaunch) {
  void *function = reinterpret_cast<void *>(0x3000);
  void *stream = reinterpret_cast<void *>(0x4000);
  int arg = 5;
  void *params[] = {&arg};
  const uint32_t grid[3] = {8, 2, 1}, block[3] = {128, 1, 1};
  const uint32_t noCluster[3] = {1, 1, 1};
  ASSERT_EQ(
      tileLaunchKernel(function, grid, block, noCluster, 1024, stream, params),
      TILE_SUCCESS);
  EXPECT_EQ(fake().launches, 1);
  EXPECT_EQ(fake().launchExCalls, 0);
  EXPECT_EQ(fake().funcAttributeCalls, 0); // 1 KiB needs no opt-in
  EXPECT_EQ(fake().grid[0], 8u);
  EXPECT_EQ(fake().grid[1], 2u);
  EXPECT_EQ(fake().block[0], 128u);
  EXPECT_EQ(fake().smem, 1024u);
  EXPECT_EQ(fake().stream, stream);
  EXPECT_EQ(fake().params, params);
  EXPECT_EQ(fake().extra, nullptr);

  void *extra[] = {nullptr};
  mgpuLaunchKernel(function, 3, 4, 5, 32, 2, 1, 0, nullptr, params, extra, 1);
  EXPECT_EQ(fake().launches, 2);
  EXPECT_EQ(fake().grid[2], 5u);
  EXPECT_EQ(fake().block[1], 2u);
  EXPECT_EQ(fake().extra, extra);
}

TEST_F(RuntimeFakeDriver, LargeSharedMemoryOptsIn) {
  void *function = reinterpret_cast<void *>(0x3000);
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
  ASSERT_EQ(tileLaunchKernel(function, grid, block, nullptr, 48 * 1024, nullptr,
                             nullptr),
            TILE_SUCCESS);
  EXPECT_EQ(fake().funcAttributeCalls, 0);
  // 48 KiB of dynamic shared memory plus static shared memory (an mbarrier)
  // exceeds the default limit: the H200 refuses such a launch without the
  // opt-in.
  fake().staticSmem = 8;
  ASSERT_EQ(tileLaunchKernel(function, grid, block, nullptr, 48 * 1024, nullptr,
                             nullptr),
            TILE_SUCCESS);
  EXPECT_EQ(fake().funcAttributeCalls, 1);
  EXPECT_EQ(fake().lastFuncAttributeValue, 48 * 1024);
  fake().staticSmem = 0;
  fake().funcAttributeCalls = 0;
  ASSERT_EQ(tileLaunchKernel(function, grid, block, nullptr, 200 * 1024,
                             nullptr, nullptr),
            TILE_SUCCESS);
  EXPECT_EQ(fake().funcAttributeCalls, 1);
  EXPECT_EQ(fake().lastFuncAttribute, 8);
  EXPECT_EQ(fake().lastFuncAttributeValue, 200 * 1024);
  EXPECT_EQ(fake().smem, 200u * 1024u);

  EXPECT_EQ(tileLaunchKernel(function, grid, block, nullptr, 240 * 1024,
                             nullptr, nullptr),
            TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileLaunchKernel: "
               "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, 245760) "
               "failed: CUDA_ERROR_INVALID_VALUE (1); device opt-in limit "
               "232448 bytes");
  EXPECT_EQ(fake().launches, 3);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
}

// An argument error after a driver failure: status and message both move to
// the latest failure; a successful launch changes neither.
TEST_F(RuntimeFakeDriver, LatestFailureWinsStatusAndMessage) {
  void *function = reinterpret_cast<void *>(0x3000);
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
  tileRuntimeClearError();
  EXPECT_EQ(
      tileLaunchKernel(nullptr, grid, block, nullptr, 0, nullptr, nullptr),
      TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(tileLaunchKernel(function, grid, block, nullptr, 240 * 1024,
                             nullptr, nullptr),
            TILE_ERROR_DRIVER);
  const char *driverMessage =
      "tileLaunchKernel: cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, "
      "245760) failed: CUDA_ERROR_INVALID_VALUE (1); device opt-in limit "
      "232448 bytes";
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(), driverMessage);
  EXPECT_EQ(
      tileLaunchKernel(function, grid, block, nullptr, 0, nullptr, nullptr),
      TILE_SUCCESS);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(), driverMessage);
  EXPECT_EQ(
      tileLaunchKernel(nullptr, grid, block, nullptr, 0, nullptr, nullptr),
      TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), "tileLaunchKernel: function is NULL");
  tileRuntimeClearError();
}

// cuFuncSetAttribute takes an int: sizes from 2^31 up would wrap to a
// negative number and skip the opt-in, so they are refused before any driver
// call.
TEST_F(RuntimeFakeDriver, SharedMemoryAboveIntMaxIsRefused) {
  void *function = reinterpret_cast<void *>(0x3000);
  const uint32_t grid[3] = {1, 1, 1}, block[3] = {128, 1, 1};
  for (uint32_t smem : {0x80000000u, 0xFFFFFFFFu}) {
    tileRuntimeClearError();
    EXPECT_EQ(tileLaunchKernel(function, grid, block, nullptr, smem, nullptr,
                               nullptr),
              TILE_ERROR_INVALID_VALUE);
    EXPECT_EQ(tileRuntimeLastError(),
              "tileLaunchKernel: smemBytes = " + std::to_string(smem) +
                  " exceeds 2147483647, the largest dynamic shared-memory "
                  "size the driver takes");
    EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  }
  const uint32_t cluster[3] = {2, 1, 1};
  EXPECT_EQ(tileLaunchKernel(function, grid, block, cluster, 0x80000000u,
                             nullptr, nullptr),
            TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(fake().funcAttributeCalls, 0);
  EXPECT_EQ(fake().launches, 0);
  EXPECT_EQ(fake().launchExCalls, 0);
  // 2^31 - 1 passes the check and reaches the driver, which refuses it.
  tileRuntimeClearError();
  EXPECT_EQ(tileLaunchKernel(function, grid, block, nullptr, 0x7FFFFFFFu,
                             nullptr, nullptr),
            TILE_ERROR_DRIVER);
  EXPECT_EQ(fake().funcAttributeCalls, 1);
  EXPECT_EQ(fake().lastFuncAttributeValue, 0x7FFFFFFF);
  EXPECT_EQ(fake().launches, 0);
  tileRuntimeClearError();
}

TEST_F(RuntimeFakeDriver, ClusterLaunch) {
  void *function = reinterpret_cast<void *>(0x3000);
  const uint32_t grid[3] = {8, 2, 1}, block[3] = {128, 1, 1},
                 cluster[3] = {2, 1, 1};
  ASSERT_EQ(tileLaunchKernel(function, grid, block, cluster, 64 * 1024, nullptr,
                             nullptr),
            TILE_SUCCESS);
  EXPECT_EQ(fake().launches, 0);
  EXPECT_EQ(fake().launchExCalls, 1);
  EXPECT_EQ(fake().numAttrs, 1u);
  EXPECT_EQ(fake().cluster[0], 2u);
  EXPECT_EQ(fake().cluster[1], 1u);
  EXPECT_EQ(fake().cluster[2], 1u);
  EXPECT_EQ(fake().grid[0], 8u);
  EXPECT_EQ(fake().smem, 64u * 1024u);
  EXPECT_EQ(fake().lastFuncAttribute, 8); // the smem opt-in

  // Every cluster extent reaches the driver, z included.
  const uint32_t grid3[3] = {2, 4, 6}, cluster3[3] = {1, 2, 3};
  ASSERT_EQ(
      tileLaunchKernel(function, grid3, block, cluster3, 0, nullptr, nullptr),
      TILE_SUCCESS);
  EXPECT_EQ(fake().launchExCalls, 2);
  EXPECT_EQ(fake().cluster[0], 1u);
  EXPECT_EQ(fake().cluster[1], 2u);
  EXPECT_EQ(fake().cluster[2], 3u);
  EXPECT_EQ(fake().grid[0], 2u);
  EXPECT_EQ(fake().grid[1], 4u);
  EXPECT_EQ(fake().grid[2], 6u);

  // A cluster along z alone is a cluster launch too.
  const uint32_t gridZ[3] = {1, 1, 4}, clusterZ[3] = {1, 1, 2};
  ASSERT_EQ(
      tileLaunchKernel(function, gridZ, block, clusterZ, 0, nullptr, nullptr),
      TILE_SUCCESS);
  EXPECT_EQ(fake().launchExCalls, 3);
  EXPECT_EQ(fake().cluster[2], 2u);

  // mgpuLaunchClusterKernel, as MLIR 22 calls it; a 16-CTA cluster is
  // non-portable and needs the attribute.
  mgpuLaunchClusterKernel(function, 16, 1, 1, 32, 1, 1, 64, 1, 1, 0, nullptr,
                          nullptr, nullptr, 0);
  EXPECT_EQ(fake().launchExCalls, 4);
  EXPECT_EQ(fake().cluster[0], 16u);
  EXPECT_EQ(fake().lastFuncAttribute, 14);
  EXPECT_EQ(fake().lastFuncAttributeValue, 1);
}

TEST_F(RuntimeFakeDriver, StreamsAndEvents) {
  void *stream = mgpuStreamCreate();
  EXPECT_EQ(stream, reinterpret_cast<void *>(0x4000));
  EXPECT_EQ(fake().lastStreamFlags, 1u); // non-blocking, as upstream
  void *event = mgpuEventCreate();
  EXPECT_EQ(event, reinterpret_cast<void *>(0x5000));
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  mgpuEventSynchronize(event);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(tileStreamSynchronize(stream), TILE_SUCCESS);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  EXPECT_EQ(fake().streamsCreated, 1);
  EXPECT_EQ(fake().eventsCreated, 1);
  EXPECT_EQ(fake().eventRecords, 1);
  EXPECT_EQ(fake().streamWaits, 1);
  EXPECT_EQ(fake().eventSyncs, 1);
  EXPECT_EQ(fake().streamSyncs, 2);
  EXPECT_EQ(fake().eventsDestroyed, 1);
  EXPECT_EQ(fake().streamsDestroyed, 1);
}

TEST_F(RuntimeFakeDriver, Memory) {
  void *device = mgpuMemAlloc(4096, nullptr, false);
  EXPECT_EQ(device, reinterpret_cast<void *>(0x60000));
  EXPECT_EQ(fake().lastAllocBytes, 4096u);
  void *shared = mgpuMemAlloc(64, nullptr, true);
  EXPECT_EQ(shared, reinterpret_cast<void *>(0x70000));
  EXPECT_EQ(fake().managedAllocs, 1);
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr); // as upstream
  EXPECT_EQ(fake().allocs, 1);

  char host[32];
  mgpuMemcpy(device, host, sizeof(host), nullptr);
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(fake().lastDst, 0x60000u);
  EXPECT_EQ(fake().lastSrc, reinterpret_cast<uintptr_t>(host));
  EXPECT_EQ(fake().lastCount, sizeof(host));
  mgpuMemset32(device, 0xdeadbeef, 16, nullptr);
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().lastValue, 0xdeadbeefu);
  EXPECT_EQ(fake().lastCount, 16u);
  mgpuMemset16(device, 0x3c00, 32, nullptr);
  EXPECT_EQ(fake().memset16s, 1);
  EXPECT_EQ(fake().lastValue, 0x3c00u);
  mgpuMemFree(device, nullptr);
  mgpuMemFree(shared, nullptr);
  EXPECT_EQ(fake().frees, 2);
}

TEST_F(RuntimeFakeDriver, StreamOrderedMemory) {
  // What tile-compile makes of gpu.alloc async / gpu.dealloc async: the
  // allocation and the free go into the stream, and the host does not wait.
  void *stream = reinterpret_cast<void *>(0x10);
  fake().memoryLog[0] = '\0';
  void *device = tileRuntimeMemAllocAsync(4096, stream);
  EXPECT_EQ(device, reinterpret_cast<void *>(0x60000));
  tileRuntimeMemFreeAsync(device, stream);
  // The null stream is the legacy default stream, stream-ordered too.
  EXPECT_EQ(tileRuntimeMemAllocAsync(64, nullptr),
            reinterpret_cast<void *>(0x70000));
  tileRuntimeMemFreeAsync(nullptr, stream); // nothing to free
  EXPECT_EQ(tileRuntimeMemAllocAsync(0, stream), nullptr);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_SUCCESS);
  EXPECT_EQ(fake().asyncAllocs, 2);
  EXPECT_EQ(fake().asyncFrees, 1);
  EXPECT_EQ(fake().streamSyncs, 0);
  EXPECT_STREQ(fake().memoryLog, "alloc 4096 on 0x10 = 0x60000; "
                                 "free 0x60000 on 0x10; "
                                 "alloc 64 on (nil) = 0x70000; ");
  EXPECT_EQ(tileRuntimeMemAllocAsync(1ull << 41, stream), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeMemAllocAsync: cuMemAllocFromPoolAsync failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
  // mgpuMemAlloc stays synchronous whatever the stream, as upstream's.
  EXPECT_EQ(mgpuMemAlloc(256, stream, false),
            reinterpret_cast<void *>(0x80000));
  EXPECT_EQ(fake().asyncAllocs, 2);
}

TEST_F(RuntimeFakeDriver, OutOfDeviceMemory) {
  EXPECT_EQ(mgpuMemAlloc(1ull << 41, nullptr, false), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuMemAlloc: cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
}

TEST_F(RuntimeFakeDriver, DefaultDevice) {
  mgpuSetDefaultDevice(1);
  EXPECT_EQ(fake().lastDevice, 1);
  mgpuSetDefaultDevice(5);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuSetDefaultDevice: cuDeviceGet failed: "
               "CUDA_ERROR_INVALID_DEVICE (101)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  mgpuSetDefaultDevice(0);
  EXPECT_EQ(fake().lastDevice, 0);
}

} // namespace
