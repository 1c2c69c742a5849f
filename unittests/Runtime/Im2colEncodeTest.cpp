//===- Im2colEncodeTest.cpp - Im2col encode through the hook, the cache ---===//

#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using tile::runtime::test::Im2colMapArgs;
using tile::runtime::test::MapArgs;
using tile::runtime::test::MapStorage;

namespace {

int im2colCalls = 0;
int tiledCalls = 0;
int32_t im2colResult = 0;
Im2colMapArgs seen;
uint32_t seenRank = 0;
void *seenMap = nullptr;

// Fills the map with 0xee (0xff for the tiled hook), so each map shows which
// encoder made it, and stamps the address into bytes 0..7.
int32_t fakeIm2col(void *map, int32_t dataType, uint32_t rank, void *address,
                   const uint64_t *globalDim, const uint64_t *strides,
                   const int32_t *lower, const int32_t *upper,
                   uint32_t channelsPerPixel, uint32_t pixelsPerColumn,
                   const uint32_t *elementStrides, int32_t interleave,
                   int32_t swizzle, int32_t l2Promotion, int32_t oobFill) {
  ++im2colCalls;
  seen = Im2colMapArgs();
  for (int i = 0; i < 3; ++i)
    seen.lower[i] = seen.upper[i] = 99; // entries past rank - 2 stay 99
  seenMap = map;
  seenRank = rank;
  seen.dataType = dataType;
  seen.address = address;
  for (uint32_t i = 0; i < rank; ++i) {
    seen.globalDim[i] = globalDim[i];
    seen.elementStrides[i] = elementStrides[i];
    if (i > 0)
      seen.strides[i - 1] = strides[i - 1];
  }
  for (uint32_t i = 0; i + 2 < rank; ++i) {
    seen.lower[i] = lower[i];
    seen.upper[i] = upper[i];
  }
  seen.channelsPerPixel = channelsPerPixel;
  seen.pixelsPerColumn = pixelsPerColumn;
  seen.interleave = interleave;
  seen.swizzle = swizzle;
  seen.l2Promotion = l2Promotion;
  seen.oobFill = oobFill;
  if (im2colResult)
    return im2colResult;
  memset(map, 0xee, 128);
  uint64_t stamp = reinterpret_cast<uintptr_t>(address);
  memcpy(map, &stamp, sizeof(stamp));
  return 0;
}

int32_t fakeTiled(void *map, int32_t, uint32_t, void *address, const uint64_t *,
                  const uint64_t *, const uint32_t *, const uint32_t *, int32_t,
                  int32_t, int32_t, int32_t) {
  ++tiledCalls;
  memset(map, 0xff, 128);
  uint64_t stamp = reinterpret_cast<uintptr_t>(address);
  memcpy(map, &stamp, sizeof(stamp));
  return 0;
}

class RuntimeIm2col : public testing::Test {
protected:
  void SetUp() override {
    tileRuntimeSetEncodeHookForTesting(fakeTiled);
    tileRuntimeSetEncodeIm2colHookForTesting(fakeIm2col);
    tileRuntimeSetDriverVersionForTesting(13000);
    tileTensorMapCacheClear();
    tileRuntimeClearError();
    im2colCalls = tiledCalls = 0;
    im2colResult = 0;
  }
  void TearDown() override {
    tileTensorMapCacheClear();
    tileRuntimeSetEncodeHookForTesting(nullptr);
    tileRuntimeSetEncodeIm2colHookForTesting(nullptr);
    tileRuntimeSetDriverVersionForTesting(-1);
    tileRuntimeClearError();
  }
};

TEST_F(RuntimeIm2col, EncodePassesArgumentsAndPatches) {
  Im2colMapArgs args;
  args.dataType = 7; // FLOAT32
  args.channelsPerPixel = 32;
  args.pixelsPerColumn = 200;
  args.lower[0] = -2;
  args.lower[1] = -1;
  args.upper[0] = 0;
  args.upper[1] = -3;
  args.lower[2] = args.upper[2] = 5; // past rank - 2: not passed on
  args.elementStrides[1] = 2;
  args.elementStrides[2] = 3;
  args.oobFill = 1;
  args.l2Promotion = 3;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(im2colCalls, 1);
  EXPECT_EQ(tiledCalls, 0);
  EXPECT_EQ(seenMap, static_cast<void *>(map.bytes));
  EXPECT_EQ(seenRank, 4u);
  EXPECT_EQ(seen.dataType, 7);
  EXPECT_EQ(seen.address, args.address);
  const uint64_t dims[4] = {64, 8, 8, 2};
  const uint64_t strides[3] = {128, 1024, 8192};
  const uint32_t elementStrides[4] = {1, 2, 3, 1};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(seen.globalDim[i], dims[i]) << i;
    EXPECT_EQ(seen.elementStrides[i], elementStrides[i]) << i;
  }
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(seen.strides[i], strides[i]) << i;
  EXPECT_EQ(seen.lower[0], -2);
  EXPECT_EQ(seen.lower[1], -1);
  EXPECT_EQ(seen.lower[2], 99);
  EXPECT_EQ(seen.upper[0], 0);
  EXPECT_EQ(seen.upper[1], -3);
  EXPECT_EQ(seen.upper[2], 99);
  EXPECT_EQ(seen.channelsPerPixel, 32u);
  EXPECT_EQ(seen.pixelsPerColumn, 200u);
  EXPECT_EQ(seen.interleave, 0);
  EXPECT_EQ(seen.swizzle, 3);
  EXPECT_EQ(seen.l2Promotion, 3);
  EXPECT_EQ(seen.oobFill, 1);
  // 1 + 63 * 4 + 7 * 128 + 7 * 1024 + 1 * 8192 = 16509 bytes, driver 13000:
  // bit 85 cleared, nothing else.
  for (int i = 8; i < 128; ++i)
    EXPECT_EQ(map.bytes[i], i == 10 ? 0xce : 0xee) << i;
  EXPECT_STREQ(tileRuntimeLastError(), "");
}

TEST_F(RuntimeIm2col, PatchFollowsVersionAndSize) {
  Im2colMapArgs args;
  MapStorage map;
  tileRuntimeSetDriverVersionForTesting(13020);
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xee);
  tileRuntimeSetDriverVersionForTesting(13010);
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xce);
  // 1 + 63 * 2 + 7 * 128 + 7 * 1024 + 15 * 8192 = 131071 bytes: small.
  args.globalDim[3] = 16;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xce);
  // One more image: 139263 bytes, not small.
  args.globalDim[3] = 17;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xee);
}

TEST_F(RuntimeIm2col, DriverFailureCarriesResultName) {
  Im2colMapArgs args;
  MapStorage map;
  im2colResult = 1;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeIm2col: cuTensorMapEncodeIm2col failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  im2colResult = 2;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeIm2col: cuTensorMapEncodeIm2col failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_OUT_OF_MEMORY);
}

TEST_F(RuntimeIm2col, CacheHitReturnsSamePointer) {
  Im2colMapArgs args;
  const void *first = args.cached();
  ASSERT_NE(first, nullptr) << tileRuntimeLastError();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  EXPECT_EQ(args.cached(), first);
  EXPECT_EQ(args.cached(), first);
  EXPECT_EQ(im2colCalls, 1);
  EXPECT_EQ(tileTensorMapCacheSize(), 1u);
  // The cached map is patched like an encoded one.
  MapStorage direct;
  ASSERT_EQ(args.encode(direct.bytes), TILE_SUCCESS);
  EXPECT_EQ(memcmp(first, direct.bytes, 128), 0);
  EXPECT_EQ(static_cast<const unsigned char *>(first)[10], 0xce);
}

TEST_F(RuntimeIm2col, EveryKeyFieldCounts) {
  std::vector<Im2colMapArgs> variants(17);
  variants[1].address = reinterpret_cast<void *>(0x20000);
  variants[2].dataType = 1; // UINT16: same element size
  variants[3].rank = 3;
  variants[4].globalDim[2] = 9;
  variants[5].strides[0] = 256;
  variants[6].strides[2] = 16384;
  variants[7].lower[0] = 0;
  variants[8].lower[1] = -2;
  variants[9].upper[0] = 0;
  variants[10].upper[1] = -2;
  variants[11].channelsPerPixel = 56;
  variants[12].pixelsPerColumn = 32;
  variants[13].elementStrides[3] = 2;
  variants[14].swizzle = 0;
  variants[15].l2Promotion = 0;
  variants[16].oobFill = 1;
  std::vector<const void *> maps;
  for (const Im2colMapArgs &v : variants) {
    const void *map = v.cached();
    ASSERT_NE(map, nullptr) << tileRuntimeLastError();
    for (const void *other : maps)
      EXPECT_NE(map, other);
    maps.push_back(map);
  }
  EXPECT_EQ(im2colCalls, 17);
  EXPECT_EQ(tileTensorMapCacheSize(), 17u);
  for (size_t i = 0; i < variants.size(); ++i)
    EXPECT_EQ(variants[i].cached(), maps[i]);
  EXPECT_EQ(im2colCalls, 17);
}

TEST_F(RuntimeIm2col, EntriesBeyondRankAreIgnored) {
  Im2colMapArgs a, b;
  b.globalDim[4] = 77;
  b.strides[3] = 999;
  b.elementStrides[4] = 0;
  b.lower[2] = 200; // rank 4 has two spatial offsets
  b.upper[2] = -200;
  EXPECT_EQ(a.cached(), b.cached());
  EXPECT_EQ(im2colCalls, 1);
}

// A tiled request whose fields equal the im2col request's (box = channels x
// pixels, the remaining box entries 1) gets its own map from its own encoder.
TEST_F(RuntimeIm2col, TiledAndIm2colDoNotCollide) {
  Im2colMapArgs im2col;
  im2col.lower[0] = im2col.lower[1] = 0;
  im2col.upper[0] = im2col.upper[1] = 0;
  MapArgs tiled;
  tiled.rank = im2col.rank;
  for (int i = 0; i < 5; ++i) {
    tiled.globalDim[i] = im2col.globalDim[i];
    tiled.elementStrides[i] = im2col.elementStrides[i];
    tiled.boxDim[i] = 1;
  }
  for (int i = 0; i < 4; ++i)
    tiled.strides[i] = im2col.strides[i];
  tiled.boxDim[0] = im2col.channelsPerPixel;
  tiled.boxDim[1] = im2col.pixelsPerColumn / 8;
  tiled.boxDim[2] = 8;

  const void *tiledMap = tiled.cached();
  ASSERT_NE(tiledMap, nullptr) << tileRuntimeLastError();
  const void *im2colMap = im2col.cached();
  ASSERT_NE(im2colMap, nullptr) << tileRuntimeLastError();
  EXPECT_NE(tiledMap, im2colMap);
  EXPECT_EQ(tiledCalls, 1);
  EXPECT_EQ(im2colCalls, 1);
  EXPECT_EQ(tileTensorMapCacheSize(), 2u);
  EXPECT_EQ(static_cast<const unsigned char *>(tiledMap)[8], 0xff);
  EXPECT_EQ(static_cast<const unsigned char *>(im2colMap)[8], 0xee);
  // Hits in either order return each kind's own map.
  EXPECT_EQ(im2col.cached(), im2colMap);
  EXPECT_EQ(tiled.cached(), tiledMap);
  EXPECT_EQ(tiledCalls, 1);
  EXPECT_EQ(im2colCalls, 1);
}

TEST_F(RuntimeIm2col, FailuresAreNotCached) {
  Im2colMapArgs args;
  im2colResult = 1;
  EXPECT_EQ(args.cached(), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapIm2colGetCached: cuTensorMapEncodeIm2col failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  im2colResult = 0;
  EXPECT_NE(args.cached(), nullptr);
  EXPECT_EQ(im2colCalls, 2);
  // Malformed arguments are rejected before the key is read.
  Im2colMapArgs bad;
  bad.rank = 2;
  EXPECT_EQ(bad.cached(), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapIm2colGetCached: rank = 2 is outside 3..5 "
               "(im2col)");
  EXPECT_EQ(im2colCalls, 2);
}

TEST_F(RuntimeIm2col, ClearEmptiesBothKinds) {
  Im2colMapArgs im2col;
  MapArgs tiled;
  ASSERT_NE(im2col.cached(), nullptr);
  ASSERT_NE(tiled.cached(), nullptr);
  EXPECT_EQ(tileTensorMapCacheSize(), 2u);
  tileTensorMapCacheClear();
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  ASSERT_NE(im2col.cached(), nullptr);
  EXPECT_EQ(im2colCalls, 2);
}

} // namespace
