//===- StreamWorkspaceTest.cpp - Stream workspaces against a fake libcuda -===//
//
// tileRuntimeStreamWorkspace and tileRuntimeReleaseStreamWorkspaces against
// FakeCuda.cpp's library, which logs cuMemAlloc, cuMemFree and
// cuThreadExchangeStreamCaptureMode in call order, counts memsets and the
// streams created, synchronized and destroyed, and hands out the device
// pointers 0x60000, 0x70000, ... (reset before each test).
//
//===----------------------------------------------------------------------===//

#include "FakeDriver.h"

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

uintptr_t address(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

void *const kStreamA = reinterpret_cast<void *>(0xa000);
void *const kStreamB = reinterpret_cast<void *>(0xb000);

void *counters(uint64_t bytes, void *stream = kStreamA) {
  return tileRuntimeStreamWorkspace("split counters", bytes, 1, stream);
}

class RuntimeStreamWorkspace : public FakeDriverTest {
protected:
  void TearDown() override {
    fake().capturing = 0;
    fake().memsetResult = 0;
    tileRuntimeReleaseStreamWorkspaces();
    FakeDriverTest::TearDown();
  }
};

TEST_F(RuntimeStreamWorkspace, ZeroedOnceAtAllocationThenReused) {
  void *first = counters(128);
  EXPECT_EQ(address(first), 0x60000u);
  // Zeroed in words on a non-blocking stream of the runtime's own, waited
  // for and destroyed, all in relaxed capture mode.
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().lastDst, 0x60000u);
  EXPECT_EQ(fake().lastCount, 32u);
  EXPECT_EQ(fake().lastValue, 0u);
  EXPECT_EQ(address(fake().lastMemsetStream), 0x4000u);
  EXPECT_EQ(fake().lastStreamFlags, 1u); // CU_STREAM_NON_BLOCKING
  EXPECT_EQ(fake().streamsCreated, 1);
  EXPECT_EQ(fake().streamSyncs, 1);
  EXPECT_EQ(fake().streamsDestroyed, 1);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 128 = 0x60000; mode 2 -> 0; ");
  // Later calls that need no more get the same buffer with no driver call:
  // its kernels keep it zero.
  EXPECT_EQ(counters(128), first);
  EXPECT_EQ(counters(4), first);
  EXPECT_EQ(fake().allocs, 1);
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(fake().streamsCreated, 1);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
}

TEST_F(RuntimeStreamWorkspace, ScratchIsNeitherZeroedNorTheZeroedOne) {
  void *scratch =
      tileRuntimeStreamWorkspace("split counters", 4096, 0, kStreamA);
  EXPECT_EQ(address(scratch), 0x60000u);
  EXPECT_EQ(fake().memset32s, 0);
  EXPECT_EQ(fake().streamsCreated, 0);
  // The same name zeroed is another buffer: scratch writes must not reach
  // the zero its users rely on.
  EXPECT_EQ(address(counters(64)), 0x70000u);
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(tileRuntimeStreamWorkspace("split counters", 4096, 0, kStreamA),
            scratch);
}

TEST_F(RuntimeStreamWorkspace, EachStreamAndNameItsOwn) {
  EXPECT_EQ(address(counters(64, kStreamA)), 0x60000u);
  EXPECT_EQ(address(counters(64, kStreamB)), 0x70000u);
  EXPECT_EQ(address(counters(64, nullptr)), 0x80000u);
  EXPECT_EQ(
      address(tileRuntimeStreamWorkspace("cut counters", 64, 1, kStreamA)),
      0x90000u);
  EXPECT_EQ(address(counters(64, kStreamB)), 0x70000u);
  EXPECT_EQ(fake().allocs, 4);
  EXPECT_EQ(fake().memset32s, 4);
}

TEST_F(RuntimeStreamWorkspace, LargerRequestReplacesZeroedAndKeepsTheOld) {
  EXPECT_EQ(address(counters(256)), 0x60000u);
  // 300 > 256: twice the old size, zeroed whole; the old buffer stays
  // allocated (queued launches or a captured graph may use it).
  EXPECT_EQ(address(counters(300)), 0x70000u);
  EXPECT_EQ(fake().lastAllocBytes, 512u);
  EXPECT_EQ(fake().lastDst, 0x70000u);
  EXPECT_EQ(fake().lastCount, 128u);
  EXPECT_EQ(fake().frees, 0);
  // A size that is not a multiple of 4 is rounded up for the word memset.
  EXPECT_EQ(address(counters(1027)), 0x80000u);
  EXPECT_EQ(fake().lastAllocBytes, 1028u);
  EXPECT_EQ(fake().lastCount, 257u);
  tileRuntimeReleaseStreamWorkspaces();
  EXPECT_EQ(fake().frees, 3);
}

TEST_F(RuntimeStreamWorkspace, AllocatesWhileAStreamIsCaptured) {
  fake().capturing = 1;
  EXPECT_EQ(address(counters(64)), 0x60000u) << tileRuntimeLastError();
  EXPECT_EQ(fake().memset32s, 1);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS);
}

TEST_F(RuntimeStreamWorkspace, FailedMemsetFreesAndNamesTheWorkspace) {
  fake().memsetResult = 999; // CUDA_ERROR_UNKNOWN
  EXPECT_EQ(counters(64), nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_DRIVER);
  std::string message = tileRuntimeLastError();
  EXPECT_NE(message.find("tileRuntimeStreamWorkspace: workspace \"split "
                         "counters\", stream 0xa000, 64 bytes"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("cuMemsetD32Async"), std::string::npos) << message;
  // Nothing half-made is kept: the buffer was freed, and the next call
  // allocates and zeroes afresh.
  EXPECT_EQ(fake().frees, 1);
  EXPECT_EQ(fake().streamsDestroyed, 1);
  tileRuntimeClearError();
  fake().memsetResult = 0;
  EXPECT_EQ(address(counters(64)), 0x70000u);
  EXPECT_EQ(fake().memset32s, 1);
}

TEST_F(RuntimeStreamWorkspace, RefusesANullNameAndZeroBytes) {
  EXPECT_EQ(tileRuntimeStreamWorkspace(nullptr, 64, 1, kStreamA), nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeStreamWorkspace: workspace is NULL (64 bytes)");
  tileRuntimeClearError();
  EXPECT_EQ(counters(0), nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeStreamWorkspace: workspace \"split counters\", "
               "stream 0xa000, 0 bytes: bytes is 0");
  tileRuntimeClearError();
  EXPECT_EQ(fake().allocs, 0);
}

} // namespace
