//===- TensorMapValidateTest.cpp - Every driver rule, exact messages ------===//

#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

using tile::runtime::test::MapArgs;
using tile::runtime::test::MapStorage;

namespace {

struct Case {
  const char *name;
  std::function<void(MapArgs &)> mutate;
  // Message after "tileTensorMapValidateTiled: ".
  const char *message;
};

const Case kCases[] = {
    // Enumerations.
    {"DataTypeNegative", [](MapArgs &a) { a.dataType = -1; },
     "dataType = -1 is outside 0..12"},
    {"DataTypeTooLarge", [](MapArgs &a) { a.dataType = 16; },
     "dataType = 16 is outside 0..12"},
    {"DataTypePacked", [](MapArgs &a) { a.dataType = 13; },
     "dataType = 13 (packed sub-byte type) is not supported"},
    {"Interleave", [](MapArgs &a) { a.interleave = 3; },
     "interleave = 3 is outside 0..2"},
    {"InterleaveNegative", [](MapArgs &a) { a.interleave = -1; },
     "interleave = -1 is outside 0..2"},
    {"Swizzle", [](MapArgs &a) { a.swizzle = 7; },
     "swizzle = 7 is outside 0..6"},
    {"L2Promotion", [](MapArgs &a) { a.l2Promotion = 4; },
     "l2Promotion = 4 is outside 0..3"},
    {"OobFill", [](MapArgs &a) { a.oobFill = 2; },
     "oobFill = 2 is outside 0..1"},
    {"NanFillOnInteger",
     [](MapArgs &a) {
       a.dataType = 1; // UINT16
       a.oobFill = 1;
     },
     "oobFill = 1 (NaN) requires a floating-point dataType (6..12), got "
     "dataType = 1"},
    {"NanFillOnInt64",
     [](MapArgs &a) {
       a.dataType = 5; // INT64, just below the floating-point types
       a.oobFill = 1;
     },
     "oobFill = 1 (NaN) requires a floating-point dataType (6..12), got "
     "dataType = 5"},
    {"NanFillOnUint64",
     [](MapArgs &a) {
       a.dataType = 4; // UINT64
       a.oobFill = 1;
     },
     "oobFill = 1 (NaN) requires a floating-point dataType (6..12), got "
     "dataType = 4"},
    {"Interleave32BNeedsSwizzle32B",
     [](MapArgs &a) {
       a.interleave = 2;
       a.swizzle = 3;
     },
     "interleave = 2 (32B) requires swizzle = 1 (32B), got swizzle = 3"},
    // Rank.
    {"RankZero", [](MapArgs &a) { a.rank = 0; }, "rank = 0 is outside 1..5"},
    {"RankSix", [](MapArgs &a) { a.rank = 6; }, "rank = 6 is outside 1..5"},
    {"RankInterleaved",
     [](MapArgs &a) {
       a.rank = 2;
       a.interleave = 1;
     },
     "rank = 2 is outside 3..5 (interleave = 1)"},
    // Global address.
    {"AddressNull", [](MapArgs &a) { a.address = nullptr; },
     "globalAddress is NULL"},
    {"AddressAlign16",
     [](MapArgs &a) { a.address = reinterpret_cast<void *>(0x1008); },
     "globalAddress = 0x1008 is not 16-byte aligned"},
    {"AddressAlign32Interleaved",
     [](MapArgs &a) {
       a.address = reinterpret_cast<void *>(0x1010);
       a.interleave = 2;
       a.swizzle = 1;
     },
     "globalAddress = 0x1010 is not 32-byte aligned"},
    // Global dims.
    {"GlobalDimZero", [](MapArgs &a) { a.globalDim[1] = 0; },
     "globalDim[1] = 0 is outside 1..2^32"},
    {"GlobalDimTooLarge", [](MapArgs &a) { a.globalDim[2] = (1ull << 32) + 1; },
     "globalDim[2] = 4294967297 is outside 1..2^32"},
    // Strides.
    {"StrideNotMultipleOf16", [](MapArgs &a) { a.strides[0] = 100; },
     "globalStridesBytes[0] = 100 is not a multiple of 16"},
    {"StrideNotMultipleOf32Interleaved",
     [](MapArgs &a) {
       a.interleave = 2;
       a.swizzle = 1;
       a.strides[1] = 1040;
     },
     "globalStridesBytes[1] = 1040 is not a multiple of 32"},
    {"StrideTooLarge", [](MapArgs &a) { a.strides[1] = 1ull << 40; },
     "globalStridesBytes[1] = 1099511627776 is not below 2^40"},
    // Box.
    {"BoxZero", [](MapArgs &a) { a.boxDim[2] = 0; },
     "boxDim[2] = 0 must be at least 1"},
    {"BoxTooLarge",
     [](MapArgs &a) {
       a.boxDim[0] = 300;
       a.swizzle = 0;
     },
     "boxDim[0] = 300 exceeds 256"},
    {"BoxInnerBytes",
     [](MapArgs &a) {
       a.boxDim[0] = 6;
       a.swizzle = 0;
     },
     "boxDim[0] * elementBytes = 6 * 2 = 12 is not a multiple of 16"},
    // [H200] also enforced with interleave, though cuda.h omits it.
    {"BoxInnerBytesInterleaved",
     [](MapArgs &a) {
       a.boxDim[0] = 12;
       a.interleave = 1;
     },
     "boxDim[0] * elementBytes = 12 * 2 = 24 is not a multiple of 16"},
    // Element strides.
    {"ElementStrideZero", [](MapArgs &a) { a.elementStrides[0] = 0; },
     "elementStrides[0] = 0 must be at least 1"},
    {"ElementStrideTooLarge", [](MapArgs &a) { a.elementStrides[1] = 9; },
     "elementStrides[1] = 9 exceeds 8"},
    // Swizzle span.
    {"Swizzle32Span",
     [](MapArgs &a) {
       a.swizzle = 1;
       a.boxDim[0] = 32;
     },
     "boxDim[0] * elementBytes = 32 * 2 = 64 exceeds the swizzle span 32 "
     "(swizzle = 1)"},
    {"Swizzle64Span",
     [](MapArgs &a) {
       a.swizzle = 2;
       a.boxDim[0] = 64;
     },
     "boxDim[0] * elementBytes = 64 * 2 = 128 exceeds the swizzle span 64 "
     "(swizzle = 2)"},
    {"Swizzle128Span",
     [](MapArgs &a) {
       a.dataType = 7; // FLOAT32
       a.boxDim[0] = 64;
     },
     "boxDim[0] * elementBytes = 64 * 4 = 256 exceeds the swizzle span 128 "
     "(swizzle = 3)"},
    {"Swizzle128AtomSpan",
     [](MapArgs &a) {
       a.swizzle = 6;
       a.boxDim[0] = 72;
     },
     "boxDim[0] * elementBytes = 72 * 2 = 144 exceeds the swizzle span 128 "
     "(swizzle = 6)"},
};

class RuntimeValidate : public testing::TestWithParam<Case> {};

TEST_P(RuntimeValidate, ExactMessage) {
  const Case &c = GetParam();
  MapArgs args;
  ASSERT_EQ(args.validate(), TILE_SUCCESS) << tileRuntimeLastError();
  c.mutate(args);

  tileRuntimeClearError();
  EXPECT_EQ(args.validate(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapValidateTiled: ") + c.message);

  // Encode and the cache check the same rules before any driver use.
  MapStorage map;
  tileRuntimeClearError();
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapEncodeTiled: ") + c.message);
  tileRuntimeClearError();
  EXPECT_EQ(args.cached(), nullptr);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapGetCached: ") + c.message);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuntimeValidate, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

TEST(RuntimeValidateNull, NullArrays) {
  MapArgs a;
  auto expect = [](int32_t status, const char *message) {
    EXPECT_EQ(status, TILE_ERROR_INVALID_VALUE);
    EXPECT_EQ(std::string(tileRuntimeLastError()),
              std::string("tileTensorMapValidateTiled: ") + message);
  };
  expect(tileTensorMapValidateTiled(a.dataType, a.rank, a.address, nullptr,
                                    a.strides, a.boxDim, a.elementStrides, 0, 3,
                                    2, 0),
         "globalDim is NULL");
  expect(tileTensorMapValidateTiled(a.dataType, a.rank, a.address, a.globalDim,
                                    nullptr, a.boxDim, a.elementStrides, 0, 3,
                                    2, 0),
         "globalStridesBytes is NULL (rank = 3 needs 2)");
  expect(tileTensorMapValidateTiled(a.dataType, a.rank, a.address, a.globalDim,
                                    a.strides, nullptr, a.elementStrides, 0, 3,
                                    2, 0),
         "boxDim is NULL");
  expect(tileTensorMapValidateTiled(a.dataType, a.rank, a.address, a.globalDim,
                                    a.strides, a.boxDim, nullptr, 0, 3, 2, 0),
         "elementStrides is NULL");
  // Rank 1 needs no strides.
  EXPECT_EQ(tileTensorMapValidateTiled(a.dataType, 1, a.address, a.globalDim,
                                       nullptr, a.boxDim, a.elementStrides, 0,
                                       3, 2, 0),
            TILE_SUCCESS);
  tileRuntimeClearError();
}

TEST(RuntimeValidateMap, MapPointer) {
  MapArgs a;
  tileRuntimeClearError();
  EXPECT_EQ(a.encode(nullptr), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeTiled: map128 is NULL");
  alignas(64) unsigned char storage[256];
  EXPECT_EQ(a.encode(storage + 32), TILE_ERROR_INVALID_VALUE);
  char expected[128];
  snprintf(expected, sizeof(expected),
           "tileTensorMapEncodeTiled: map128 = %p is not 64-byte aligned",
           static_cast<void *>(storage + 32));
  EXPECT_STREQ(tileRuntimeLastError(), expected);
  tileRuntimeClearError();
}

// Inputs the driver accepts must pass.
TEST(RuntimeValidateAccept, Boundaries) {
  MapArgs a;
  EXPECT_EQ(a.validate(), TILE_SUCCESS);

  MapArgs maxima;
  maxima.dataType = 0; // UINT8
  maxima.rank = 5;
  maxima.swizzle = 0;
  for (int i = 0; i < 5; ++i) {
    maxima.globalDim[i] = 1ull << 32;
    maxima.boxDim[i] = 256;
    maxima.elementStrides[i] = 8;
  }
  for (int i = 0; i < 4; ++i)
    maxima.strides[i] = (1ull << 40) - 16;
  EXPECT_EQ(maxima.validate(), TILE_SUCCESS) << tileRuntimeLastError();

  MapArgs zeroStride; // [H200] the encoder accepts stride 0
  zeroStride.strides[0] = 0;
  EXPECT_EQ(zeroStride.validate(), TILE_SUCCESS) << tileRuntimeLastError();

  MapArgs interleaved;
  interleaved.interleave = 2;
  interleaved.swizzle = 1;
  interleaved.address = reinterpret_cast<void *>(0x1020);
  interleaved.strides[0] = 128;
  interleaved.strides[1] = 1024;
  interleaved.boxDim[0] = 256; // no swizzle-span rule when interleaved
  EXPECT_EQ(interleaved.validate(), TILE_SUCCESS) << tileRuntimeLastError();

  MapArgs nanFill;
  nanFill.dataType = 9; // BFLOAT16
  nanFill.oobFill = 1;
  EXPECT_EQ(nanFill.validate(), TILE_SUCCESS) << tileRuntimeLastError();

  for (int32_t swizzle : {1, 2, 3, 4, 5, 6}) {
    MapArgs s;
    s.swizzle = swizzle;
    s.boxDim[0] = swizzle == 1 ? 16 : swizzle == 2 ? 32 : 64;
    EXPECT_EQ(s.validate(), TILE_SUCCESS) << tileRuntimeLastError();
  }
}

TEST(RuntimeValidateAccept, ElementBytes) {
  const uint32_t expected[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  for (int32_t t = 0; t <= 12; ++t)
    EXPECT_EQ(tileTensorMapElementBytes(t), expected[t]) << t;
  EXPECT_EQ(tileTensorMapElementBytes(-1), 0u);
  EXPECT_EQ(tileTensorMapElementBytes(13), 0u);
  EXPECT_EQ(tileTensorMapElementBytes(15), 0u);
}

} // namespace
