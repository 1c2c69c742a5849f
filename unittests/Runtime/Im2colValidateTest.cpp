//===- Im2colValidateTest.cpp - Every im2col rule, exact messages ---------===//

#include "TensorMapTestUtil.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>

using tile::runtime::test::Im2colMapArgs;
using tile::runtime::test::MapStorage;

namespace {

struct Case {
  const char *name;
  std::function<void(Im2colMapArgs &)> mutate;
  // Message after "tileTensorMapValidateIm2col: ".
  const char *message;
};

// A rank-5 (NDHWC) request: D = 2, N = 1.
void makeRank5(Im2colMapArgs &a) {
  a.rank = 5;
  a.globalDim[3] = 2;
  a.globalDim[4] = 1;
  a.lower[2] = 0;
  a.upper[2] = -1;
}

const Case kCases[] = {
    // Enumerations: the tiled rules.
    {"DataTypeNegative", [](Im2colMapArgs &a) { a.dataType = -1; },
     "dataType = -1 is outside 0..12"},
    {"DataTypePacked", [](Im2colMapArgs &a) { a.dataType = 13; },
     "dataType = 13 (packed sub-byte type) is not supported"},
    {"Interleave", [](Im2colMapArgs &a) { a.interleave = 3; },
     "interleave = 3 is outside 0..2"},
    {"Swizzle", [](Im2colMapArgs &a) { a.swizzle = 7; },
     "swizzle = 7 is outside 0..6"},
    {"L2Promotion", [](Im2colMapArgs &a) { a.l2Promotion = 4; },
     "l2Promotion = 4 is outside 0..3"},
    {"OobFill", [](Im2colMapArgs &a) { a.oobFill = 2; },
     "oobFill = 2 is outside 0..1"},
    {"NanFillOnInteger",
     [](Im2colMapArgs &a) {
       a.dataType = 1; // UINT16
       a.oobFill = 1;
     },
     "oobFill = 1 (NaN) requires a floating-point dataType (6..12), got "
     "dataType = 1"},
    {"Interleave32BNeedsSwizzle32B",
     [](Im2colMapArgs &a) {
       a.interleave = 2;
       a.swizzle = 3;
     },
     "interleave = 2 (32B) requires swizzle = 1 (32B), got swizzle = 3"},
    // Rank.
    {"RankTwo", [](Im2colMapArgs &a) { a.rank = 2; },
     "rank = 2 is outside 3..5 (im2col)"},
    {"RankZero", [](Im2colMapArgs &a) { a.rank = 0; },
     "rank = 0 is outside 3..5 (im2col)"},
    {"RankSix", [](Im2colMapArgs &a) { a.rank = 6; },
     "rank = 6 is outside 3..5 (im2col)"},
    // Global address, dims and strides: the tiled rules.
    {"AddressNull", [](Im2colMapArgs &a) { a.address = nullptr; },
     "globalAddress is NULL"},
    {"AddressAlign16",
     [](Im2colMapArgs &a) { a.address = reinterpret_cast<void *>(0x1008); },
     "globalAddress = 0x1008 is not 16-byte aligned"},
    {"AddressAlign32Interleaved",
     [](Im2colMapArgs &a) {
       a.address = reinterpret_cast<void *>(0x1010);
       a.interleave = 2;
       a.swizzle = 1;
     },
     "globalAddress = 0x1010 is not 32-byte aligned"},
    {"GlobalDimZero", [](Im2colMapArgs &a) { a.globalDim[3] = 0; },
     "globalDim[3] = 0 is outside 1..2^32"},
    {"GlobalDimTooLarge",
     [](Im2colMapArgs &a) { a.globalDim[0] = (1ull << 32) + 1; },
     "globalDim[0] = 4294967297 is outside 1..2^32"},
    {"StrideNotMultipleOf16", [](Im2colMapArgs &a) { a.strides[2] = 8200; },
     "globalStridesBytes[2] = 8200 is not a multiple of 16"},
    {"StrideTooLarge", [](Im2colMapArgs &a) { a.strides[0] = 1ull << 40; },
     "globalStridesBytes[0] = 1099511627776 is not below 2^40"},
    // Corner ranges by rank.
    {"Rank3LowerBelow",
     [](Im2colMapArgs &a) {
       a.rank = 3;
       a.lower[0] = -32769;
     },
     "pixelBoxLowerCorner[0] = -32769 is outside -32768..32767 (rank = 3)"},
    {"Rank3UpperAbove",
     [](Im2colMapArgs &a) {
       a.rank = 3;
       a.upper[0] = 32768;
     },
     "pixelBoxUpperCorner[0] = 32768 is outside -32768..32767 (rank = 3)"},
    // [H200] -129 and 128 rejected at rank 4.
    {"Rank4LowerBelow", [](Im2colMapArgs &a) { a.lower[1] = -129; },
     "pixelBoxLowerCorner[1] = -129 is outside -128..127 (rank = 4)"},
    {"Rank4LowerAbove", [](Im2colMapArgs &a) { a.lower[0] = 128; },
     "pixelBoxLowerCorner[0] = 128 is outside -128..127 (rank = 4)"},
    {"Rank4UpperAbove", [](Im2colMapArgs &a) { a.upper[1] = 128; },
     "pixelBoxUpperCorner[1] = 128 is outside -128..127 (rank = 4)"},
    {"Rank4UpperBelow", [](Im2colMapArgs &a) { a.upper[0] = -129; },
     "pixelBoxUpperCorner[0] = -129 is outside -128..127 (rank = 4)"},
    {"Rank5LowerAbove",
     [](Im2colMapArgs &a) {
       makeRank5(a);
       a.lower[2] = 16;
     },
     "pixelBoxLowerCorner[2] = 16 is outside -16..15 (rank = 5)"},
    {"Rank5UpperBelow",
     [](Im2colMapArgs &a) {
       makeRank5(a);
       a.upper[1] = -17;
     },
     "pixelBoxUpperCorner[1] = -17 is outside -16..15 (rank = 5)"},
    // The bounding box. [H200] W = 5, lower 3, upper -3 rejected.
    {"EmptyBoxW",
     [](Im2colMapArgs &a) {
       a.globalDim[1] = 5;
       a.lower[0] = 3;
       a.upper[0] = -3;
     },
     "pixelBoxLowerCorner[0] = 3 exceeds globalDim[1] - 1 + "
     "pixelBoxUpperCorner[0] = 5 - 1 + (-3) = 1: the bounding box is empty in "
     "dimension 1"},
    {"EmptyBoxH",
     [](Im2colMapArgs &a) {
       a.globalDim[2] = 1;
       a.lower[1] = 0;
     },
     "pixelBoxLowerCorner[1] = 0 exceeds globalDim[2] - 1 + "
     "pixelBoxUpperCorner[1] = 1 - 1 + (-1) = -1: the bounding box is empty "
     "in dimension 2"},
    {"EmptyBoxD",
     [](Im2colMapArgs &a) {
       makeRank5(a);
       a.lower[2] = 1;
     },
     "pixelBoxLowerCorner[2] = 1 exceeds globalDim[3] - 1 + "
     "pixelBoxUpperCorner[2] = 2 - 1 + (-1) = 0: the bounding box is empty in "
     "dimension 3"},
    // Channels per pixel. [H200] 260 rejected.
    {"ChannelsZero", [](Im2colMapArgs &a) { a.channelsPerPixel = 0; },
     "channelsPerPixel = 0 must be at least 1"},
    {"ChannelsTooMany", [](Im2colMapArgs &a) { a.channelsPerPixel = 260; },
     "channelsPerPixel = 260 exceeds 256"},
    {"ChannelsJustTooMany",
     [](Im2colMapArgs &a) {
       a.dataType = 0; // UINT8
       a.swizzle = 0;
       a.channelsPerPixel = 257;
     },
     "channelsPerPixel = 257 exceeds 256"},
    // Pixels per column. [H200] 1025 rejected.
    {"PixelsZero", [](Im2colMapArgs &a) { a.pixelsPerColumn = 0; },
     "pixelsPerColumn = 0 must be at least 1"},
    {"PixelsTooMany", [](Im2colMapArgs &a) { a.pixelsPerColumn = 1025; },
     "pixelsPerColumn = 1025 exceeds 1024"},
    // Element strides, every dimension. [H200] 9 rejected.
    {"ElementStrideZero", [](Im2colMapArgs &a) { a.elementStrides[0] = 0; },
     "elementStrides[0] = 0 must be at least 1"},
    {"ElementStrideTooLarge", [](Im2colMapArgs &a) { a.elementStrides[3] = 9; },
     "elementStrides[3] = 9 exceeds 8"},
    // Pixel bytes. [H200] 6 channels of 4 bytes rejected.
    {"PixelBytes",
     [](Im2colMapArgs &a) {
       a.dataType = 7; // FLOAT32
       a.channelsPerPixel = 6;
     },
     "channelsPerPixel * elementBytes = 6 * 4 = 24 is not a multiple of 16"},
    {"PixelBytesInterleaved",
     [](Im2colMapArgs &a) {
       a.interleave = 1;
       a.channelsPerPixel = 12;
     },
     "channelsPerPixel * elementBytes = 12 * 2 = 24 is not a multiple of 16"},
    // Swizzle span.
    {"Swizzle32Span",
     [](Im2colMapArgs &a) {
       a.swizzle = 1;
       a.channelsPerPixel = 24;
     },
     "channelsPerPixel * elementBytes = 24 * 2 = 48 exceeds the swizzle span "
     "32 (swizzle = 1)"},
    {"Swizzle64Span",
     [](Im2colMapArgs &a) {
       a.swizzle = 2;
       a.channelsPerPixel = 40;
     },
     "channelsPerPixel * elementBytes = 40 * 2 = 80 exceeds the swizzle span "
     "64 (swizzle = 2)"},
    {"Swizzle128Span", [](Im2colMapArgs &a) { a.channelsPerPixel = 72; },
     "channelsPerPixel * elementBytes = 72 * 2 = 144 exceeds the swizzle span "
     "128 (swizzle = 3)"},
};

class RuntimeValidateIm2col : public testing::TestWithParam<Case> {};

TEST_P(RuntimeValidateIm2col, ExactMessage) {
  const Case &c = GetParam();
  Im2colMapArgs args;
  ASSERT_EQ(args.validate(), TILE_SUCCESS) << tileRuntimeLastError();
  c.mutate(args);

  tileRuntimeClearError();
  EXPECT_EQ(args.validate(), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapValidateIm2col: ") + c.message);

  // Encode and the cache check the same rules before any driver use.
  MapStorage map;
  tileRuntimeClearError();
  EXPECT_EQ(args.encode(map.bytes), TILE_ERROR_INVALID_VALUE);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapEncodeIm2col: ") + c.message);
  tileRuntimeClearError();
  EXPECT_EQ(args.cached(), nullptr);
  EXPECT_EQ(std::string(tileRuntimeLastError()),
            std::string("tileTensorMapIm2colGetCached: ") + c.message);
  EXPECT_EQ(tileRuntimeConsumeStatus(), TILE_ERROR_INVALID_VALUE);
  tileRuntimeClearError();
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuntimeValidateIm2col,
                         testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

TEST(RuntimeValidateIm2colNull, NullArrays) {
  Im2colMapArgs a;
  auto expect = [](int32_t status, const char *message) {
    EXPECT_EQ(status, TILE_ERROR_INVALID_VALUE);
    EXPECT_EQ(std::string(tileRuntimeLastError()),
              std::string("tileTensorMapValidateIm2col: ") + message);
  };
  expect(tileTensorMapValidateIm2col(a.dataType, a.rank, a.address, nullptr,
                                     a.strides, a.lower, a.upper, 64, 64,
                                     a.elementStrides, 0, 3, 2, 0),
         "globalDim is NULL");
  expect(tileTensorMapValidateIm2col(a.dataType, a.rank, a.address, a.globalDim,
                                     nullptr, a.lower, a.upper, 64, 64,
                                     a.elementStrides, 0, 3, 2, 0),
         "globalStridesBytes is NULL (rank = 4 needs 3)");
  expect(tileTensorMapValidateIm2col(a.dataType, a.rank, a.address, a.globalDim,
                                     a.strides, nullptr, a.upper, 64, 64,
                                     a.elementStrides, 0, 3, 2, 0),
         "pixelBoxLowerCorner is NULL (rank = 4 needs 2)");
  expect(tileTensorMapValidateIm2col(a.dataType, 3, a.address, a.globalDim,
                                     a.strides, a.lower, nullptr, 64, 64,
                                     a.elementStrides, 0, 3, 2, 0),
         "pixelBoxUpperCorner is NULL (rank = 3 needs 1)");
  expect(tileTensorMapValidateIm2col(a.dataType, a.rank, a.address, a.globalDim,
                                     a.strides, a.lower, a.upper, 64, 64,
                                     nullptr, 0, 3, 2, 0),
         "elementStrides is NULL");
  // The cache reports the same when it cannot build its key.
  EXPECT_EQ(tileTensorMapIm2colGetCached(
                a.dataType, a.rank, a.address, a.globalDim, a.strides, a.lower,
                nullptr, 64, 64, a.elementStrides, 0, 3, 2, 0),
            nullptr);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapIm2colGetCached: pixelBoxUpperCorner is NULL "
               "(rank = 4 needs 2)");
  tileRuntimeClearError();
}

TEST(RuntimeValidateIm2colMap, MapPointer) {
  Im2colMapArgs a;
  tileRuntimeClearError();
  EXPECT_EQ(a.encode(nullptr), TILE_ERROR_INVALID_VALUE);
  EXPECT_STREQ(tileRuntimeLastError(),
               "tileTensorMapEncodeIm2col: map128 is NULL");
  alignas(64) unsigned char storage[256];
  EXPECT_EQ(a.encode(storage + 16), TILE_ERROR_INVALID_VALUE);
  char expected[128];
  snprintf(expected, sizeof(expected),
           "tileTensorMapEncodeIm2col: map128 = %p is not 64-byte aligned",
           static_cast<void *>(storage + 16));
  EXPECT_STREQ(tileRuntimeLastError(), expected);
  tileRuntimeClearError();
}

// Inputs the driver accepts must pass.
TEST(RuntimeValidateIm2colAccept, Boundaries) {
  auto accept = [](const Im2colMapArgs &a, const char *what) {
    tileRuntimeClearError();
    EXPECT_EQ(a.validate(), TILE_SUCCESS)
        << what << ": " << tileRuntimeLastError();
  };
  accept(Im2colMapArgs(), "default");

  Im2colMapArgs rank3; // NWC
  rank3.rank = 3;
  rank3.globalDim[1] = 70000;
  rank3.lower[0] = -32768;
  rank3.upper[0] = 32767;
  accept(rank3, "rank 3 corner range");

  Im2colMapArgs rank4; // [H200] -128 accepted
  rank4.globalDim[1] = rank4.globalDim[2] = 300;
  rank4.lower[0] = rank4.lower[1] = -128;
  rank4.upper[0] = rank4.upper[1] = 127;
  accept(rank4, "rank 4 corner range");
  rank4.lower[0] = rank4.lower[1] = 127;
  rank4.upper[0] = rank4.upper[1] = -128;
  accept(rank4, "rank 4 corner range, reversed");

  Im2colMapArgs rank5; // NDHWC
  makeRank5(rank5);
  rank5.globalDim[1] = rank5.globalDim[2] = rank5.globalDim[3] = 40;
  for (int i = 0; i < 3; ++i) {
    rank5.lower[i] = -16;
    rank5.upper[i] = 15;
  }
  accept(rank5, "rank 5 corner range");

  Im2colMapArgs tight; // one pixel position: lower == W - 1 + upper
  tight.globalDim[1] = 5;
  tight.lower[0] = 2;
  tight.upper[0] = -2;
  accept(tight, "a one-position bounding box");

  Im2colMapArgs maxima; // [H200] 1024 pixels accepted
  maxima.dataType = 0;  // UINT8
  maxima.swizzle = 0;
  maxima.channelsPerPixel = 256;
  maxima.pixelsPerColumn = 1024;
  for (int i = 0; i < 4; ++i)
    maxima.elementStrides[i] = 8;
  accept(maxima, "maxima");

  Im2colMapArgs pixels257; // [H200] 257 accepted
  pixels257.pixelsPerColumn = 257;
  accept(pixels257, "257 pixels");

  Im2colMapArgs interleaved; // no swizzle-span rule when interleaved
  interleaved.interleave = 1;
  interleaved.channelsPerPixel = 256;
  accept(interleaved, "interleaved");

  Im2colMapArgs nanFill;
  nanFill.dataType = 9; // BFLOAT16
  nanFill.oobFill = 1;
  accept(nanFill, "NaN fill");

  for (int32_t swizzle : {1, 2, 3}) {
    Im2colMapArgs s;
    s.swizzle = swizzle;
    s.channelsPerPixel = swizzle == 1 ? 16 : swizzle == 2 ? 32 : 64;
    accept(s, "swizzle span");
  }
  tileRuntimeClearError();
}

} // namespace
