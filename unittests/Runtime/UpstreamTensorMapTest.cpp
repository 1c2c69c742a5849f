//===- UpstreamTensorMapTest.cpp - mgpuTensorMapEncodeTiledMemref ---------===//
//
// Upstream's TMA descriptor entry point against FakeCuda.cpp's library: the
// encode sees the memref's fields in the driver's order (offset included),
// the map gets one device copy in relaxed capture mode, an identical map
// reuses it without a driver call, and bad descriptors are errors with a
// message and a null result. The copies live for the process, so the tests
// share one binary of their own and run in order.
//
//===----------------------------------------------------------------------===//

#include "FakeDriver.h"

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

/// A rank-2 memref descriptor as the host lowering lays it out.
struct Descriptor2 {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

constexpr int64_t kF32 = 7; // CU_TENSOR_MAP_DATA_TYPE_FLOAT32

std::string lastError() {
  char text[512] = {};
  tileRuntimeGetLastError(text, sizeof(text));
  return text;
}

class UpstreamTensorMap : public FakeDriverTest {
protected:
  // The error tests end with the encode's error as the runtime's status.
  void TearDown() override { tileRuntimeClearError(); }
};

alignas(128) float storage[64 * 8 + 64];

TEST_F(UpstreamTensorMap, EncodesUploadsOnceAndReuses) {
  // A 64 x 8 f32 view 32 elements into its allocation, box 64 x 8.
  Descriptor2 d{storage, storage, 32, {64, 8}, {8, 1}};
  int64_t box[2] = {64, 8};
  void *map = mgpuTensorMapEncodeTiledMemref(2, &d, kF32, 0, 0, 0, 0, box);
  ASSERT_NE(map, nullptr) << lastError();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(map), 0x60000u);
  EXPECT_EQ(fake().encodeCalls, 1);
  EXPECT_EQ(fake().lastEncodeRank, 2u);
  EXPECT_EQ(fake().lastEncodeAddress,
            reinterpret_cast<uintptr_t>(storage) + 32 * sizeof(float));
  EXPECT_EQ(fake().lastEncodeDims[0], 8u);
  EXPECT_EQ(fake().lastEncodeDims[1], 64u);
  EXPECT_EQ(fake().lastEncodeStrides[0], 32u);
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(fake().lastDst, 0x60000u);
  EXPECT_EQ(fake().lastCount, 128u);
  EXPECT_EQ(fake().streamSyncs, 1);
  EXPECT_STREQ(fake().memoryLog,
               "mode 0 -> 2; alloc 128 = 0x60000; mode 2 -> 0; ");

  // The same map again: encoded, then found; no allocation, no copy.
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &d, kF32, 0, 0, 0, 0, box), map);
  EXPECT_EQ(fake().encodeCalls, 2);
  EXPECT_EQ(fake().allocs, 1);
  EXPECT_EQ(fake().memcpys, 1);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_SUCCESS) << lastError();
}

TEST_F(UpstreamTensorMap, NonUnitInnermostStrideIsAnError) {
  Descriptor2 d{storage, storage, 0, {32, 8}, {16, 2}};
  int64_t box[2] = {32, 8};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &d, kF32, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(lastError(),
            "mgpuTensorMapEncodeTiledMemref: the innermost stride is 2 "
            "elements; a tensor map's innermost dimension is contiguous");
  EXPECT_EQ(fake().encodeCalls, 0);
  EXPECT_EQ(fake().allocs, 0);
}

TEST_F(UpstreamTensorMap, RankOutsideOneToFiveIsAnError) {
  Descriptor2 d{storage, storage, 0, {64, 8}, {8, 1}};
  int64_t box[2] = {64, 8};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(6, &d, kF32, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(lastError(),
            "mgpuTensorMapEncodeTiledMemref: tensorRank = 6 is outside 1..5");
}

TEST_F(UpstreamTensorMap, AnInvalidMapIsTheValidatorsError) {
  // A 300-element box exceeds the driver's 256 per dimension.
  Descriptor2 d{storage, storage, 0, {512, 8}, {8, 1}};
  int64_t box[2] = {300, 8};
  EXPECT_EQ(mgpuTensorMapEncodeTiledMemref(2, &d, kF32, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(tileRuntimeGetStatus(), TILE_ERROR_INVALID_VALUE);
  EXPECT_NE(lastError().find("mgpuTensorMapEncodeTiledMemref: boxDim[1]"),
            std::string::npos)
      << lastError();
  EXPECT_EQ(fake().allocs, 0);
}

} // namespace
