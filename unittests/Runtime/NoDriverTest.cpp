//===- NoDriverTest.cpp - Every entry point without a driver --------------===//
//
// Development and CI machines have no libcuda.so.1 (at most the toolkit's
// stub, which the runtime never loads). Every entry point must then fail
// cleanly: a status or NULL, TILE_ERROR_NO_DRIVER, a message, no abort.
//
//===----------------------------------------------------------------------===//

#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <string>

using tile::runtime::test::Im2colMapArgs;
using tile::runtime::test::MapArgs;
using tile::runtime::test::MapStorage;

namespace {

class RuntimeNoDriver : public testing::Test {
protected:
  void SetUp() override {
    if (tileRuntimeDriverAvailable())
      GTEST_SKIP() << "a CUDA driver is present";
    tileRuntimeClearError();
  }
  void TearDown() override { tileRuntimeClearError(); }

  /// The latest failure was "<where>: no CUDA driver: ..." and the sticky
  /// status says TILE_ERROR_NO_DRIVER.
  void expectNoDriver(const std::string &where) {
    std::string message = tileRuntimeLastError();
    std::string prefix = where + ": no CUDA driver: ";
    EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
    EXPECT_GT(message.size(), prefix.size()) << "no reason given";
    EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_NO_DRIVER) << where;
    tileRuntimeClearError();
  }

  // Handles that must never be dereferenced.
  void *fakeModule = reinterpret_cast<void *>(0x1000);
  void *fakeFunction = reinterpret_cast<void *>(0x2000);
  void *fakeStream = reinterpret_cast<void *>(0x3000);
  void *fakeEvent = reinterpret_cast<void *>(0x4000);
  void *fakeDevicePtr = reinterpret_cast<void *>(0x5000);
};

TEST_F(RuntimeNoDriver, DriverQueries) {
  EXPECT_EQ(tileRuntimeDriverAvailable(), 0);
  EXPECT_STREQ(tileRuntimeLastError(), ""); // the query sets no error
  EXPECT_EQ(tileRuntimeInit(), TILE_ERROR_NO_DRIVER);
  std::string message = tileRuntimeLastError();
  EXPECT_NE(message.find("libcuda.so.1"), std::string::npos) << message;
  expectNoDriver("tileRuntimeInit");
  int32_t version = -1;
  EXPECT_EQ(tileRuntimeDriverVersion(&version), TILE_ERROR_NO_DRIVER);
  EXPECT_EQ(version, 0);
  expectNoDriver("tileRuntimeDriverVersion");
}

TEST_F(RuntimeNoDriver, TensorMaps) {
  MapArgs args;
  MapStorage map;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileTensorMapEncodeTiled");
  EXPECT_EQ(args.cached(), nullptr);
  expectNoDriver("tileTensorMapGetCached");
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  // Validation and the pure helpers need no driver.
  EXPECT_EQ(args.validate(), TILE_SUCCESS);
}

TEST_F(RuntimeNoDriver, Im2colTensorMaps) {
  Im2colMapArgs args;
  MapStorage map;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileTensorMapEncodeIm2col");
  EXPECT_EQ(args.cached(), nullptr);
  expectNoDriver("tileTensorMapIm2colGetCached");
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  EXPECT_EQ(args.validate(), TILE_SUCCESS);
  // The tiled hook does not stand in for the im2col encoder.
  tileRuntimeSetEncodeHookForTesting(
      [](void *, int32_t, uint32_t, void *, const uint64_t *, const uint64_t *,
         const uint32_t *, const uint32_t *, int32_t, int32_t, int32_t,
         int32_t) { return int32_t(0); });
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_NO_DRIVER);
  tileRuntimeSetEncodeHookForTesting(nullptr);
  expectNoDriver("tileTensorMapEncodeIm2col");
}

TEST_F(RuntimeNoDriver, StatusModuleAndLaunch) {
  void *module = fakeModule;
  const char ptx[] = ".version 8.0\n";
  EXPECT_EQ(tileModuleLoad(&module, ptx, sizeof(ptx)), TILE_ERROR_NO_DRIVER);
  EXPECT_EQ(module, nullptr);
  expectNoDriver("tileModuleLoad");
  EXPECT_EQ(tileModuleUnload(fakeModule), TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileModuleUnload");
  EXPECT_EQ(tileModuleUnload(nullptr), TILE_SUCCESS);
  void *function = fakeFunction;
  EXPECT_EQ(tileModuleGetFunction(&function, fakeModule, "k"),
            TILE_ERROR_NO_DRIVER);
  EXPECT_EQ(function, nullptr);
  expectNoDriver("tileModuleGetFunction");
  const uint32_t grid[3] = {4, 1, 1}, block[3] = {128, 1, 1},
                 cluster[3] = {2, 1, 1};
  EXPECT_EQ(
      tileLaunchKernel(fakeFunction, grid, block, nullptr, 0, nullptr, nullptr),
      TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileLaunchKernel");
  EXPECT_EQ(tileLaunchKernel(fakeFunction, grid, block, cluster, 200 * 1024,
                             fakeStream, nullptr),
            TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileLaunchKernel");
  EXPECT_EQ(tileStreamSynchronize(fakeStream), TILE_ERROR_NO_DRIVER);
  expectNoDriver("tileStreamSynchronize");
}

TEST_F(RuntimeNoDriver, MgpuModuleAndLaunch) {
  const char ptx[] = ".version 8.0\n";
  EXPECT_EQ(mgpuModuleLoad(const_cast<char *>(ptx), sizeof(ptx)), nullptr);
  expectNoDriver("mgpuModuleLoad");
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(ptx), 2), nullptr);
  expectNoDriver("mgpuModuleLoadJIT");
  mgpuModuleUnload(fakeModule);
  expectNoDriver("mgpuModuleUnload");
  EXPECT_EQ(mgpuModuleGetFunction(fakeModule, "k"), nullptr);
  expectNoDriver("mgpuModuleGetFunction");
  mgpuLaunchKernel(fakeFunction, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr,
                   nullptr, 0);
  expectNoDriver("mgpuLaunchKernel");
  mgpuLaunchClusterKernel(fakeFunction, 2, 1, 1, 2, 1, 1, 32, 1, 1, 0, nullptr,
                          nullptr, nullptr, 0);
  expectNoDriver("mgpuLaunchClusterKernel");
}

TEST_F(RuntimeNoDriver, MgpuStreamsAndEvents) {
  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  expectNoDriver("mgpuStreamCreate");
  mgpuStreamDestroy(fakeStream);
  expectNoDriver("mgpuStreamDestroy");
  mgpuStreamSynchronize(fakeStream);
  expectNoDriver("mgpuStreamSynchronize");
  mgpuStreamWaitEvent(fakeStream, fakeEvent);
  expectNoDriver("mgpuStreamWaitEvent");
  EXPECT_EQ(mgpuEventCreate(), nullptr);
  expectNoDriver("mgpuEventCreate");
  mgpuEventDestroy(fakeEvent);
  expectNoDriver("mgpuEventDestroy");
  mgpuEventSynchronize(fakeEvent);
  expectNoDriver("mgpuEventSynchronize");
  mgpuEventRecord(fakeEvent, fakeStream);
  expectNoDriver("mgpuEventRecord");
}

TEST_F(RuntimeNoDriver, MgpuMemory) {
  EXPECT_EQ(mgpuMemAlloc(1024, nullptr, false), nullptr);
  expectNoDriver("mgpuMemAlloc");
  EXPECT_EQ(mgpuMemAlloc(1024, nullptr, true), nullptr);
  expectNoDriver("mgpuMemAlloc");
  mgpuMemFree(fakeDevicePtr, nullptr);
  expectNoDriver("mgpuMemFree");
  char host[16];
  mgpuMemcpy(fakeDevicePtr, host, sizeof(host), nullptr);
  expectNoDriver("mgpuMemcpy");
  mgpuMemset32(fakeDevicePtr, 7, 4, nullptr);
  expectNoDriver("mgpuMemset32");
  mgpuMemset16(fakeDevicePtr, 7, 8, nullptr);
  expectNoDriver("mgpuMemset16");
  mgpuSetDefaultDevice(0);
  expectNoDriver("mgpuSetDefaultDevice");
}

TEST_F(RuntimeNoDriver, LongestFirstTables) {
  int64_t length = -1;
  EXPECT_EQ(tileRuntimeLongestFirstTable(16, 16, 128, 32, 132, 1, &length),
            nullptr);
  EXPECT_EQ(length, 0);
  expectNoDriver("tileRuntimeLongestFirstTable: 16 query blocks, 16 KV "
                 "blocks, 128 heads in sections of 32, 132 CTAs, tile cost 1");
  tileRuntimeReleaseLongestFirstTables(); // nothing to free, no driver needed
}

TEST_F(RuntimeNoDriver, DeviceMapArrays) {
  EXPECT_EQ(tileRuntimeDeviceMapArray("site", 256), nullptr);
  expectNoDriver("tileRuntimeDeviceMapArray: site \"site\", 256 bytes");
  tileRuntimeReleaseDeviceMapArrays(); // nothing to free, no driver needed
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
  EXPECT_STREQ(tileRuntimeLastError(), "");
}

TEST_F(RuntimeNoDriver, NullHandlesAreHarmless) {
  mgpuModuleUnload(nullptr);
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  mgpuMemFree(nullptr, nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
  EXPECT_STREQ(tileRuntimeLastError(), "");
}

// Argument errors are reported before the driver is needed.
TEST_F(RuntimeNoDriver, ArgumentErrorsComeFirst) {
  const uint32_t grid[3] = {4, 1, 1}, block[3] = {128, 1, 1};
  const uint32_t badGrid[3] = {4, 0, 1}, badCluster[3] = {3, 1, 1};
  EXPECT_EQ(
      tileLaunchKernel(nullptr, grid, block, nullptr, 0, nullptr, nullptr),
      TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), "tileLaunchKernel: function is NULL");
  EXPECT_EQ(tileLaunchKernel(fakeFunction, badGrid, block, nullptr, 0, nullptr,
                             nullptr),
            TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileLaunchKernel: gridY = 0 must be >= 1");
  EXPECT_EQ(tileLaunchKernel(fakeFunction, grid, block, badCluster, 0, nullptr,
                             nullptr),
            TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileLaunchKernel: gridX = 4 is not a multiple of clusterX = 3");
  EXPECT_EQ(tileLaunchKernel(fakeFunction, nullptr, block, nullptr, 0, nullptr,
                             nullptr),
            TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), "tileLaunchKernel: grid is NULL");
  mgpuLaunchKernel(fakeFunction, -1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                   nullptr, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuLaunchKernel: gridX = -1 is outside 1..4294967295");
  mgpuLaunchKernel(fakeFunction, 1, 1, 1, 1, 1, 1, -5, nullptr, nullptr,
                   nullptr, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuLaunchKernel: smem = -5 is negative");
  mgpuLaunchKernel(fakeFunction, 1, 1, 1, 1, 1, 1, -1, nullptr, nullptr,
                   nullptr, 0);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuLaunchKernel: smem = -1 is negative");
  mgpuLaunchClusterKernel(fakeFunction, 0, 1, 1, 2, 1, 1, 32, 1, 1, 0, nullptr,
                          nullptr, nullptr, 0);
  EXPECT_STREQ(
      tileRuntimeLastError(),
      "mgpuLaunchClusterKernel: clusterX = 0 is outside 1..4294967295");
  void *module = fakeModule;
  EXPECT_EQ(tileModuleLoad(&module, nullptr, 0), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(), "tileModuleLoad: image is NULL");
  EXPECT_EQ(module, nullptr);
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>("x"), 9), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuModuleLoadJIT: optLevel = 9 is outside 0..4");
  EXPECT_EQ(mgpuModuleGetFunction(nullptr, "k"), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(), "mgpuModuleGetFunction: module is NULL");
  mgpuSetDefaultDevice(-1);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuSetDefaultDevice: device -1 is outside 0..63");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
}

} // namespace
