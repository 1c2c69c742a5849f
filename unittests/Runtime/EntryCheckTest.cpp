//===- EntryCheckTest.cpp - Compiled entries check their arguments --------===//
//
// examples/copy_async_tma.mlir compiled by tile-compile: its entry
// `copy_async(memref<8x256xf16>, memref<8x256xf16>)` must refuse descriptors
// that differ from those types, naming the first differing field, and launch
// nothing; with matching descriptors it launches once (on the fake driver).
//
//===----------------------------------------------------------------------===//

#include "FakeEntry.h"

#include <gtest/gtest.h>

#include <vector>

extern "C" void _mlir_ciface_copy_async(Descriptor2 *a, Descriptor2 *b);

class EntryCheck : public testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(resetFakeRuntime(), TILE_SUCCESS) << tileRuntimeLastError();
  }
  Descriptor2 matching(std::vector<uint16_t> &data) {
    return {data.data(), data.data(), 0, {8, 256}, {256, 1}};
  }
  /// Calls the entry with `a` and `b`; returns the status it left.
  int32_t call(Descriptor2 a, Descriptor2 b) {
    _mlir_ciface_copy_async(&a, &b);
    return tileRuntimeConsumeStatus();
  }
  /// Calls the entry with `a` and a matching second buffer.
  int32_t call(Descriptor2 a) { return call(a, matching(bData)); }
  std::vector<uint16_t> aData = std::vector<uint16_t>(8 * 256);
  std::vector<uint16_t> bData = std::vector<uint16_t>(8 * 256);
};

TEST_F(EntryCheck, WrongSizesAreRefusedBeforeAnyLaunch) {
  Descriptor2 a{aData.data(), aData.data(), 0, {3, 7}, {7, 1}};
  EXPECT_EQ(call(a), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@copy_async: argument #0 (memref<8x256xf16>): size 0 is 3, "
               "expected 8; nothing was launched");
  EXPECT_EQ(fake().launches, 0);
}

TEST_F(EntryCheck, WrongStrideOrOffsetIsRefused) {
  Descriptor2 a = matching(aData);
  a.strides[0] = 512;
  EXPECT_EQ(call(a), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@copy_async: argument #0 (memref<8x256xf16>): stride 0 is "
               "512, expected 256; nothing was launched");
  a = matching(aData);
  a.offset = 5;
  EXPECT_EQ(call(a), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@copy_async: argument #0 (memref<8x256xf16>): offset is 5, "
               "expected 0; nothing was launched");
  EXPECT_EQ(fake().launches, 0);
}

TEST_F(EntryCheck, SecondArgumentIsCheckedToo) {
  Descriptor2 b = matching(bData);
  b.sizes[1] = 128;
  EXPECT_EQ(call(matching(aData), b), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "@copy_async: argument #1 (memref<8x256xf16>): size 1 is 128, "
               "expected 256; nothing was launched");
  EXPECT_EQ(fake().launches, 0);
}

TEST_F(EntryCheck, MatchingDescriptorsLaunch) {
  EXPECT_EQ(call(matching(aData)), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(fake().launches, 1);
}
