//===- Im2colTest.cpp - im2col plans, rules and the hardware model --------===//
//
// The model's expectations below are what an H200 loaded in the same cases
// (test/GPU/probes/tma_probe.cu, recorded in docs/im2col.md): pixel by pixel,
// the image, row and column a load fetched, or the fill. The property test
// checks the model, which walks the positions the way the hardware does,
// against a reference written the way a convolution defines its patches.
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Im2col.h"
#include "TestUtil.h"

#include <random>

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

std::vector<std::optional<int64_t>> known(std::vector<int64_t> values) {
  return {values.begin(), values.end()};
}

std::vector<std::optional<int64_t>> rowMajorStrides(std::vector<int64_t> s) {
  std::vector<std::optional<int64_t>> strides(s.size());
  int64_t stride = 1;
  for (size_t d = s.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= s[d];
  }
  return strides;
}

/// A channels-last u32 tensor of `sizes` loaded into a dense [pixels,
/// channels] tile.
Im2colRequest request(std::vector<int64_t> sizes, std::vector<int64_t> lower,
                      std::vector<int64_t> upper, std::vector<int64_t> strides,
                      int64_t pixels, int64_t channels) {
  Im2colRequest r;
  r.elementType = ui32();
  r.globalSizes = known(sizes);
  r.globalStrides = rowMajorStrides(sizes);
  r.lowerCorner = lower;
  r.upperCorner = upper;
  r.traversalStrides = strides;
  r.sharedShape = {pixels, channels};
  r.sharedLayout = Layout::rowMajor({pixels, channels});
  return r;
}

Im2colPlan mustPlan(const Im2colRequest &r) {
  Im2colError error;
  std::optional<Im2colPlan> plan = planIm2col(r, &error);
  EXPECT_TRUE(plan) << error.message;
  return plan ? *plan : Im2colPlan();
}

std::string ruleText(const Im2colRequest &r) {
  Im2colError error;
  if (planIm2col(r, &error))
    return "planned";
  EXPECT_EQ(error.message.substr(0, error.message.find(':')),
            ruleIdName(error.rule));
  return error.message;
}

/// The tile's pixels as "n,h,w" (rank 4), "n,w" (rank 3) or "fill", after
/// checking every channel of a pixel comes from that pixel in order.
std::vector<std::string> pixels(const Im2colMapDesc &map,
                                const std::vector<Im2colSource> &tile,
                                int64_t firstChannel) {
  std::vector<std::string> out;
  for (uint32_t p = 0; p < map.pixelsPerColumn; ++p) {
    const Im2colSource &first = tile[p * map.channelsPerPixel];
    for (uint32_t ch = 0; ch < map.channelsPerPixel; ++ch) {
      const Im2colSource &s = tile[p * map.channelsPerPixel + ch];
      EXPECT_EQ(s.fill, first.fill);
      if (!s.fill) {
        EXPECT_EQ(s.coords.back(), firstChannel + ch);
        EXPECT_TRUE(std::equal(s.coords.begin(), s.coords.end() - 1,
                               first.coords.begin()));
      }
    }
    if (first.fill) {
      out.push_back("fill");
      continue;
    }
    std::string text;
    for (size_t d = 0; d + 1 < first.coords.size(); ++d)
      text += (d ? "," : "") + std::to_string(first.coords[d]);
    out.push_back(text);
  }
  return out;
}

std::vector<std::string> model(const Im2colRequest &r,
                               std::vector<int64_t> start,
                               std::vector<int64_t> offsets) {
  Im2colPlan plan = mustPlan(r);
  std::string trap;
  auto tile = modelIm2col(plan.map, start, offsets, &trap);
  EXPECT_TRUE(tile) << trap;
  return tile ? pixels(plan.map, *tile, start.back())
              : std::vector<std::string>();
}

std::vector<std::string> repeat(const std::string &text, int n) {
  return std::vector<std::string>(n, text);
}

std::vector<std::string> concat(std::vector<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (auto &p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

// N=2, H=5, W=5, C=8: a 3x3 filter with padding 1.
const std::vector<int64_t> kNHWC = {2, 5, 5, 8};

TEST(Im2colPlan, MapFieldsInDriverOrder) {
  Im2colRequest r = request(kNHWC, {-1, -2}, {-1, 0}, {1, 2}, 30, 8);
  Im2colPlan plan = mustPlan(r);
  EXPECT_EQ(plan.map.dataType, TensorDataType::U32);
  EXPECT_EQ(plan.map.rank, 4u);
  EXPECT_EQ(plan.map.globalDim, (std::vector<uint64_t>{8, 5, 5, 2}));
  EXPECT_EQ(plan.map.globalStridesBytes, (std::vector<uint64_t>{32, 160, 800}));
  EXPECT_EQ(plan.map.lowerCorner, (std::vector<int32_t>{-2, -1}));
  EXPECT_EQ(plan.map.upperCorner, (std::vector<int32_t>{0, -1}));
  EXPECT_EQ(plan.map.elementStrides, (std::vector<uint32_t>{1, 2, 1, 1}));
  EXPECT_EQ(plan.map.channelsPerPixel, 8u);
  EXPECT_EQ(plan.map.pixelsPerColumn, 30u);
  EXPECT_EQ(plan.bytes, 30 * 8 * 4);
}

// [H200] start (h, w) = (-1, -1), filter tap (0, 0): the first row and the
// first column of every row are padding.
TEST(Im2colModel, Pad1Stride1TapOrigin) {
  std::vector<std::string> row[4];
  for (int h = 0; h < 4; ++h)
    for (int w = 0; w < 4; ++w)
      row[h].push_back("0," + std::to_string(h) + "," + std::to_string(w));
  auto expected = concat({repeat("fill", 6),
                          row[0],
                          {"fill"},
                          row[1],
                          {"fill"},
                          row[2],
                          {"fill"},
                          row[3],
                          repeat("fill", 5)});
  EXPECT_EQ(model(request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 30, 8),
                  {0, -1, -1, 0}, {0, 0}),
            expected);
}

// [H200] tap (kh, kw) = (1, 2): the window's position plus the tap.
TEST(Im2colModel, Pad1Stride1Tap12) {
  std::vector<std::string> expected;
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 5 && expected.size() < 30; ++h) {
      for (int w = 1; w <= 4; ++w)
        expected.push_back(std::to_string(n) + "," + std::to_string(h) + "," +
                           std::to_string(w));
      expected.push_back("fill");
    }
  expected.resize(30);
  EXPECT_EQ(model(request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 30, 8),
                  {0, -1, -1, 0}, {1, 2}),
            expected);
}

// [H200] a start inside the box walks on into the next image.
TEST(Im2colModel, ContinuesIntoTheNextImage) {
  std::vector<std::string> expected = {"0,4,3", "0,4,4"};
  for (int h = 0; h < 5; ++h)
    for (int w = 0; w < 5; ++w)
      expected.push_back("1," + std::to_string(h) + "," + std::to_string(w));
  auto all = concat({expected, repeat("fill", 3)});
  EXPECT_EQ(model(request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 30, 8),
                  {0, 3, 2, 0}, {1, 1}),
            all);
}

// [H200] traversal stride 2 from w = 1: the row wraps to the lower corner.
TEST(Im2colModel, Stride2WrapsToTheLowerCorner) {
  EXPECT_EQ(model(request(kNHWC, {-1, -1}, {-1, -1}, {2, 2}, 12, 8),
                  {0, -1, 1, 0}, {2, 1}),
            (std::vector<std::string>{"0,1,2", "0,1,4", "0,3,0", "0,3,2",
                                      "0,3,4", "fill", "fill", "fill", "1,1,0",
                                      "1,1,2", "1,1,4", "1,3,0"}));
}

// [H200] a 1x1 filter with stride 2 and channels 4..7 of each pixel.
TEST(Im2colModel, OneByOneStride2) {
  Im2colRequest r = request(kNHWC, {0, 0}, {0, 0}, {2, 2}, 12, 4);
  EXPECT_EQ(model(r, {0, 0, 0, 4}, {0, 0}),
            (std::vector<std::string>{"0,0,0", "0,0,2", "0,0,4", "0,2,0",
                                      "0,2,2", "0,2,4", "0,4,0", "0,4,2",
                                      "0,4,4", "1,0,0", "1,0,2", "1,0,4"}));
}

// [H200] rank 3 (N, W, C) with a tap of 2.
TEST(Im2colModel, Rank3) {
  EXPECT_EQ(model(request({2, 6, 4}, {-1}, {-1}, {1}, 14, 4), {0, -1, 0}, {2}),
            (std::vector<std::string>{"0,1", "0,2", "0,3", "0,4", "0,5", "fill",
                                      "1,1", "1,2", "1,3", "1,4", "1,5", "fill",
                                      "fill", "fill"}));
}

// [H200] channels before 0 are filled; images past N are filled.
TEST(Im2colModel, ChannelAndImageFill) {
  Im2colPlan plan = mustPlan(request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 4, 8));
  auto tile = modelIm2col(plan.map, {0, 0, 0, -4}, {0, 0}, nullptr);
  ASSERT_TRUE(tile);
  EXPECT_TRUE((*tile)[0].fill);
  EXPECT_TRUE((*tile)[3].fill);
  EXPECT_EQ((*tile)[4].coords, (std::vector<int64_t>{0, 0, 0, 0}));
  tile = modelIm2col(plan.map, {2, 0, 0, 0}, {0, 0}, nullptr);
  ASSERT_TRUE(tile);
  for (const Im2colSource &s : *tile)
    EXPECT_TRUE(s.fill);
}

// [H200] a start outside the bounding box traps (illegal instruction).
TEST(Im2colModel, StartOutsideTheBoxTraps) {
  Im2colPlan plan = mustPlan(request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 8, 8));
  std::string trap;
  EXPECT_FALSE(modelIm2col(plan.map, {0, -3, 0, 0}, {0, 0}, &trap));
  EXPECT_EQ(trap, "start -3 of driver dimension 2 lies outside the bounding "
                  "box [-1, 3]");
  EXPECT_FALSE(modelIm2col(plan.map, {0, 0, 4, 0}, {0, 0}, &trap));
  EXPECT_EQ(trap, "start 4 of driver dimension 1 lies outside the bounding "
                  "box [-1, 3]");
}

TEST(Im2colModel, SwizzledTileBytes) {
  Im2colRequest r = request({1, 4, 4, 32}, {0, 0}, {0, 0}, {1, 1}, 8, 32);
  r.sharedLayout = Layout::rowMajor({8, 32}, Swizzle::B128);
  Im2colPlan plan = mustPlan(r);
  // Row 1's first 16-byte chunk moves to chunk 1.
  EXPECT_EQ(im2colSharedByte(plan.map, 1, 0), 128 + 16);
  EXPECT_EQ(im2colSharedByte(plan.map, 1, 4), 128);
  EXPECT_EQ(im2colSharedByte(plan.map, 0, 4), 16);
}

/// The convolution's own definition of the column: output position q =
/// (n, o...) in row-major order over the output grid, input position
/// lower + o * stride + tap.
std::vector<Im2colSource> reference(const std::vector<int64_t> &sizes,
                                    const std::vector<int64_t> &lower,
                                    const std::vector<int64_t> &upper,
                                    const std::vector<int64_t> &strides,
                                    const std::vector<int64_t> &start,
                                    const std::vector<int64_t> &taps,
                                    int64_t pixels, int64_t channels) {
  size_t rank = sizes.size(), spatial = rank - 2;
  std::vector<int64_t> outputs(spatial);
  int64_t perImage = 1;
  for (size_t j = 0; j < spatial; ++j) {
    outputs[j] = (sizes[j + 1] - 1 + upper[j] - lower[j]) / strides[j] + 1;
    perImage *= outputs[j];
  }
  int64_t first = start[0] * perImage, scale = 1;
  for (size_t j = spatial; j-- > 0;) {
    first += (start[j + 1] - lower[j]) / strides[j] * scale;
    scale *= outputs[j];
  }
  std::vector<Im2colSource> tile;
  for (int64_t p = 0; p < pixels; ++p) {
    int64_t q = first + p;
    std::vector<int64_t> coords(rank);
    for (size_t j = spatial; j-- > 0;) {
      coords[j + 1] = lower[j] + q % outputs[j] * strides[j] + taps[j];
      q /= outputs[j];
    }
    coords[0] = q;
    for (int64_t ch = 0; ch < channels; ++ch) {
      coords[rank - 1] = start[rank - 1] + ch;
      Im2colSource s;
      for (size_t d = 0; d < rank; ++d)
        if (coords[d] < 0 || coords[d] >= sizes[d])
          s.fill = true;
      if (!s.fill)
        s.coords = coords;
      tile.push_back(s);
    }
  }
  return tile;
}

// Random convolutions (rank 3..5, padding, strides, taps, starts on the
// output grid): the model equals the convolution's definition.
TEST(Im2colProperty, ModelMatchesTheConvolution) {
  std::mt19937_64 rng(20261201);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int planned = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    size_t rank = pick(3, 5), spatial = rank - 2;
    std::vector<int64_t> sizes(rank), lower(spatial), upper(spatial),
        strides(spatial), taps(spatial), start(rank, 0);
    sizes[0] = pick(1, 3);
    sizes[rank - 1] = 4 * pick(1, 4);
    int64_t cornerLimit = im2colCornerLimit(rank);
    for (size_t j = 0; j < spatial; ++j) {
      sizes[j + 1] = pick(1, 7);
      int64_t filter = pick(1, 4), pad = pick(0, 2);
      lower[j] = std::max(-pad, -cornerLimit);
      upper[j] = pad - (filter - 1);
      strides[j] = pick(1, 3);
      taps[j] = pick(0, filter - 1);
    }
    int64_t channels = 4 * pick(1, sizes[rank - 1] / 4);
    Im2colRequest r =
        request(sizes, lower, upper, strides, pick(1, 40), channels);
    Im2colError error;
    std::optional<Im2colPlan> plan = planIm2col(r, &error);
    if (!plan) {
      // Only an empty bounding box (filter larger than the padded input).
      EXPECT_EQ(error.rule, RuleId::Im2colCorner) << error.message;
      continue;
    }
    ++planned;
    // A start on the output grid: image and output position.
    start[0] = pick(0, sizes[0] - 1);
    for (size_t j = 0; j < spatial; ++j) {
      int64_t outputs =
          (sizes[j + 1] - 1 + upper[j] - lower[j]) / strides[j] + 1;
      start[j + 1] = lower[j] + pick(0, outputs - 1) * strides[j];
    }
    start[rank - 1] = 4 * pick(0, (sizes[rank - 1] - channels) / 4);
    auto tile = modelIm2col(plan->map, start, taps, nullptr);
    ASSERT_TRUE(tile);
    auto expected = reference(sizes, lower, upper, strides, start, taps,
                              plan->map.pixelsPerColumn, channels);
    ASSERT_EQ(*tile, expected) << "case " << iter;
  }
  EXPECT_GT(planned, 2000);
}

TEST(Im2colRules, RankAndCounts) {
  Im2colRequest r = request({5, 8}, {}, {}, {}, 8, 8);
  EXPECT_EQ(ruleText(r),
            "im2col-rank: the global tensor has rank 2; im2col loads a "
            "channels-last tensor of rank 3..5 ([N, W, C], [N, H, W, C], "
            "[N, D, H, W, C])");
  r = request(kNHWC, {-1}, {-1, -1}, {1, 1}, 8, 8);
  EXPECT_EQ(ruleText(r), "im2col-rank: 1 lower corner value(s) for a rank-4 "
                         "tensor; it has 2 spatial dimension(s)");
}

TEST(Im2colRules, Global) {
  Im2colRequest r = request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 8, 8);
  r.globalStrides = known({400, 80, 16, 2});
  EXPECT_EQ(ruleText(r), "im2col-global: the channels (dimension 3) have "
                         "stride 2; im2col reads each pixel's channels "
                         "contiguously (stride 1)");
  r.globalStrides = {std::nullopt, 80, 16, std::nullopt};
  EXPECT_EQ(ruleText(r), "im2col-global: the channels (dimension 3) have "
                         "stride ? (known only at run time); im2col reads "
                         "each pixel's channels contiguously (stride 1)");
  r.globalStrides = known({400, 80, 12, 1});
  EXPECT_EQ(ruleText(r), "planned");
  r.globalStrides = known({400, 80, 10, 1});
  EXPECT_EQ(ruleText(r), "im2col-global: stride 10 of dimension 2 is 40 B, "
                         "not a multiple of 16 B");
  r.globalStrides = {std::nullopt, std::nullopt, std::nullopt, 1};
  r.globalSizes = {std::nullopt, 5, 5, 8};
  EXPECT_EQ(ruleText(r), "planned");
}

// [H200] rank 4 corners: -128 accepted, -129 and 128 rejected; an empty
// box rejected.
TEST(Im2colRules, Corners) {
  EXPECT_EQ(ruleText(request(kNHWC, {-128, 0}, {0, 0}, {1, 1}, 8, 8)),
            "planned");
  EXPECT_EQ(ruleText(request(kNHWC, {0, -129}, {0, 0}, {1, 1}, 8, 8)),
            "im2col-corner: lower corner -129 of dimension 2 is outside "
            "[-128, 127] (rank 4)");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {128, 0}, {1, 1}, 8, 8)),
            "im2col-corner: upper corner 128 of dimension 1 is outside "
            "[-128, 127] (rank 4)");
  EXPECT_EQ(ruleText(request({2, 5, 8}, {-32768}, {32767}, {1}, 8, 8)),
            "planned");
  EXPECT_EQ(ruleText(request({2, 5, 5, 5, 8}, {0, 0, -17}, {0, 0, 0}, {1, 1, 1},
                             8, 8)),
            "im2col-corner: lower corner -17 of dimension 3 is outside "
            "[-16, 15] (rank 5)");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 3}, {0, -3}, {1, 1}, 8, 8)),
            "im2col-corner: the bounding box of dimension 2 is empty: [3, 1] "
            "(size 5, corners 3 and -3)");
}

TEST(Im2colRules, TraversalStride) {
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {8, 1}, 8, 8)), "planned");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {9, 1}, 8, 8)),
            "im2col-stride: traversal stride 9 of dimension 1 is outside 1..8");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {1, 0}, 8, 8)),
            "im2col-stride: traversal stride 0 of dimension 2 is outside 1..8");
}

// [H200] 260 channels and 6 x 4 B rejected; 1024 pixels accepted, 1025
// rejected.
TEST(Im2colRules, Tile) {
  std::vector<int64_t> wide = {1, 2, 2, 512};
  EXPECT_EQ(ruleText(request(wide, {0, 0}, {0, 0}, {1, 1}, 1, 256)), "planned");
  EXPECT_EQ(ruleText(request(wide, {0, 0}, {0, 0}, {1, 1}, 1, 260)),
            "im2col-channels: 260 channels per pixel; the hardware loads "
            "1..256");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 4, 6)),
            "im2col-channels: 6 channels x 4 B = 24 B is not a multiple of "
            "16 B");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 1024, 4)),
            "planned");
  EXPECT_EQ(ruleText(request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 1025, 4)),
            "im2col-pixels: 1025 pixels per column; the hardware loads "
            "1..1024");
  Im2colRequest r = request(wide, {0, 0}, {0, 0}, {1, 1}, 8, 64);
  r.sharedLayout = Layout::rowMajor({8, 64}, Swizzle::B128);
  EXPECT_EQ(ruleText(r), "im2col-channels: 64 channels x 4 B = 256 B exceed "
                         "the 128B swizzle span of 128 B");
}

TEST(Im2colRules, SharedLayout) {
  Im2colRequest r = request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 8, 8);
  r.sharedShape = {64};
  r.sharedLayout = Layout::rowMajor({64});
  EXPECT_EQ(ruleText(r), "im2col-shared: the shared tile has shape [64]; "
                         "im2col writes a [pixels, channels] tile");
  r = request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 8, 8);
  r.sharedLayout = Layout::strided({8, 8}, {16, 1});
  EXPECT_EQ(ruleText(r), "im2col-shared: pixel 1 channel 0 is at shared byte "
                         "64; the hardware writes it at byte 32");
  // A 64-byte row under a 128B swizzle still takes a whole 128-byte row.
  r = request({1, 4, 4, 16}, {0, 0}, {0, 0}, {1, 1}, 8, 16);
  r.sharedLayout = Layout::rowMajor({8, 16}, Swizzle::B128);
  EXPECT_EQ(ruleText(r), "im2col-shared: pixel 1 channel 0 is at shared byte "
                         "64; the hardware writes it at byte 144");
  r.sharedLayout = *Layout::parse("(8, 16) : (32, 1), swizzle = 128B");
  EXPECT_EQ(ruleText(r), "planned");
  r.sharedBaseAlignment = 512;
  EXPECT_EQ(ruleText(r), "im2col-shared: the shared tile's start is known to "
                         "be 512-byte aligned; the hardware needs 1024 bytes");
}

// [H200] rank-4 offsets keep 8 bits (257 loads as 1); a start outside the
// bounding box traps.
TEST(Im2colRules, StartAndOffsets) {
  Im2colRequest r = request(kNHWC, {-1, -1}, {-1, -1}, {1, 1}, 8, 8);
  r.offsets = {2, 255};
  EXPECT_EQ(ruleText(r), "planned");
  r.offsets = {257, 0};
  EXPECT_EQ(ruleText(r), "im2col-offset: offset 257 of dimension 1 is outside "
                         "[0, 255] (rank 4 keeps 8 bits)");
  r.offsets = {std::nullopt, std::nullopt};
  r.start = {0, -3, 0, 0};
  EXPECT_EQ(ruleText(r),
            "im2col-start: start -3 of dimension 1 lies outside the bounding "
            "box [-1, 3] (size 5, corners -1 and -1); the instruction traps");
  r.start = {0, 0, 4, std::nullopt};
  EXPECT_EQ(ruleText(r),
            "im2col-start: start 4 of dimension 2 lies outside the bounding "
            "box [-1, 3] (size 5, corners -1 and -1); the instruction traps");
  r.start = {std::nullopt, 3, -1, -4};
  EXPECT_EQ(ruleText(r), "planned");
}

TEST(Im2colRules, DataType) {
  Im2colRequest r = request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 8, 16);
  r.elementType = {ScalarKind::Float, 1};
  r.sharedLayout = Layout::rowMajor({8, 16});
  EXPECT_EQ(ruleText(r).substr(0, 10), "data-type:");
}

// The driver fills out-of-bounds elements with NaN only in floating-point
// maps (the runtime refuses the others at encode time).
TEST(Im2colRules, NanFillNeedsAFloatType) {
  Im2colRequest r = request(kNHWC, {0, 0}, {0, 0}, {1, 1}, 8, 16);
  r.oobFill = OobFill::NaN;
  EXPECT_EQ(ruleText(r), "nan-fill-type: NaN fill needs f16, bf16, f32 or "
                         "f64, not ui32");
  r.elementType = f32();
  EXPECT_EQ(ruleText(r), "planned");
}

} // namespace
