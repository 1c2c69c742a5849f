//===- Im2col.cpp - TMA im2col loads: plan, rules and model ---------------===//
//
// The rules are cuTensorMapEncodeIm2col's and the instruction's, with the
// ranges and traps measured on an H200 (driver 13000) recorded in
// docs/im2col.md; the model reproduces the traversal measured there.
//
//===----------------------------------------------------------------------===//

#include "tile/TMA/Im2col.h"
#include "tile/TMA/Limits.h"

#include <algorithm>
#include <sstream>

namespace tile::tma {

namespace {

constexpr int64_t kMaxChannels = limits::kMaxIm2colChannels;
constexpr int64_t kMaxPixels = limits::kMaxIm2colPixels;
constexpr int64_t kMaxTraversalStride = limits::kMaxElementStride;
constexpr int64_t kMaxGlobalSize = limits::kMaxGlobalDim;
constexpr int64_t kStrideLimitBytes = limits::kGlobalStrideLimitBytes;
constexpr int64_t kSharedAlignBytes = limits::kSharedAlignmentBytes;
constexpr int64_t kGranuleBytes = limits::kGranuleBytes;

/// Records the first broken rule.
struct Checker {
  explicit Checker(Im2colError *error) : error(error) {}
  Im2colError *error;
  bool failed = false;

  std::ostringstream &fail(RuleId rule) {
    failed = true;
    os.str("");
    os << ruleIdName(rule) << ": ";
    this->rule = rule;
    return os;
  }
  bool finish() {
    if (failed && error) {
      error->rule = rule;
      error->message = os.str();
    }
    return !failed;
  }
  std::ostringstream os;
  RuleId rule = RuleId::Im2colRank;
};

std::string listText(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

/// The last position of the bounding box in a spatial dimension of `size`.
int64_t boxLast(int64_t size, int64_t upper) { return size - 1 + upper; }

/// Bytes from one pixel's row to the next: the row, or under a swizzle at
/// least the swizzle's span (TMA_FACTS section 2).
int64_t rowPitchBytes(const Im2colMapDesc &map) {
  int64_t rowBytes = int64_t(map.channelsPerPixel) * map.elementBytes;
  return map.swizzle == Swizzle::None
             ? rowBytes
             : std::max(rowBytes, swizzleSpanBytes(map.swizzle));
}

bool checkShape(const Im2colRequest &r, Checker &c) {
  size_t rank = r.globalSizes.size();
  if (rank < 3 || rank > 5) {
    c.fail(RuleId::Im2colRank)
        << "the global tensor has rank " << rank
        << "; im2col loads a channels-last tensor of rank 3..5 ([N, W, C], "
           "[N, H, W, C], [N, D, H, W, C])";
    return false;
  }
  size_t spatial = rank - 2;
  auto count = [&](size_t n, size_t want, const char *what) {
    if (n == want)
      return true;
    c.fail(RuleId::Im2colRank)
        << n << " " << what << " for a rank-" << rank << " tensor; it has "
        << want << " spatial dimension(s)";
    return false;
  };
  if (!count(r.lowerCorner.size(), spatial, "lower corner value(s)") ||
      !count(r.upperCorner.size(), spatial, "upper corner value(s)") ||
      !count(r.traversalStrides.size(), spatial, "traversal stride(s)"))
    return false;
  if (!r.offsets.empty() && !count(r.offsets.size(), spatial, "offset(s)"))
    return false;
  if (!r.start.empty() && r.start.size() != rank) {
    c.fail(RuleId::Im2colRank) << r.start.size() << " start coordinate(s) for "
                               << "a rank-" << rank << " tensor";
    return false;
  }
  if (r.globalStrides.size() != rank) {
    c.fail(RuleId::Im2colRank)
        << r.globalStrides.size() << " global stride(s) for a rank-" << rank
        << " tensor";
    return false;
  }
  return true;
}

bool checkGlobal(const Im2colRequest &r, int64_t eb, Checker &c) {
  size_t rank = r.globalSizes.size();
  for (size_t d = 0; d < rank; ++d)
    if (r.globalSizes[d] &&
        (*r.globalSizes[d] < 1 || *r.globalSizes[d] > kMaxGlobalSize)) {
      c.fail(RuleId::Im2colGlobal)
          << "size " << *r.globalSizes[d] << " of dimension " << d
          << " is outside 1..2^32";
      return false;
    }
  const std::optional<int64_t> &channelStride = r.globalStrides.back();
  if (!channelStride || *channelStride != 1) {
    auto &os = c.fail(RuleId::Im2colGlobal)
               << "the channels (dimension " << rank - 1 << ") have stride ";
    if (channelStride)
      os << *channelStride;
    else
      os << "? (known only at run time)";
    os << "; im2col reads each pixel's channels contiguously (stride 1)";
    return false;
  }
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (!r.globalStrides[d])
      continue; // the runtime's encode checks it
    int64_t bytes = *r.globalStrides[d] * eb;
    if (bytes % kGranuleBytes != 0 || bytes < 0) {
      c.fail(RuleId::Im2colGlobal)
          << "stride " << *r.globalStrides[d] << " of dimension " << d << " is "
          << bytes << " B, not a multiple of " << kGranuleBytes << " B";
      return false;
    }
    if (bytes >= kStrideLimitBytes) {
      c.fail(RuleId::Im2colGlobal)
          << "stride " << *r.globalStrides[d] << " of dimension " << d << " is "
          << bytes << " B, not below 2^40";
      return false;
    }
  }
  return true;
}

bool checkCorners(const Im2colRequest &r, Checker &c) {
  unsigned rank = r.globalSizes.size();
  int64_t limit = im2colCornerLimit(rank);
  for (size_t j = 0; j < r.lowerCorner.size(); ++j) {
    for (auto [name, value] : {std::pair{"lower", r.lowerCorner[j]},
                               std::pair{"upper", r.upperCorner[j]}})
      if (value < -limit || value >= limit) {
        c.fail(RuleId::Im2colCorner)
            << name << " corner " << value << " of dimension " << j + 1
            << " is outside [" << -limit << ", " << limit - 1 << "] (rank "
            << rank << ")";
        return false;
      }
    int64_t stride = r.traversalStrides[j];
    if (stride < 1 || stride > kMaxTraversalStride) {
      c.fail(RuleId::Im2colStride)
          << "traversal stride " << stride << " of dimension " << j + 1
          << " is outside 1..8";
      return false;
    }
    const std::optional<int64_t> &size = r.globalSizes[j + 1];
    if (size && r.lowerCorner[j] > boxLast(*size, r.upperCorner[j])) {
      c.fail(RuleId::Im2colCorner)
          << "the bounding box of dimension " << j + 1 << " is empty: ["
          << r.lowerCorner[j] << ", " << boxLast(*size, r.upperCorner[j])
          << "] (size " << *size << ", corners " << r.lowerCorner[j] << " and "
          << r.upperCorner[j] << ")";
      return false;
    }
  }
  return true;
}

bool checkTile(const Im2colRequest &r, const Im2colMapDesc &map, Checker &c) {
  int64_t eb = map.elementBytes;
  if (r.sharedShape.size() != 2) {
    c.fail(RuleId::Im2colShared)
        << "the shared tile has shape " << listText(r.sharedShape)
        << "; im2col writes a [pixels, channels] tile";
    return false;
  }
  int64_t pixels = r.sharedShape[0], channels = r.sharedShape[1];
  if (channels < 1 || channels > kMaxChannels) {
    c.fail(RuleId::Im2colChannels) << channels << " channels per pixel; the "
                                   << "hardware loads 1.." << kMaxChannels;
    return false;
  }
  if (channels * eb % kGranuleBytes != 0) {
    c.fail(RuleId::Im2colChannels)
        << channels << " channels x " << eb << " B = " << channels * eb
        << " B is not a multiple of " << kGranuleBytes << " B";
    return false;
  }
  if (map.swizzle != Swizzle::None &&
      channels * eb > swizzleSpanBytes(map.swizzle)) {
    c.fail(RuleId::Im2colChannels)
        << channels << " channels x " << eb << " B = " << channels * eb
        << " B exceed the " << toString(map.swizzle) << " swizzle span of "
        << swizzleSpanBytes(map.swizzle) << " B";
    return false;
  }
  if (pixels < 1 || pixels > kMaxPixels) {
    c.fail(RuleId::Im2colPixels) << pixels << " pixels per column; the "
                                 << "hardware loads 1.." << kMaxPixels;
    return false;
  }
  int64_t align = std::max(kSharedAlignBytes, swizzleRepeatBytes(map.swizzle));
  if (r.sharedBaseAlignment % align != 0) {
    c.fail(RuleId::Im2colShared)
        << "the shared tile's start is known to be " << r.sharedBaseAlignment
        << "-byte aligned; the hardware needs " << align << " bytes";
    return false;
  }
  if (r.sharedLayout.size() != pixels * channels) {
    c.fail(RuleId::Im2colShared)
        << "the shared layout holds " << r.sharedLayout.size()
        << " elements; the tile has " << pixels * channels;
    return false;
  }
  // The layout the hardware writes, as shards: equal canonical forms are
  // equal addresses, which spares the verifier the element-by-element walk
  // below (it runs only to name the first element a different layout moves,
  // or to accept an equal layout written in another form).
  Layout written({{pixels, rowPitchBytes(map) / eb}, {channels, 1}},
                 map.swizzle);
  if (r.sharedLayout.canonicalize() == written.canonicalize())
    return true;
  for (int64_t p = 0; p < pixels; ++p)
    for (int64_t ch = 0; ch < channels; ++ch) {
      int64_t declared =
          r.sharedLayout.byteAddressOf(p * channels + ch, eb, /*base=*/0);
      int64_t written = im2colSharedByte(map, p, ch);
      if (declared != written) {
        c.fail(RuleId::Im2colShared)
            << "pixel " << p << " channel " << ch << " is at shared byte "
            << declared << "; the hardware writes it at byte " << written;
        return false;
      }
    }
  return true;
}

bool checkStartAndOffsets(const Im2colRequest &r, Checker &c) {
  unsigned rank = r.globalSizes.size();
  int64_t limit = im2colOffsetLimit(rank);
  for (size_t j = 0; j < r.offsets.size(); ++j)
    if (r.offsets[j] && (*r.offsets[j] < 0 || *r.offsets[j] >= limit)) {
      c.fail(RuleId::Im2colOffset)
          << "offset " << *r.offsets[j] << " of dimension " << j + 1
          << " is outside [0, " << limit - 1 << "] (rank " << rank << " keeps "
          << (rank == 3   ? 16
              : rank == 4 ? 8
                          : 5)
          << " bits)";
      return false;
    }
  for (size_t j = 0; j + 2 < rank && !r.start.empty(); ++j) {
    const std::optional<int64_t> &start = r.start[j + 1];
    const std::optional<int64_t> &size = r.globalSizes[j + 1];
    if (!start || !size)
      continue;
    int64_t last = boxLast(*size, r.upperCorner[j]);
    if (*start < r.lowerCorner[j] || *start > last) {
      c.fail(RuleId::Im2colStart)
          << "start " << *start << " of dimension " << j + 1
          << " lies outside the bounding box [" << r.lowerCorner[j] << ", "
          << last << "] (size " << *size << ", corners " << r.lowerCorner[j]
          << " and " << r.upperCorner[j] << "); the instruction traps";
      return false;
    }
  }
  return true;
}

} // namespace

int64_t im2colCornerLimit(unsigned rank) {
  return limits::im2colCornerLimit(rank);
}

int64_t im2colOffsetLimit(unsigned rank) {
  return limits::im2colOffsetLimit(rank);
}

int64_t im2colSharedByte(const Im2colMapDesc &map, int64_t pixel,
                         int64_t channel) {
  return applySwizzle(map.swizzle,
                      pixel * rowPitchBytes(map) + channel * map.elementBytes);
}

std::optional<Im2colPlan> planIm2col(const Im2colRequest &r,
                                     Im2colError *error) {
  Checker c(error);
  auto broken = [&] {
    c.finish();
    return std::optional<Im2colPlan>();
  };
  if (!checkShape(r, c))
    return broken();
  std::optional<TensorDataType> dataType = dataTypeFor(r.elementType);
  if (!dataType) {
    c.fail(RuleId::DataType) << "element type " << toString(r.elementType)
                             << " has no TMA data type";
    return broken();
  }
  if (r.oobFill == OobFill::NaN && !nanFillSupports(r.elementType)) {
    c.fail(RuleId::NanFillType) << "NaN fill needs f16, bf16, f32 or f64, not "
                                << toString(r.elementType);
    return broken();
  }
  int64_t eb = r.elementType.bytes;
  if (!checkGlobal(r, eb, c) || !checkCorners(r, c))
    return broken();

  unsigned rank = r.globalSizes.size();
  Im2colPlan plan;
  Im2colMapDesc &map = plan.map;
  map.dataType = *dataType;
  map.rank = rank;
  map.elementBytes = eb;
  for (unsigned k = 0; k < rank; ++k) {
    unsigned d = rank - 1 - k; // the memref dimension of driver dimension k
    map.globalDim.push_back(r.globalSizes[d] ? *r.globalSizes[d] : 0);
    if (k > 0)
      map.globalStridesBytes.push_back(
          r.globalStrides[d] ? *r.globalStrides[d] * eb : 0);
  }
  map.elementStrides.push_back(1);
  for (unsigned k = 1; k + 1 < rank; ++k) {
    unsigned j = rank - 2 - k; // the spatial index (memref order)
    map.lowerCorner.push_back(static_cast<int32_t>(r.lowerCorner[j]));
    map.upperCorner.push_back(static_cast<int32_t>(r.upperCorner[j]));
    map.elementStrides.push_back(static_cast<uint32_t>(r.traversalStrides[j]));
  }
  map.elementStrides.push_back(1);
  map.swizzle = r.sharedLayout.swizzle();
  map.oobFill = r.oobFill == OobFill::NaN ? 1 : 0;
  if (r.sharedShape.size() == 2) {
    map.pixelsPerColumn = static_cast<uint32_t>(r.sharedShape[0]);
    map.channelsPerPixel = static_cast<uint32_t>(r.sharedShape[1]);
  }
  if (!checkTile(r, map, c) || !checkStartAndOffsets(r, c))
    return broken();
  plan.bytes = int64_t(map.pixelsPerColumn) * map.channelsPerPixel * eb;
  return plan;
}

std::optional<std::vector<Im2colSource>>
modelIm2col(const Im2colMapDesc &map, const std::vector<int64_t> &start,
            const std::vector<int64_t> &offsets, std::string *trap) {
  unsigned r = map.rank;
  // Driver order: b[0] the first channel, b[1..r-2] the base position, b[r-1]
  // the image.
  std::vector<int64_t> b(start.rbegin(), start.rend());
  std::vector<int64_t> off(offsets.rbegin(), offsets.rend());
  auto last = [&](unsigned k) {
    return int64_t(map.globalDim[k]) - 1 + map.upperCorner[k - 1];
  };
  for (unsigned k = 1; k + 1 < r; ++k)
    if (b[k] < map.lowerCorner[k - 1] || b[k] > last(k)) {
      if (trap)
        *trap = "start " + std::to_string(b[k]) + " of driver dimension " +
                std::to_string(k) + " lies outside the bounding box [" +
                std::to_string(map.lowerCorner[k - 1]) + ", " +
                std::to_string(last(k)) + "]";
      return std::nullopt;
    }
  std::vector<Im2colSource> tile;
  tile.reserve(size_t(map.pixelsPerColumn) * map.channelsPerPixel);
  std::vector<int64_t> g(r);
  for (uint32_t p = 0; p < map.pixelsPerColumn; ++p) {
    for (unsigned k = 1; k + 1 < r; ++k)
      g[k] = b[k] + off[k - 1];
    g[r - 1] = b[r - 1];
    for (uint32_t ch = 0; ch < map.channelsPerPixel; ++ch) {
      g[0] = b[0] + ch;
      Im2colSource source;
      for (unsigned k = 0; k < r; ++k)
        if (g[k] < 0 || g[k] >= int64_t(map.globalDim[k]))
          source.fill = true;
      if (!source.fill)
        source.coords.assign(g.rbegin(), g.rend());
      tile.push_back(std::move(source));
    }
    // The next base position: W first; past the box's end a dimension
    // restarts at its lower corner and the next one steps.
    for (unsigned k = 1;; ++k) {
      b[k] += map.elementStrides[k];
      if (k == r - 1 || b[k] <= last(k))
        break;
      b[k] = map.lowerCorner[k - 1];
    }
  }
  return tile;
}

} // namespace tile::tma
