//===- DeviceMapArrayTest.cpp - Device-map arrays against a fake libcuda --===//
//
// tileRuntimeDeviceMapArray and tileRuntimeReleaseDeviceMapArrays against
// FakeCuda.cpp's library, which logs cuMemAlloc, cuMemFree and
// cuThreadExchangeStreamCaptureMode in call order and hands out the device
// pointers 0x60000, 0x70000, ... (reset before each test).
//
//===----------------------------------------------------------------------===//

#include "FakeDriver.h"

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace {

/// Sets the calling thread's capture mode in the fake; returns the old one.
int exchangeCaptureMode(int mode) {
  static FakeExchangeCaptureModeFn exchange =
      loadFakeExchangeCaptureMode(FAKE_CUDA_PATH);
  EXPECT_EQ(exchange(&mode), 0);
  return mode;
}

uintptr_t address(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

void *array(const char *site, uint64_t bytes) {
  return tileRuntimeDeviceMapArray(site, bytes);
}

/// The pointers the fake freed, sorted.
std::vector<uint64_t> freedSorted() {
  std::vector<uint64_t> freed(fake().freed, fake().freed + fake().frees);
  std::sort(freed.begin(), freed.end());
  return freed;
}

class RuntimeDeviceMapArray : public FakeDriverTest {
protected:
  void TearDown() override {
    fake().capturing = 0;
    fake().exchangeResult = 0;
    tileRuntimeReleaseDeviceMapArrays();
    FakeDriverTest::TearDown();
  }
};

TEST_F(RuntimeDeviceMapArray, RepeatedCallsReuseOneArray) {
  const char *site = "@f: launch of @kernels::@k";
  void *first = array(site, 1024);
  EXPECT_EQ(address(first), 0x60000u);
  EXPECT_EQ(array(site, 1024), first);
  EXPECT_EQ(array(site, 128), first);
  EXPECT_EQ(array(site, 1), first);
  EXPECT_EQ(fake().allocs, 1);
  EXPECT_EQ(fake().lastAllocBytes, 1024u);
  EXPECT_EQ(fake().frees, 0);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 1024 = 0x60000; mode 2 -> 0; ");
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
}

TEST_F(RuntimeDeviceMapArray, EqualTextsAreOneSite) {
  char one[] = "@f: launch of @kernels::@k";
  char two[sizeof(one)];
  memcpy(two, one, sizeof(one));
  void *first = array(one, 256);
  EXPECT_EQ(address(first), 0x60000u);
  EXPECT_EQ(array(two, 256), first);
  EXPECT_EQ(fake().allocs, 1);
}

TEST_F(RuntimeDeviceMapArray, LargerRequestReplacesAndKeepsTheOldArray) {
  const char *site = "grow";
  EXPECT_EQ(address(array(site, 256)), 0x60000u);
  // 384 > 256: a new array of twice the old size.
  EXPECT_EQ(address(array(site, 384)), 0x70000u);
  EXPECT_EQ(fake().lastAllocBytes, 512u);
  EXPECT_EQ(address(array(site, 512)), 0x70000u);
  // More than twice: exactly the request.
  EXPECT_EQ(address(array(site, 4096)), 0x80000u);
  EXPECT_EQ(fake().lastAllocBytes, 4096u);
  EXPECT_EQ(address(array(site, 100)), 0x80000u);
  EXPECT_EQ(fake().allocs, 3);
  EXPECT_EQ(fake().frees, 0); // replaced arrays stay allocated
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 256 = 0x60000; mode 2 -> 0; "
               "mode 0 -> 2; alloc 512 = 0x70000; mode 2 -> 0; "
               "mode 0 -> 2; alloc 4096 = 0x80000; mode 2 -> 0; ");
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 3);
  EXPECT_EQ(freedSorted(), (std::vector<uint64_t>{0x60000, 0x70000, 0x80000}));
}

TEST_F(RuntimeDeviceMapArray, TwoSitesGetTwoArrays) {
  void *a = array("site a", 256);
  void *b = array("site b", 256);
  EXPECT_EQ(address(a), 0x60000u);
  EXPECT_EQ(address(b), 0x70000u);
  EXPECT_EQ(array("site a", 256), a);
  EXPECT_EQ(array("site b", 128), b);
  EXPECT_EQ(fake().allocs, 2);
}

// Launches of one site on two streams may run at the same time: each stream
// has its own array; NULL is the stream of tileRuntimeDeviceMapArray.
TEST_F(RuntimeDeviceMapArray, StreamsHaveTheirOwnArrays) {
  void *s1 = reinterpret_cast<void *>(uintptr_t(0x1100));
  void *s2 = reinterpret_cast<void *>(uintptr_t(0x2200));
  void *none = array("site", 256);
  void *one = tileRuntimeDeviceMapArrayOnStream("site", 256, s1);
  void *two = tileRuntimeDeviceMapArrayOnStream("site", 256, s2);
  EXPECT_EQ(address(none), 0x60000u);
  EXPECT_EQ(address(one), 0x70000u);
  EXPECT_EQ(address(two), 0x80000u);
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream("site", 128, s1), one);
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream("site", 256, s2), two);
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream("site", 256, nullptr), none);
  EXPECT_EQ(fake().allocs, 3);
  // A larger request on one stream replaces that stream's array only.
  void *grown = tileRuntimeDeviceMapArrayOnStream("site", 1024, s1);
  EXPECT_EQ(address(grown), 0x90000u);
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream("site", 256, s2), two);
  EXPECT_EQ(array("site", 256), none);
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(freedSorted(),
            (std::vector<uint64_t>{0x60000, 0x70000, 0x80000, 0x90000}));
}

TEST_F(RuntimeDeviceMapArray, StreamErrorsNameTheStream) {
  void *s1 = reinterpret_cast<void *>(uintptr_t(0x1100));
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream("site", 0, s1), nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArrayOnStream: site \"site\", stream "
               "0x1100, 0 bytes: bytes is 0");
  tileRuntimeClearError();
  EXPECT_EQ(tileRuntimeDeviceMapArrayOnStream(nullptr, 64, s1), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArrayOnStream: site is NULL (64 bytes)");
  tileRuntimeClearError();
}

TEST_F(RuntimeDeviceMapArray, ContextsHaveTheirOwnArrays) {
  void *device0 = array("site", 256);
  EXPECT_EQ(address(device0), 0x60000u);
  mgpuSetDefaultDevice(1); // the primary context of device 1 becomes current
  void *device1 = array("site", 256);
  EXPECT_EQ(address(device1), 0x70000u);
  EXPECT_EQ(array("site", 256), device1);
  mgpuSetDefaultDevice(0);
  EXPECT_EQ(array("site", 256), device0);
  EXPECT_EQ(fake().allocs, 2);
  // Release frees each array in its context, then restores the current one.
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(freedSorted(), (std::vector<uint64_t>{0x60000, 0x70000}));
  EXPECT_EQ(fake().lastDevice, 0);
}

TEST_F(RuntimeDeviceMapArray, ReleaseFreesEveryArrayExactlyOnce) {
  EXPECT_EQ(address(array("a", 256)), 0x60000u);
  EXPECT_EQ(address(array("b", 256)), 0x70000u);
  EXPECT_EQ(address(array("a", 1024)), 0x80000u);
  EXPECT_EQ(address(array("b", 300)), 0x90000u);
  EXPECT_EQ(address(array("a", 4096)), 0xa0000u);
  EXPECT_EQ(fake().frees, 0);
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 5);
  EXPECT_EQ(freedSorted(), (std::vector<uint64_t>{0x60000, 0x70000, 0x80000,
                                                  0x90000, 0xa0000}));
  // Nothing is left to free; the sites start over.
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 5);
  EXPECT_EQ(address(array("a", 256)), 0xb0000u);
  EXPECT_EQ(fake().allocs, 6);
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 6);
  EXPECT_EQ(fake().freed[5], 0xb0000u);
}

TEST_F(RuntimeDeviceMapArray, AllocationRunsInRelaxedCaptureMode) {
  // While a stream is captured in global mode the driver refuses cuMemAlloc
  // in the default mode (as mgpuMemAlloc shows) ...
  fake().capturing = 1;
  EXPECT_EQ(mgpuMemAlloc(256, nullptr, false), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "mgpuMemAlloc: cuMemAlloc failed: "
               "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  EXPECT_STREQ(fake().memoryLog, "alloc 256 = error 900; ");
  fake().memoryLog[0] = '\0';
  // ... but not in relaxed mode, which the runtime switches to and back.
  void *site = array("captured", 256);
  EXPECT_EQ(address(site), 0x60000u);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 256 = 0x60000; mode 2 -> 0; ");
  EXPECT_EQ(exchangeCaptureMode(0), 0); // the thread's mode was restored
  // A hit touches neither the mode nor the allocator.
  EXPECT_EQ(array("captured", 128), site);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 256 = 0x60000; mode 2 -> 0; "
               "mode 0 -> 0; ");
  // A thread in another mode gets that mode back.
  fake().memoryLog[0] = '\0';
  EXPECT_EQ(exchangeCaptureMode(1), 0);
  EXPECT_EQ(address(array("thread-local", 256)), 0x70000u);
  EXPECT_EQ(exchangeCaptureMode(0), 1);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 1; mode 1 -> 2; alloc 256 = 0x70000; mode 2 -> 1; "
               "mode 1 -> 0; ");
  fake().capturing = 0;
}

TEST_F(RuntimeDeviceMapArray, AllocationFailureNamesSiteAndSize) {
  const char *site = "@f: launch of @kernels::@k";
  uint64_t tooMany = (1ull << 40) + 1;
  EXPECT_EQ(array(site, tooMany), nullptr);
  EXPECT_STREQ(
      tileRuntimeLastError(),
      "tileRuntimeDeviceMapArray: site \"@f: launch of @kernels::@k\", "
      "1099511627777 bytes: cuMemAlloc failed: "
      "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 1099511627777 = error 2; mode 2 -> 0; ");
  EXPECT_EQ(fake().allocs, 0);
  // Failures are not remembered.
  EXPECT_EQ(address(array(site, 256)), 0x60000u);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
}

TEST_F(RuntimeDeviceMapArray, FailedReplacementKeepsTheOldArray) {
  uint64_t half = (1ull << 39) + 1;
  void *old = array("grow", half);
  EXPECT_EQ(address(old), 0x60000u);
  // One byte more asks for twice the old size, above the fake's 1 TiB.
  EXPECT_EQ(array("grow", half + 1), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArray: site \"grow\", 549755813890 bytes: "
               "cuMemAlloc(1099511627778 bytes) failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(array("grow", half), old);
  EXPECT_EQ(fake().allocs, 1);
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 1);
  EXPECT_EQ(fake().freed[0], 0x60000u);
}

TEST_F(RuntimeDeviceMapArray, ZeroBytesAndNullSiteAreErrors) {
  EXPECT_EQ(array("site", 0), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArray: site \"site\", 0 bytes: bytes is 0");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(array(nullptr, 256), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArray: site is NULL (256 bytes)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(fake().allocs, 0);
  EXPECT_STREQ(fake().memoryLog, "");
}

TEST_F(RuntimeDeviceMapArray, CaptureModeExchangeFailureAllocatesNothing) {
  fake().exchangeResult = 1;
  EXPECT_EQ(array("site", 256), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeDeviceMapArray: site \"site\", 256 bytes: "
               "cuThreadExchangeStreamCaptureMode failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  EXPECT_EQ(fake().allocs, 0);
  fake().exchangeResult = 0;
  EXPECT_EQ(address(array("site", 256)), 0x60000u);
}

TEST_F(RuntimeDeviceMapArray, FailedFreeIsRecordedAndForgotten) {
  EXPECT_EQ(address(array("site", 256)), 0x60000u);
  fake().capturing = 1; // cuMemFree refuses in global capture mode
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeReleaseDeviceMapArrays: cuMemFree(0x60000) failed: "
               "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  fake().capturing = 0;
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 0);
}

TEST_F(RuntimeDeviceMapArray, ThreadsShareOneArrayPerSite) {
  constexpr int kThreads = 8, kCalls = 1000;
  std::vector<void *> seenB(kThreads, nullptr);
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        void *a = array("shared a", 256 + i % 256);
        void *b = array("shared b", 128);
        if (i == 0)
          seenB[t] = b;
        if (!a || !b || a == b)
          ++mismatches[t];
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
    EXPECT_EQ(seenB[t], seenB[0]) << "thread " << t;
  }
  // Site a grew once (256 -> 512 bytes), site b never: three arrays.
  EXPECT_EQ(fake().allocs, 3);
  tileRuntimeReleaseDeviceMapArrays();
  EXPECT_EQ(fake().frees, 3);
  EXPECT_EQ(freedSorted(), (std::vector<uint64_t>{0x60000, 0x70000, 0x80000}));
}

} // namespace
