//===- DrawTest.cpp - The pictures agree with the hardware model ----------===//
//
// Reads the data attributes back from the SVG and compares them with what the
// hardware model does when it executes the plan on tagged memory images:
// which tensor element lands in which 16-byte chunk, which chunks each
// instruction writes, which are filled out of bounds.
//
//===----------------------------------------------------------------------===//

#include "tile/Draw/Draw.h"

#include "TMA/TestUtil.h"
#include "TMA/WorkedCases.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

using namespace tile;
using namespace tile::tma;
using namespace tile::tma::test;

namespace {

using Index = std::vector<int64_t>;
using ElementChunk = std::pair<Index, int64_t>;

Index parseIndex(const std::string &text) {
  Index out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos)
      end = text.size();
    out.push_back(std::stoll(text.substr(pos, end - pos)));
    pos = end + 1;
  }
  return out;
}

/// The value of attribute `name` in the tag `tag`, or "".
std::string attr(const std::string &tag, const std::string &name) {
  std::smatch m;
  std::regex re(" " + name + "=\"([^\"]*)\"");
  return std::regex_search(tag, m, re) ? m[1].str() : "";
}

std::vector<std::string> tags(const std::string &svg, const std::string &kind,
                              const std::string &marker) {
  std::vector<std::string> out;
  size_t pos = 0;
  while ((pos = svg.find("<" + kind + " ", pos)) != std::string::npos) {
    size_t end = svg.find('>', pos);
    std::string tag = svg.substr(pos, end - pos + 1);
    if (tag.find(marker) != std::string::npos)
      out.push_back(tag);
    pos = end;
  }
  return out;
}

/// What the picture says.
struct Picture {
  std::set<ElementChunk> moved;  // (tensor index, chunk), in bounds
  std::set<ElementChunk> filled; // (tensor index, chunk), out of bounds
  std::vector<std::set<int64_t>> boxChunks;
  std::vector<Index> boxCoords;
  std::map<Index, int64_t> boxOf; // tensor index -> box
};

Picture readPicture(const std::string &svg) {
  Picture p;
  for (const std::string &tag : tags(svg, "rect", "data-global=")) {
    ElementChunk ec{parseIndex(attr(tag, "data-global")),
                    std::stoll(attr(tag, "data-chunk"))};
    (attr(tag, "data-oob") == "1" ? p.filled : p.moved).insert(ec);
    std::string box = attr(tag, "data-box");
    if (!box.empty())
      p.boxOf[ec.first] = std::stoll(box);
  }
  for (const std::string &tag : tags(svg, "path", "data-box=")) {
    size_t b = std::stoul(attr(tag, "data-box"));
    p.boxChunks.resize(std::max(p.boxChunks.size(), b + 1));
    p.boxCoords.resize(p.boxChunks.size());
    std::set<int64_t> &chunks = p.boxChunks[b];
    std::string list = attr(tag, "data-chunks");
    for (size_t pos = 0; pos < list.size();) {
      size_t end = list.find(' ', pos);
      if (end == std::string::npos)
        end = list.size();
      chunks.insert(std::stoll(list.substr(pos, end - pos)));
      pos = end + 1;
    }
    p.boxCoords[b] = parseIndex(attr(tag, "data-coords"));
  }
  return p;
}

constexpr uint32_t kFill = 0xF0000000;

/// What the hardware model does: every issue executed on a tagged global
/// image (byte b holds b + 1) and a zeroed shared image.
Picture runModel(const CopyRequest &r, const TmaPlan &plan) {
  int64_t eb = r.elementType.bytes;
  int64_t base = r.sharedBaseAlignment;
  // Global byte offset of each tensor element.
  std::map<int64_t, Index> tensorIndexAt;
  std::optional<GroupedLayout> g = groupOnto(r.globalLayout, r.globalShape);
  EXPECT_TRUE(g);
  int64_t gCount = 1;
  for (int64_t n : r.globalShape)
    gCount *= n;
  Index idx(r.globalShape.size(), 0);
  for (int64_t e = 0; e < gCount; ++e) {
    int64_t rest = e;
    for (size_t d = idx.size(); d-- > 0;) {
      idx[d] = rest % r.globalShape[d];
      rest /= r.globalShape[d];
    }
    tensorIndexAt[g->offsetOf(idx) * eb] = idx;
  }
  MemoryImage global{
      0, std::vector<uint32_t>(static_cast<size_t>(
             (r.globalLayout.elementOffset() + r.globalLayout.cosize()) * eb))};
  for (size_t i = 0; i < global.cells.size(); ++i)
    global.cells[i] = static_cast<uint32_t>(i + 1);
  std::optional<GroupedLayout> s = groupOnto(r.sharedLayout, r.sharedShape);
  EXPECT_TRUE(s);
  MemoryImage shared{base, std::vector<uint32_t>(static_cast<size_t>(
                               s->flatten().cosize() * eb))};
  Picture p;
  FillCells fill{{kFill}, {kFill}};
  for (const TmaIssue &issue : plan.issues) {
    MemoryImage before = shared;
    EXPECT_EQ(
        simulateIssue(plan.map, issue, r.direction, {}, global, shared, fill),
        std::nullopt);
    std::set<int64_t> chunks;
    for (size_t i = 0; i < shared.cells.size(); ++i)
      if (shared.cells[i] != before.cells[i])
        chunks.insert(static_cast<int64_t>(i) / 16);
    p.boxChunks.push_back(chunks);
    Index coords;
    for (const SymExpr &c : issue.coords)
      coords.push_back(c.evaluate({}));
    p.boxCoords.push_back(coords);
  }
  for (size_t i = 0; i < shared.cells.size(); i += eb) {
    uint32_t v = shared.cells[i];
    if (v == 0 || v == kFill)
      continue;
    auto it = tensorIndexAt.find(static_cast<int64_t>(v) - 1);
    EXPECT_NE(it, tensorIndexAt.end()) << "byte " << i;
    if (it != tensorIndexAt.end())
      p.moved.insert({it->second, static_cast<int64_t>(i) / 16});
  }
  return p;
}

std::set<int64_t> chunksOf(const std::set<ElementChunk> &s) {
  std::set<int64_t> out;
  for (const ElementChunk &ec : s)
    out.insert(ec.second);
  return out;
}

/// Plans `r`, draws it, and checks the picture against the model.
Picture checkAgainstModel(const CopyRequest &r, size_t expectedIssues) {
  PlanOutcome outcome = planTmaCopy(r);
  EXPECT_TRUE(outcome.plan) << messageOf(outcome.decline);
  if (!outcome.plan)
    return {};
  EXPECT_EQ(outcome.plan->issues.size(), expectedIssues);
  draw::CopyPicture in;
  in.title = "test";
  in.direction = "g2s";
  in.selected = "tma";
  in.request = r;
  in.plan = outcome.plan;
  std::string svg = draw::drawCopy(in);
  Picture got = readPicture(svg);
  Picture want = runModel(r, *outcome.plan);
  EXPECT_EQ(got.moved, want.moved);
  EXPECT_EQ(got.boxChunks, want.boxChunks);
  EXPECT_EQ(got.boxCoords, want.boxCoords);
  // Filled elements sit exactly in the chunks the model filled.
  std::set<int64_t> wantFilled;
  for (size_t b = 0; b < want.boxChunks.size(); ++b)
    for (int64_t k : want.boxChunks[b])
      wantFilled.insert(k);
  for (int64_t k : chunksOf(want.moved))
    wantFilled.erase(k);
  std::set<int64_t> gotFilled = chunksOf(got.filled);
  for (int64_t k : chunksOf(got.moved))
    gotFilled.erase(k);
  EXPECT_EQ(gotFilled, wantFilled);
  // Every drawn element sits in a chunk of the box that moves it.
  for (const auto &[index, box] : got.boxOf)
    EXPECT_LT(static_cast<size_t>(box), got.boxChunks.size());
  for (const ElementChunk &ec : got.moved)
    EXPECT_TRUE(got.boxChunks[got.boxOf[ec.first]].count(ec.second))
        << formatList(ec.first);
  return got;
}

TEST(DrawCopy, ReferenceDemoMatchesModel) {
  Picture p = checkAgainstModel(referenceDemo(), 1);
  EXPECT_EQ(p.moved.size(), 2048u);
  EXPECT_TRUE(p.filled.empty());
  // Docs/layout.md: element (1, 0) lands at byte 144 (chunk 9), element
  // (0, 64) at byte 1024 (chunk 64), element (1, 8) at byte 128 (chunk 8).
  EXPECT_TRUE(p.moved.count({{1, 0}, 9}));
  EXPECT_TRUE(p.moved.count({{0, 64}, 64}));
  EXPECT_TRUE(p.moved.count({{1, 8}, 8}));
  ASSERT_EQ(p.boxChunks.size(), 1u);
  EXPECT_EQ(p.boxChunks[0].size(), 256u);
  EXPECT_EQ(p.boxCoords[0], (Index{0, 0, 0}));
}

TEST(DrawCopy, Swizzle64MatchesModel) {
  CopyRequest r = load(f16(), Layout::rowMajor({16, 32}), {16, 32},
                       parse("(16, 32), swizzle = 64B"), {16, 32});
  Picture p = checkAgainstModel(r, 1);
  // Row 2 starts at byte 128: chunk 8 XOR 1 = chunk 9; row 4 at byte 256:
  // chunk 16 XOR 2 = chunk 18.
  EXPECT_TRUE(p.moved.count({{2, 0}, 9}));
  EXPECT_TRUE(p.moved.count({{4, 0}, 18}));
  EXPECT_TRUE(p.moved.count({{0, 0}, 0}));
}

TEST(DrawCopy, MultiIssueMatchesModel) {
  // A padded rank-5 tile whose shared layout puts the two 64B swizzle atoms
  // of the inner dimension outermost: one box would need rank 6, so the
  // atoms become 2 instructions of rank 5.
  CopyRequest r =
      load(f16(), Layout::strided({2, 2, 2, 2, 64}, {736, 352, 160, 72, 1}),
           {2, 2, 2, 2, 64},
           parse("(2, 2, 2, 2, 2, 32) : (256, 128, 64, 32, 512, 1), "
                 "swizzle = 64B"),
           {2, 2, 2, 2, 64});
  Picture p = checkAgainstModel(r, 2);
  EXPECT_EQ(p.moved.size(), 16u * 64);
  ASSERT_EQ(p.boxChunks.size(), 2u);
  EXPECT_EQ(p.boxChunks[0].size(), 64u);
  EXPECT_EQ(p.boxChunks[1].size(), 64u);
  EXPECT_EQ(*p.boxChunks[1].begin(), 64);
  EXPECT_EQ(p.boxCoords[1], (Index{32, 0, 0, 0, 0}));
  // Columns 0..31 go to the first box, 32..63 to the second.
  EXPECT_EQ(p.boxOf[(Index{1, 1, 1, 1, 31})], 0);
  EXPECT_EQ(p.boxOf[(Index{0, 0, 0, 0, 32})], 1);
}

TEST(DrawCopy, OutOfBoundsLoadMatchesModel) {
  // Rows 4..11 of a 10-row tensor: rows 10 and 11 are filled.
  CopyRequest r = load(f16(), Layout::rowMajor({10, 64}), {10, 64},
                       parse("(8, 64), swizzle = 128B"), {8, 64});
  r.globalOffsets = {SymExpr(4), SymExpr(0)};
  r.globalSizes = {8, 64};
  Picture p = checkAgainstModel(r, 1);
  EXPECT_EQ(p.moved.size(), 6u * 64);
  EXPECT_EQ(p.filled.size(), 2u * 64);
  // Region row 6 (tensor row 10) is shared row 6: bytes [768, 896).
  EXPECT_TRUE(p.filled.count({{10, 0}, 6 * 8 + 6}));
  EXPECT_TRUE(p.moved.count({{4, 0}, 0}));
}

// A plan that claims the copy's 4096 bytes but names a box of 256^4 rows
// (written by hand): the picture sizes the boxes by what they move, says so,
// and returns at once instead of walking 2^39 bytes of box.
TEST(DrawCopy, BoxesLargerThanTheyClaimAreNotWalked) {
  CopyRequest r = referenceDemo();
  PlanOutcome outcome = planTmaCopy(r);
  ASSERT_TRUE(outcome.plan) << messageOf(outcome.decline);
  TmaPlan plan = *outcome.plan;
  plan.map.rank = 5;
  plan.map.globalDim = {64, 256, 256, 256, 256};
  plan.map.globalStridesBytes = {128, 32768, 8388608, 2147483648};
  plan.map.boxDim = {64, 256, 256, 256, 256};
  plan.map.elementStrides = {1, 1, 1, 1, 1};
  plan.issues = {
      TmaIssue{SymExpr(0),
               {SymExpr(0), SymExpr(0), SymExpr(0), SymExpr(0), SymExpr(0)}}};
  draw::CopyPicture in;
  in.title = "test";
  in.direction = "g2s";
  in.selected = "tma";
  in.request = r;
  in.plan = plan;
  std::string svg = draw::drawCopy(in);
  EXPECT_NE(svg.find("the copy moves more than 8388608 bytes: the boxes are "
                     "not drawn"),
            std::string::npos);
}

TEST(DrawCopy, DeclinedCopySaysWhy) {
  draw::CopyPicture in;
  in.title = "a.mlir:3:5";
  in.direction = "g2s";
  in.selected = "simt";
  in.declined = {{"tma", "box-inner-bytes: 8 B < 16 <b>"}};
  std::string svg = draw::drawCopy(in);
  EXPECT_NE(svg.find("declined tma: box-inner-bytes: 8 B &lt; 16 &lt;b&gt;"),
            std::string::npos);
  EXPECT_NE(svg.find("data-declined=\"tma\""), std::string::npos);
}

TEST(DrawLayout, ElementsSitAtTheirSwizzledBytes) {
  Layout l = parse("(8, 4, 64) : (64, 512, 1), swizzle = 128B");
  std::string error;
  std::optional<std::string> svg = draw::drawLayout(l, {8, 256}, 2, 0, &error);
  ASSERT_TRUE(svg) << error;
  std::set<ElementChunk> got;
  for (const std::string &tag : tags(*svg, "rect", "data-element="))
    got.insert({parseIndex(attr(tag, "data-element")),
                std::stoll(attr(tag, "data-chunk"))});
  std::optional<GroupedLayout> g = groupOnto(l, {8, 256});
  ASSERT_TRUE(g);
  std::set<ElementChunk> want;
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 256; ++c)
      want.insert({{r, c}, g->byteAddressOf({r, c}, 2) / 16});
  EXPECT_EQ(got, want);
  EXPECT_TRUE(got.count({{1, 0}, 9}));
}

TEST(DrawLayout, RejectsWhatTheLayoutCannotDo) {
  std::string error;
  EXPECT_FALSE(draw::drawLayout(parse("(8, 64), swizzle = 128B"), {8, 64}, 3, 0,
                                &error));
  EXPECT_EQ(error, "element size 3 B does not divide 16");
  EXPECT_FALSE(draw::drawLayout(parse("(8, 64)"), {7, 64}, 2, 0, &error));
  EXPECT_NE(error.find("(8, 64)"), std::string::npos) << error;
}

TEST(DrawLayout, LargeBuffersShowTheirStart) {
  std::optional<std::string> svg =
      draw::drawLayout(Layout::rowMajor({256, 256}), {}, 4);
  ASSERT_TRUE(svg);
  EXPECT_NE(svg->find("showing the first 32768 of 262144 bytes"),
            std::string::npos);
  EXPECT_EQ(tags(*svg, "rect", "data-element=").size(), 32768u / 4);
}

TEST(Draw, EscapesXml) {
  EXPECT_EQ(draw::escapeXml("a<b>&\"c'\x01"), "a&lt;b&gt;&amp;&quot;c&apos;?");
}

} // namespace
