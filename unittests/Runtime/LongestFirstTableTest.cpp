//===- LongestFirstTableTest.cpp - Schedule tables against a fake libcuda -===//
//
// tileRuntimeLongestFirstTable and its memref form against FakeCuda.cpp's
// library, which logs cuMemAlloc, cuMemFree and the capture-mode exchanges
// in call order, hands out the device pointers 0x60000, 0x70000, ... and here
// keeps what each upload copied.
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace {

uintptr_t address(const void *pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

std::vector<int32_t> uploaded() {
  std::vector<int32_t> values(fake().copiedBytes / sizeof(int32_t));
  memcpy(values.data(), fake().copied, values.size() * sizeof(int32_t));
  return values;
}

class RuntimeLongestFirstTable : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
    memset(&fake(), 0, sizeof(FakeCudaState));
    fake().keepCopies = 1;
  }
  void TearDown() override {
    tileRuntimeReleaseLongestFirstTables();
    EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS) << tileRuntimeLastError();
    tileRuntimeClearError();
  }
};

// Two heads of three query blocks on two CTAs: the offsets 0, 3, 6, then
// CTA 0's tiles (head 0, blocks 2, 1, 0) and CTA 1's (head 1), uploaded
// once and waited for; the second request is a lookup.
TEST_F(RuntimeLongestFirstTable, BuildsUploadsOnceAndReuses) {
  int64_t length = -1;
  const int32_t *table =
      tileRuntimeLongestFirstTable(3, 3, 2, 2, 2, 0, &length);
  EXPECT_EQ(address(table), 0x60000u);
  EXPECT_EQ(length, 9);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 36 = 0x60000; mode 2 -> 0; ");
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(fake().lastDst, 0x60000u);
  EXPECT_EQ(fake().lastCount, 36u);
  EXPECT_EQ(fake().streamSyncs, 1);
  // On a non-blocking stream of its own, made for the upload.
  EXPECT_EQ(fake().streamsCreated, 1);
  EXPECT_EQ(fake().streamsDestroyed, 1);
  EXPECT_EQ(fake().lastStreamFlags, 1u);
  EXPECT_EQ(uploaded(), (std::vector<int32_t>{0, 3, 6, 2, 1, 0, 5, 4, 3}));

  EXPECT_EQ(tileRuntimeLongestFirstTable(3, 3, 2, 2, 2, 0, nullptr), table);
  EXPECT_EQ(fake().allocs, 1);
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(fake().streamSyncs, 1);

  // Another problem (one more CTA) has a table of its own.
  EXPECT_EQ(address(tileRuntimeLongestFirstTable(3, 3, 2, 2, 3, 0, &length)),
            0x70000u);
  EXPECT_EQ(length, 10);
  tileRuntimeReleaseLongestFirstTables();
  std::vector<uint64_t> freed(fake().freed, fake().freed + fake().frees);
  std::sort(freed.begin(), freed.end());
  EXPECT_EQ(freed, (std::vector<uint64_t>{0x60000, 0x70000}));
}

// The memref form: the table's pointer twice, offset 0, its length, stride 1.
TEST_F(RuntimeLongestFirstTable, MemrefDescriptor) {
  TileRuntimeI32Memref m;
  memset(&m, 0xff, sizeof(m));
  _mlir_ciface_tileRuntimeLongestFirstTable(&m, 16, 16, 128, 32, 132, 1);
  EXPECT_EQ(address(m.allocated), 0x60000u);
  EXPECT_EQ(m.aligned, m.allocated);
  EXPECT_EQ(m.offset, 0);
  EXPECT_EQ(m.sizes[0], 133 + 16 * 128);
  EXPECT_EQ(m.strides[0], 1);
  EXPECT_EQ(fake().lastCount, (133u + 16 * 128) * 4);
}

// A problem with no tiles is an error that names the problem; the memref
// form is then NULL pointers of size 0, and nothing is allocated.
TEST_F(RuntimeLongestFirstTable, RejectsEmptyProblems) {
  int64_t length = -1;
  EXPECT_EQ(tileRuntimeLongestFirstTable(0, 1, 4, 1, 132, 1, &length), nullptr);
  EXPECT_EQ(length, 0);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeLongestFirstTable: 0 query blocks, 1 KV blocks, 4 "
               "heads in sections of 1, 132 CTAs, tile cost 1: no schedule "
               "(every count must be at least 1, the CTAs at most the tiles, "
               "the tile cost in [0, 1073741824], and the table at most "
               "2147479551 values)");
  TileRuntimeI32Memref m;
  memset(&m, 0xff, sizeof(m));
  _mlir_ciface_tileRuntimeLongestFirstTable(&m, 2, 2, 2, 1, 0, 0);
  EXPECT_EQ(m.allocated, nullptr);
  EXPECT_EQ(m.aligned, nullptr);
  EXPECT_EQ(m.sizes[0], 0);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(fake().allocs, 0);
  tileRuntimeClearError();
}

// A failed upload frees its array (in relaxed mode, before the thread's mode
// is restored) and keeps nothing: the next request builds it again.
TEST_F(RuntimeLongestFirstTable, FailedUploadFreesItsArray) {
  fake().memcpyResult = 1;
  EXPECT_EQ(tileRuntimeLongestFirstTable(3, 3, 2, 2, 2, 0, nullptr), nullptr);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeLongestFirstTable: 3 query blocks, 3 KV blocks, 2 "
               "heads in sections of 2, 2 CTAs, tile cost 0: cuMemcpyAsync "
               "failed: CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_STREQ(fake().memoryLog, "mode 0 -> 2; alloc 36 = 0x60000; free "
                                 "0x60000; mode 2 -> 0; ");
  EXPECT_EQ(fake().streamsCreated, fake().streamsDestroyed);
  tileRuntimeClearError();
  fake().memcpyResult = 0;
  EXPECT_EQ(address(tileRuntimeLongestFirstTable(3, 3, 2, 2, 2, 0, nullptr)),
            0x70000u);
  EXPECT_EQ(fake().allocs, 2);
}

// A refused allocation keeps nothing: the error names the problem and the
// driver's result, and the next request tries again.
TEST_F(RuntimeLongestFirstTable, RefusedAllocationKeepsNothing) {
  fake().capturing = 1;
  fake().exchangeResult = 0;
  // Relaxed mode lets the allocation through a capture.
  EXPECT_NE(tileRuntimeLongestFirstTable(2, 2, 1, 1, 1, 0, nullptr), nullptr);
  fake().capturing = 0;
  fake().exchangeResult = 1;
  EXPECT_EQ(tileRuntimeLongestFirstTable(2, 2, 1, 1, 2, 0, nullptr), nullptr);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeLongestFirstTable: 2 query blocks, 2 KV blocks, 1 "
               "heads in sections of 1, 2 CTAs, tile cost 0: "
               "cuThreadExchangeStreamCaptureMode failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  tileRuntimeClearError();
  fake().exchangeResult = 0;
  EXPECT_NE(tileRuntimeLongestFirstTable(2, 2, 1, 1, 2, 0, nullptr), nullptr);
  EXPECT_EQ(fake().allocs, 2);
}

// A table the driver will not free is recorded with its address (the
// device-map arrays' message) and forgotten.
TEST_F(RuntimeLongestFirstTable, FailedFreeIsRecordedAndForgotten) {
  EXPECT_EQ(address(tileRuntimeLongestFirstTable(2, 2, 1, 1, 1, 0, nullptr)),
            0x60000u);
  fake().capturing = 1; // cuMemFree refuses in global capture mode
  tileRuntimeReleaseLongestFirstTables();
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileRuntimeReleaseLongestFirstTables: cuMemFree(0x60000) "
               "failed: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
  fake().capturing = 0;
}

} // namespace
