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
  std::vector<MapArgs> variants(13);
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
  variants[12].strides[0] = 256; // the first stride too
  std::vector<const void *> maps;
  for (const MapArgs &v : variants) {
    const void *map = v.cached();
    ASSERT_NE(map, nullptr) << tileRuntimeLastError();
    for (const void *other : maps)
      EXPECT_NE(map, other);
    maps.push_back(map);
  }
  EXPECT_EQ(encodeCalls, 13);
  EXPECT_EQ(tileTensorMapCacheSize(), 13u);
  for (size_t i = 0; i < variants.size(); ++i)
    EXPECT_EQ(variants[i].cached(), maps[i]);
  EXPECT_EQ(encodeCalls, 13);
}

namespace {
// The cache's key hash (TensorMapCache.cpp): the key as 23 little-endian
// words (address; dataType, rank; interleave, swizzle; l2Promotion, oobFill;
// globalDim[5]; globalStrides[4]; boxDim[5] and elementStrides[5] as 32-bit
// halves; then the map kind and the im2col fields, all zero for a tiled map),
// each mixed in by an invertible step.
constexpr uint64_t kHashSeed = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kHashMul = 0xff51afd7ed558ccdull;

uint64_t mixWord(uint64_t h, uint64_t w) {
  h ^= w;
  h *= kHashMul;
  return h ^ (h >> 32);
}

uint64_t unmixWord(uint64_t after, uint64_t w) {
  uint64_t inverse = kHashMul; // Newton: 6 steps give 64 correct bits
  for (int i = 0; i < 6; ++i)
    inverse *= 2 - kHashMul * inverse;
  return ((after ^ (after >> 32)) * inverse) ^ w;
}

std::vector<uint64_t> keyWords(const MapArgs &a) {
  std::vector<uint64_t> w(23, 0);
  auto pair = [](uint64_t lo, uint64_t hi) {
    return (lo & 0xffffffffu) | (hi << 32);
  };
  uint32_t box[5] = {}, es[5] = {};
  w[0] = reinterpret_cast<uintptr_t>(a.address);
  w[1] = pair(uint32_t(a.dataType), uint32_t(a.rank));
  w[2] = pair(uint32_t(a.interleave), uint32_t(a.swizzle));
  w[3] = pair(uint32_t(a.l2Promotion), uint32_t(a.oobFill));
  for (int32_t i = 0; i < a.rank; ++i) {
    w[4 + i] = a.globalDim[i];
    if (i > 0)
      w[9 + i - 1] = a.strides[i - 1];
    box[i] = a.boxDim[i];
    es[i] = a.elementStrides[i];
  }
  w[13] = pair(box[0], box[1]);
  w[14] = pair(box[2], box[3]);
  w[15] = pair(box[4], es[0]);
  w[16] = pair(es[1], es[2]);
  w[17] = pair(es[3], es[4]);
  return w;
}

uint64_t keyHash(const MapArgs &a) {
  uint64_t h = kHashSeed;
  for (uint64_t w : keyWords(a))
    h = mixWord(h, w);
  return h;
}
} // namespace

// Two tensors whose keys hash alike must still get their own maps: the
// lookup compares the whole key, not only its hash. The second key's address
// is solved for so that its hash equals the first's.
TEST_F(RuntimeTensorMap, HashCollisionGetsItsOwnMap) {
  MapArgs a;
  std::vector<uint64_t> wa = keyWords(a);
  uint64_t target = kHashSeed; // a's state after globalDim[2] (word 6)
  for (int j = 0; j <= 6; ++j)
    target = mixWord(target, wa[j]);
  MapArgs b;
  bool found = false;
  for (uint64_t outer = 5; outer < 1000 && !found; ++outer) {
    b.globalDim[2] = outer;
    std::vector<uint64_t> wb = keyWords(b);
    uint64_t state = target;
    for (int j = 6; j >= 1; --j)
      state = unmixWord(state, wb[j]);
    uint64_t address = unmixWord(state, 0) ^ kHashSeed;
    b.address = reinterpret_cast<const void *>(uintptr_t(address));
    found = address != 0 && address % 16 == 0;
  }
  ASSERT_TRUE(found);
  ASSERT_NE(b.address, a.address);
  ASSERT_EQ(keyHash(a), keyHash(b));

  const void *mapA = a.cached();
  ASSERT_NE(mapA, nullptr) << tileRuntimeLastError();
  const void *mapB = b.cached();
  ASSERT_NE(mapB, nullptr) << tileRuntimeLastError();
  EXPECT_NE(mapA, mapB);
  EXPECT_EQ(encodeCalls, 2);
  EXPECT_EQ(tileTensorMapCacheSize(), 2u);
  // Each map carries its own tensor's address (the fake encoder's stamp).
  uint64_t stampA, stampB;
  memcpy(&stampA, mapA, sizeof(stampA));
  memcpy(&stampB, mapB, sizeof(stampB));
  EXPECT_EQ(stampA, reinterpret_cast<uintptr_t>(a.address));
  EXPECT_EQ(stampB, reinterpret_cast<uintptr_t>(b.address));
  EXPECT_EQ(a.cached(), mapA);
  EXPECT_EQ(b.cached(), mapB);
  EXPECT_EQ(encodeCalls, 2);
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
