//===- DefectPatchTest.cpp - The driver-defect patch and tensor bytes -----===//

#include "tile/Runtime/TileRuntime.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

constexpr uint64_t k128KiB = 128 * 1024;

struct alignas(64) Map {
  unsigned char bytes[128];
};

Map filled(unsigned char value) {
  Map map;
  memset(map.bytes, value, sizeof(map.bytes));
  return map;
}

uint64_t word1(const Map &map) {
  uint64_t word;
  memcpy(&word, map.bytes + 8, sizeof(word));
  return word;
}

TEST(RuntimeDefectPatch, ClearsBit85Only) {
  Map map = filled(0xff);
  tileTensorMapApplyDefectPatch(map.bytes, 13000, 4096);
  for (int i = 0; i < 128; ++i)
    EXPECT_EQ(map.bytes[i], i == 10 ? 0xdf : 0xff) << "byte " << i;
  EXPECT_EQ(word1(map), ~(uint64_t(1) << 21));
  // Idempotent, and a clear bit stays clear.
  tileTensorMapApplyDefectPatch(map.bytes, 13000, 4096);
  EXPECT_EQ(map.bytes[10], 0xdf);
}

TEST(RuntimeDefectPatch, NoOtherByteChanges) {
  Map map;
  for (int i = 0; i < 128; ++i)
    map.bytes[i] = static_cast<unsigned char>(i * 37 + 11);
  Map before = map;
  tileTensorMapApplyDefectPatch(map.bytes, 13010, k128KiB - 1);
  for (int i = 0; i < 128; ++i) {
    unsigned char expected = before.bytes[i];
    if (i == 10)
      expected &= static_cast<unsigned char>(~0x20);
    EXPECT_EQ(map.bytes[i], expected) << "byte " << i;
  }
}

TEST(RuntimeDefectPatch, AppliesOnlyToOldDriversAndSmallTensors) {
  struct {
    int32_t version;
    uint64_t bytes;
    bool applies;
  } cases[] = {
      {13000, 1, true},           {13010, k128KiB - 1, true},
      {12080, 4096, true},        {0, 4096, true},
      {13011, 4096, false},       {13020, 1, false},
      {13000, k128KiB, false},    {13000, k128KiB + 1, false},
      {13000, UINT64_MAX, false},
  };
  for (const auto &c : cases) {
    EXPECT_EQ(tileTensorMapDefectPatchApplies(c.version, c.bytes),
              c.applies ? 1 : 0)
        << c.version << " " << c.bytes;
    Map map = filled(0xff);
    tileTensorMapApplyDefectPatch(map.bytes, c.version, c.bytes);
    Map untouched = filled(0xff);
    if (c.applies)
      untouched.bytes[10] = 0xdf;
    EXPECT_EQ(memcmp(map.bytes, untouched.bytes, 128), 0)
        << c.version << " " << c.bytes;
  }
}

TEST(RuntimeDefectPatch, UnalignedAndNullMaps) {
  unsigned char buffer[129];
  memset(buffer, 0xff, sizeof(buffer));
  tileTensorMapApplyDefectPatch(buffer + 1, 13000, 16);
  for (int i = 0; i < 129; ++i)
    EXPECT_EQ(buffer[i], i == 11 ? 0xdf : 0xff) << i;
  tileTensorMapApplyDefectPatch(nullptr, 13000, 16); // must not crash
}

TEST(RuntimeTensorBytes, Formula) {
  // f16 64 x 8 x 4, contiguous: 1 + 63*2 + 7*128 + 3*1024 = 4095 (the
  // libraries' formula: last element's offset plus one, not plus its size).
  uint64_t dims[] = {64, 8, 4};
  uint64_t strides[] = {128, 1024};
  EXPECT_EQ(tileTensorMapTensorBytes(6, 3, dims, strides), 4095u);
  // Rank 1: 1 + (n - 1) * elementBytes.
  uint64_t n[] = {100};
  EXPECT_EQ(tileTensorMapTensorBytes(7, 1, n, nullptr), 1u + 99u * 4u);
  EXPECT_EQ(tileTensorMapTensorBytes(4, 1, n, nullptr), 1u + 99u * 8u);
  // Padded rows and a broadcast (stride 0) dimension.
  uint64_t padded[] = {10, 3, 5};
  uint64_t paddedStrides[] = {64, 0};
  EXPECT_EQ(tileTensorMapTensorBytes(0, 3, padded, paddedStrides),
            1u + 9u + 2u * 64u);
  // Strides need not be monotonic.
  uint64_t dims2[] = {8, 4, 2};
  uint64_t strides2[] = {4096, 16};
  EXPECT_EQ(tileTensorMapTensorBytes(1, 3, dims2, strides2),
            1u + 7u * 2u + 3u * 4096u + 1u * 16u);
}

TEST(RuntimeTensorBytes, SmallTensorThreshold) {
  // 256 x 256 u16 = 128 KiB exactly: 1 + 255*2 + 255*512 = 131071 < 128 KiB,
  // as the libraries compute it (the last byte's offset plus one).
  uint64_t dims[] = {256, 256};
  uint64_t strides[] = {512};
  uint64_t bytes = tileTensorMapTensorBytes(1, 2, dims, strides);
  EXPECT_EQ(bytes, 131071u);
  EXPECT_EQ(tileTensorMapDefectPatchApplies(13000, bytes), 1);
  uint64_t bigger[] = {256, 257};
  EXPECT_EQ(tileTensorMapTensorBytes(1, 2, bigger, strides), 131583u);
  EXPECT_EQ(tileTensorMapDefectPatchApplies(
                13000, tileTensorMapTensorBytes(1, 2, bigger, strides)),
            0);
}

TEST(RuntimeTensorBytes, SaturatesAndRejects) {
  uint64_t dims[] = {1ull << 32, 1ull << 32, 1ull << 32};
  uint64_t strides[] = {(1ull << 40) - 16, (1ull << 40) - 16};
  EXPECT_EQ(tileTensorMapTensorBytes(4, 3, dims, strides), UINT64_MAX);
  uint64_t ok[] = {4, 4};
  uint64_t okStrides[] = {16};
  EXPECT_EQ(tileTensorMapTensorBytes(13, 2, ok, okStrides), 0u);
  EXPECT_EQ(tileTensorMapTensorBytes(-1, 2, ok, okStrides), 0u);
  EXPECT_EQ(tileTensorMapTensorBytes(0, 0, ok, okStrides), 0u);
  EXPECT_EQ(tileTensorMapTensorBytes(0, 6, ok, okStrides), 0u);
  EXPECT_EQ(tileTensorMapTensorBytes(0, 2, nullptr, okStrides), 0u);
  EXPECT_EQ(tileTensorMapTensorBytes(0, 2, ok, nullptr), 0u);
  uint64_t zero[] = {4, 0};
  EXPECT_EQ(tileTensorMapTensorBytes(0, 2, zero, okStrides), 0u);
}

} // namespace
