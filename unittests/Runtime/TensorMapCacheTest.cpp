//===- TensorMapCacheTest.cpp - Encode through the hook, and the cache ----===//

#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using tile::runtime::test::MapArgs;
using tile::runtime::test::MapStorage;

namespace {

std::atomic<int> encodeCalls{0};
std::atomic<int32_t> encodeResult{0};
MapArgs lastSeen;
uint32_t lastRank;

// Fills the map with 0xff (so the patch shows) and stamps the address into
// bytes 0..7, as the real encoder does in its own format.
int32_t fakeEncode(void *map, int32_t dataType, uint32_t rank, void *address,
                   const uint64_t *globalDim, const uint64_t *strides,
                   const uint32_t *boxDim, const uint32_t *elementStrides,
                   int32_t interleave, int32_t swizzle, int32_t l2Promotion,
                   int32_t oobFill) {
  encodeCalls.fetch_add(1);
  lastSeen.dataType = dataType;
  lastRank = rank;
  lastSeen.address = address;
  for (uint32_t i = 0; i < rank; ++i) {
    lastSeen.globalDim[i] = globalDim[i];
    lastSeen.boxDim[i] = boxDim[i];
    lastSeen.elementStrides[i] = elementStrides[i];
    if (i > 0)
      lastSeen.strides[i - 1] = strides[i - 1];
  }
  lastSeen.interleave = interleave;
  lastSeen.swizzle = swizzle;
  lastSeen.l2Promotion = l2Promotion;
  lastSeen.oobFill = oobFill;
  if (int32_t result = encodeResult.load())
    return result;
  memset(map, 0xff, 128);
  uint64_t stamp = reinterpret_cast<uintptr_t>(address);
  memcpy(map, &stamp, sizeof(stamp));
  return 0;
}

class RuntimeTensorMap : public testing::Test {
protected:
  void SetUp() override {
    tileRuntimeSetEncodeHookForTesting(fakeEncode);
    tileRuntimeSetDriverVersionForTesting(13000);
    tileTensorMapCacheClear();
    tileRuntimeClearError();
    encodeCalls = 0;
    encodeResult = 0;
  }
  void TearDown() override {
    tileTensorMapCacheClear();
    tileRuntimeSetEncodeHookForTesting(nullptr);
    tileRuntimeSetDriverVersionForTesting(-1);
    tileRuntimeClearError();
  }
};

TEST_F(RuntimeTensorMap, EncodePassesArgumentsAndPatches) {
  MapArgs args;
  args.oobFill = 1;
  args.l2Promotion = 3;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS) << tileRuntimeLastError();
  EXPECT_EQ(encodeCalls, 1);
  EXPECT_EQ(lastRank, 3u);
  EXPECT_EQ(lastSeen.dataType, 6);
  EXPECT_EQ(lastSeen.address, args.address);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(lastSeen.globalDim[i], args.globalDim[i]);
    EXPECT_EQ(lastSeen.boxDim[i], args.boxDim[i]);
    EXPECT_EQ(lastSeen.elementStrides[i], args.elementStrides[i]);
  }
  EXPECT_EQ(lastSeen.strides[0], 128u);
  EXPECT_EQ(lastSeen.strides[1], 1024u);
  EXPECT_EQ(lastSeen.swizzle, 3);
  EXPECT_EQ(lastSeen.l2Promotion, 3);
  EXPECT_EQ(lastSeen.oobFill, 1);
  // 4 KiB tensor, driver 13000: bit 85 cleared, nothing else.
  for (int i = 8; i < 128; ++i)
    EXPECT_EQ(map.bytes[i], i == 10 ? 0xdf : 0xff) << i;
  EXPECT_STREQ(tileRuntimeLastError(), "");
}

TEST_F(RuntimeTensorMap, NoPatchOnFixedDriver) {
  tileRuntimeSetDriverVersionForTesting(13020);
  MapArgs args;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xff);
  int32_t version = -1;
  EXPECT_EQ(tileRuntimeDriverVersion(&version), TILE_SUCCESS);
  EXPECT_EQ(version, 13020);
}

TEST_F(RuntimeTensorMap, NoPatchOnLargeTensor) {
  MapArgs args;
  // 1 + 63 * 2 + 7 * 128 + 128 * 1024 = 132095 bytes: not small. (With 128
  // rows it would be 131071, still below 128 KiB.)
  args.globalDim[2] = 129;
  MapStorage map;
  ASSERT_EQ(args.encode(map.bytes), TILE_SUCCESS);
  EXPECT_EQ(map.bytes[10], 0xff);
}

TEST_F(RuntimeTensorMap, DriverFailureCarriesResultName) {
  MapArgs args;
  MapStorage map;
  encodeResult = 1;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeTiled: cuTensorMapEncodeTiled failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  encodeResult = 2;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_OUT_OF_MEMORY);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeTiled: cuTensorMapEncodeTiled failed: "
               "CUDA_ERROR_OUT_OF_MEMORY (2)");
  encodeResult = 12345;
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_DRIVER);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeTiled: cuTensorMapEncodeTiled failed: "
               "CUDA_ERROR_UNKNOWN_CODE (12345)");
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_DRIVER);
}

TEST_F(RuntimeTensorMap, CacheHitReturnsSamePointer) {
  MapArgs args;
  const void *first = args.cached();
  ASSERT_NE(first, nullptr) << tileRuntimeLastError();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  EXPECT_EQ(args.cached(), first);
  EXPECT_EQ(args.cached(), first);
  EXPECT_EQ(encodeCalls, 1);
  EXPECT_EQ(tileTensorMapCacheSize(), 1u);
  // The cached map is patched like an encoded one.
  MapStorage direct;
  ASSERT_EQ(args.encode(direct.bytes), TILE_SUCCESS);
  EXPECT_EQ(memcmp(first, direct.bytes, 128), 0);
}

TEST_F(RuntimeTensorMap, EveryKeyFieldCounts) {
  std::vector<MapArgs> variants(12);
  variants[1].address = reinterpret_cast<void *>(0x20000);
  variants[2].dataType = 1; // UINT16: same element size
  variants[3].rank = 2;
  variants[4].globalDim[1] = 9;
  variants[5].strides[1] = 2048;
  variants[6].boxDim[1] = 4;
  variants[7].elementStrides[2] = 2;
  variants[8].swizzle = 0;
  variants[9].l2Promotion = 0;
  variants[10].oobFill = 1;
  variants[11].interleave = 1;
  std::vector<const void *> maps;
  for (const MapArgs &v : variants) {
    const void *map = v.cached();
    ASSERT_NE(map, nullptr) << tileRuntimeLastError();
    for (const void *other : maps)
      EXPECT_NE(map, other);
    maps.push_back(map);
  }
  EXPECT_EQ(encodeCalls, 12);
  EXPECT_EQ(tileTensorMapCacheSize(), 12u);
  for (size_t i = 0; i < variants.size(); ++i)
    EXPECT_EQ(variants[i].cached(), maps[i]);
  EXPECT_EQ(encodeCalls, 12);
}

TEST_F(RuntimeTensorMap, EntriesBeyondRankAreIgnored) {
  MapArgs a, b;
  a.rank = b.rank = 2;
  b.globalDim[2] = 77;
  b.strides[1] = 999;
  b.boxDim[3] = 0;
  EXPECT_EQ(a.cached(), b.cached());
  EXPECT_EQ(encodeCalls, 1);
}

TEST_F(RuntimeTensorMap, FailuresAreNotCached) {
  MapArgs args;
  encodeResult = 1;
  EXPECT_EQ(args.cached(), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapGetCached: cuTensorMapEncodeTiled failed: "
               "CUDA_ERROR_INVALID_VALUE (1)");
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  encodeResult = 0;
  EXPECT_NE(args.cached(), nullptr);
  EXPECT_EQ(encodeCalls, 2);
  // Malformed arguments are rejected before the key is read.
  MapArgs bad;
  bad.rank = 9;
  EXPECT_EQ(bad.cached(), nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapGetCached: rank = 9 is outside 1..5");
  EXPECT_EQ(tileTensorMapGetCached(6, 3, bad.address, nullptr, bad.strides,
                                   bad.boxDim, bad.elementStrides, 0, 3, 2, 0),
            nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapGetCached: globalDim is NULL");
}

TEST_F(RuntimeTensorMap, ClearEmptiesAndReencodes) {
  MapArgs args;
  ASSERT_NE(args.cached(), nullptr);
  tileTensorMapCacheClear();
  EXPECT_EQ(tileTensorMapCacheSize(), 0u);
  ASSERT_NE(args.cached(), nullptr);
  EXPECT_EQ(encodeCalls, 2);
  EXPECT_EQ(tileTensorMapCacheSize(), 1u);
}

TEST_F(RuntimeTensorMap, GrowsPastManyKeys) {
  const int n = 1000; // several table growths
  std::vector<const void *> maps;
  for (int i = 0; i < n; ++i) {
    MapArgs args;
    args.address = reinterpret_cast<void *>(uintptr_t(0x100000) + 256 * i);
    maps.push_back(args.cached());
    ASSERT_NE(maps.back(), nullptr);
  }
  EXPECT_EQ(tileTensorMapCacheSize(), size_t(n));
  for (int i = 0; i < n; ++i) {
    MapArgs args;
    args.address = reinterpret_cast<void *>(uintptr_t(0x100000) + 256 * i);
    ASSERT_EQ(args.cached(), maps[i]);
    uint64_t stamp;
    memcpy(&stamp, maps[i], sizeof(stamp));
    EXPECT_EQ(stamp, uintptr_t(0x100000) + 256 * i);
  }
  EXPECT_EQ(encodeCalls, n);
}

TEST_F(RuntimeTensorMap, ThreadSafeAndEncodesOncePerKey) {
  const int keys = 32, threads = 8, rounds = 200;
  std::vector<std::vector<const void *>> seen(
      threads, std::vector<const void *>(keys, nullptr));
  std::atomic<bool> go{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      while (!go.load())
        std::this_thread::yield();
      for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < keys; ++k) {
          int key = (k + t * 7) % keys; // threads start on different keys
          MapArgs args;
          args.address =
              reinterpret_cast<void *>(uintptr_t(0x400000) + 64 * key);
          const void *map = args.cached();
          if (!map || (seen[t][key] && seen[t][key] != map))
            failures.fetch_add(1);
          seen[t][key] = map;
        }
    });
  go = true;
  for (std::thread &thread : pool)
    thread.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(encodeCalls, keys);
  EXPECT_EQ(tileTensorMapCacheSize(), size_t(keys));
  for (int t = 1; t < threads; ++t)
    EXPECT_EQ(seen[t], seen[0]);
}

} // namespace
