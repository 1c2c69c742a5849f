//===- WgmmaPropertyTest.cpp - Random layouts against the descriptor model ===//
//
// Random 2-D shared layouts (canonical layouts of each swizzle and element
// size, and perturbed ones, read K-major or MN-major) and random block
// starts: whenever the
// planner accepts, the model reads every element of the block at the
// layout's absolute swizzled byte address; whenever it declines, the rule
// id is a known one. A canonical layout with an aligned start is always
// accepted.
//
//===----------------------------------------------------------------------===//

#include "tile/MMA/WgmmaDescriptor.h"
#include "tile/Support/Rules.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace tile;
using namespace tile::mma;

namespace {

struct Case {
  Layout layout;
  std::vector<int64_t> shape;
  int64_t elementBytes = 2;
  int64_t row = 0, col = 0, rows = 8, k = 16;
  int64_t baseAlignment = 1024;
  int64_t base = 0;
  /// A canonical layout, an aligned base and an aligned start: must plan.
  bool mustAccept = false;
  std::string kind;
  WgmmaMajor major = WgmmaMajor::K;
};

class Generator {
public:
  explicit Generator(uint64_t seed) : rng(seed) {}

  Case next() {
    Case c;
    Swizzle swizzle =
        pick<Swizzle>({Swizzle::B32, Swizzle::B64, Swizzle::B128});
    // MN-major reads 16-bit elements only: mostly those.
    bool mnMajor = chance(0.35);
    c.elementBytes = mnMajor && chance(0.85) ? 2 : pick<int64_t>({1, 2, 4});
    int64_t span = swizzleSpanBytes(swizzle);
    int64_t repeat = swizzleRepeatBytes(swizzle);
    int64_t perRow = span / c.elementBytes; // elements in one swizzle row
    int64_t atoms = uniform(1, 16);         // 8-row atoms along M/N
    int64_t panels = uniform(1, 3);         // K panels of one span
    int64_t rowsTotal = 8 * atoms;
    c.shape = {rowsTotal, panels * perRow};
    int64_t offset = 0;
    if (chance(0.3))
      offset = uniform(0, 4) * repeat / c.elementBytes; // a later stage
    int64_t gap = chance(0.2) ? uniform(1, 2) * repeat / c.elementBytes : 0;
    int64_t atomStride = 8 * perRow + gap;
    int64_t panelStride = atoms * atomStride;
    // Canonical: (atoms, 8 | panels, perRow) : (atomStride, perRow |
    // panelStride, 1), an optional gap between atoms.
    std::vector<Shard> shards = {
        {atoms, atomStride}, {8, perRow}, {panels, panelStride}, {perRow, 1}};
    c.kind = "canonical";
    bool canonical = true;
    switch (uniform(0, 9)) {
    case 0: // wrong row pitch
      shards[1].stride =
          perRow + pick<int64_t>({16, 32, perRow}) / c.elementBytes;
      shards[0].stride = 8 * shards[1].stride;
      shards[2].stride = atoms * shards[0].stride;
      c.kind = "row-pitch";
      canonical = false;
      break;
    case 1: { // wrong swizzle
      Swizzle other = pick<Swizzle>(
          {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128});
      canonical = other == swizzle;
      swizzle = other;
      c.kind = "swizzle";
      break;
    }
    case 2: // transposed: M contiguous
      shards = {{rowsTotal, 1}, {panels * perRow, rowsTotal}};
      c.kind = "transposed";
      canonical = false;
      break;
    case 3: // an odd gap between atoms
      shards[0].stride += pick<int64_t>({16, 128, 256}) / c.elementBytes;
      shards[2].stride = atoms * shards[0].stride;
      c.kind = "gap";
      canonical = false;
      break;
    case 4: // an element offset off the repeat
      offset += pick<int64_t>({16, 32, 64, 128}) / c.elementBytes;
      c.kind = "offset";
      canonical = false;
      break;
    default:
      break;
    }
    c.layout = Layout(shards, swizzle, offset);

    c.rows = chance(0.05) ? uniform(1, 64) : 8 * uniform(1, atoms);
    c.k =
        chance(0.05) ? pick<int64_t>({4, 8, 16, 32, 64}) : 32 / c.elementBytes;
    int64_t kStep = 32 / c.elementBytes;
    if (chance(0.7)) {
      c.row = 8 * uniform(0, std::max<int64_t>(0, (rowsTotal - c.rows) / 8));
      c.col = kStep * uniform(0, std::max<int64_t>(0, c.shape[1] / kStep - 1));
    } else {
      c.row = uniform(-1, rowsTotal);
      c.col = uniform(-1, c.shape[1]);
    }
    c.baseAlignment = chance(0.9) ? repeat * pick<int64_t>({1, 2})
                                  : pick<int64_t>({16, 128, 256, 512});
    c.base = c.baseAlignment * uniform(0, 8);
    if (mnMajor)
      return asMnMajor(c, canonical, swizzle);
    c.mustAccept = canonical && c.baseAlignment % repeat == 0 &&
                   c.row % 8 == 0 && c.row >= 0 &&
                   c.row + c.rows <= rowsTotal && c.col % kStep == 0 &&
                   c.col >= 0 && c.col + c.k <= c.shape[1] && c.k == kStep &&
                   c.rows % 8 == 0 && c.rows <= 256 && swizzle != Swizzle::None;
    return c;
  }

private:
  std::mt19937_64 rng;

  /// The same buffer read MN-major: dimension 0 (the 8-row atoms) is K,
  /// dimension 1 (the spans) M/N; starts on K groups and on spans. Only
  /// 16-bit canonical layouts with aligned starts must plan.
  Case asMnMajor(Case c, bool canonical, Swizzle swizzle) {
    c.major = WgmmaMajor::MN;
    c.kind += "/mn";
    // No swizzle (a perturbed case): starts on 16-byte chunks.
    int64_t perSpan =
        std::max<int64_t>(16, swizzleSpanBytes(swizzle)) / c.elementBytes;
    int64_t kStep = 32 / c.elementBytes;
    c.k = chance(0.05) ? pick<int64_t>({4, 8, 16, 32}) : kStep;
    c.rows =
        chance(0.05)
            ? uniform(1, 64)
            : 8 * uniform(1, std::max<int64_t>(
                                 1, std::min<int64_t>(32, c.shape[1] / 8)));
    if (chance(0.7)) {
      c.row = 8 * uniform(0, std::max<int64_t>(0, (c.shape[0] - c.k) / 8));
      c.col = perSpan *
              uniform(0, std::max<int64_t>(0, (c.shape[1] - c.rows) / perSpan));
    } else {
      c.row = uniform(-1, c.shape[0]);
      c.col = uniform(-1, c.shape[1]);
    }
    c.mustAccept = canonical && c.elementBytes == 2 &&
                   c.baseAlignment % swizzleRepeatBytes(swizzle) == 0 &&
                   c.row % 8 == 0 && c.row >= 0 && c.row + c.k <= c.shape[0] &&
                   c.col % perSpan == 0 && c.col >= 0 &&
                   c.col + c.rows <= c.shape[1] && c.k == kStep &&
                   c.rows % 8 == 0 && c.rows <= 256 && swizzle != Swizzle::None;
    return c;
  }
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }
  template <typename T>
  T pick(std::initializer_list<T> values) {
    return *(values.begin() + uniform(0, int64_t(values.size()) - 1));
  }
};

/// Checks one case; an empty string when it holds.
std::string check(const Case &c, std::map<std::string, int> &declines,
                  int &accepted) {
  WgmmaDescriptorPlan plan =
      planWgmmaDescriptor(c.layout, c.shape, c.elementBytes, c.row, c.col,
                          c.rows, c.k, c.baseAlignment, c.major);
  std::string where = c.kind + " " + c.layout.str() +
                      " eb=" + std::to_string(c.elementBytes) + " [" +
                      std::to_string(c.row) + ", " + std::to_string(c.col) +
                      "] " + std::to_string(c.rows) + "x" +
                      std::to_string(c.k) + " base=" + std::to_string(c.base);
  if (!plan.accepted()) {
    std::string id = std::string(ruleIdName(plan.decline->rule));
    ++declines[id];
    if (c.mustAccept)
      return where + ": canonical block declined: " + messageOf(plan.decline);
    return "";
  }
  ++accepted;
  std::optional<GroupedLayout> g = groupOnto(c.layout, c.shape);
  if (!g)
    return where + ": accepted a layout that does not group";
  // Through the 64-bit encoding, as the hardware sees it.
  WgmmaDescriptorFields hw =
      decodeWgmmaDescriptor(encodeWgmmaDescriptor(*plan.fields, c.base));
  if (hw.startByte != c.base + plan.fields->startByte)
    return where + ": start does not survive the encoding";
  for (int64_t m = 0; m < c.rows; ++m)
    for (int64_t kk = 0; kk < c.k; ++kk) {
      std::optional<WgmmaOperandAddress> a =
          wgmmaOperandByteAddress(hw, m, kk, c.elementBytes, c.major);
      if (!a)
        return where + ": the model does not cover the plan";
      // K-major: [M/N, K]; MN-major: [K, M/N].
      std::vector<int64_t> index = {c.row + m, c.col + kk};
      if (c.major == WgmmaMajor::MN)
        index = {c.row + kk, c.col + m};
      int64_t want = g->byteAddressOf(index, c.elementBytes, c.base);
      int64_t linear = c.base + g->offsetOf(index) * c.elementBytes;
      if (a->swizzled != want || a->linear != linear)
        return where + ": element (" + std::to_string(m) + ", " +
               std::to_string(kk) + ") model " + std::to_string(a->swizzled) +
               " (linear " + std::to_string(a->linear) + "), layout " +
               std::to_string(want) + " (linear " + std::to_string(linear) +
               ")";
    }
  return "";
}

TEST(WgmmaProperty, FixedSeed) {
  Generator gen(/*seed=*/20261201);
  std::map<std::string, int> declines;
  int accepted = 0, failures = 0, acceptedMn = 0;
  const int cases = 20000;
  for (int i = 0; i < cases; ++i) {
    Case c = gen.next();
    int before = accepted;
    std::string failure = check(c, declines, accepted);
    if (accepted > before && c.major == WgmmaMajor::MN)
      ++acceptedMn;
    if (!failure.empty() && ++failures <= 10)
      ADD_FAILURE() << failure;
  }
  std::printf("%d cases, %d accepted", cases, accepted);
  for (const auto &[id, n] : declines)
    std::printf(", %s %d", id.c_str(), n);
  std::printf("\n");
  EXPECT_EQ(failures, 0);
  EXPECT_GT(accepted, cases / 4);
  EXPECT_GT(acceptedMn, cases / 20);
  for (const char *id :
       {"wgmma-shape", "wgmma-layout", "wgmma-align", "smem-bounds"})
    EXPECT_GT(declines[id], 0) << id;
}

} // namespace
