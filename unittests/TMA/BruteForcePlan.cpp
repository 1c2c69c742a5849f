//===- BruteForcePlan.cpp - The fewest TMA instructions, by enumeration ---===//

#include "BruteForcePlan.h"

#include "tile/TMA/ElementType.h"
#include "tile/TMA/HardwareModel.h"

#include <algorithm>
#include <functional>

namespace tile::tma::brute {

namespace {

// One region byte: its absolute shared address and its global byte offset.
struct ByteMap {
  int64_t shared = 0;
  int64_t global = 0;
  bool operator<(const ByteMap &o) const { return shared < o.shared; }
};

int64_t regionElements(const CopyRequest &r) {
  int64_t n = 1;
  for (int64_t s : r.globalSizes)
    n *= s;
  return n;
}

// The region's bytes sorted by shared address, or nullopt when two share an
// address or the layouts do not group.
std::optional<std::vector<ByteMap>> regionBytes(const CopyRequest &r,
                                                int64_t sharedAddress) {
  std::optional<GroupedLayout> g = groupOnto(r.globalLayout, r.globalShape);
  std::optional<GroupedLayout> s = groupOnto(r.sharedLayout, r.sharedShape);
  if (!g || !s)
    return std::nullopt;
  int64_t eb = r.elementType.bytes;
  int64_t count = regionElements(r);
  std::vector<ByteMap> bytes;
  bytes.reserve(static_cast<size_t>(count * eb));
  for (int64_t e = 0; e < count; ++e) {
    std::vector<int64_t> gi = tma::unravelIndex(e, r.globalSizes);
    std::vector<int64_t> si = tma::unravelIndex(e, r.sharedSizes);
    for (size_t d = 0; d < gi.size(); ++d)
      gi[d] += r.globalOffsets[d].constant;
    for (size_t d = 0; d < si.size(); ++d)
      si[d] += r.sharedOffsets[d].constant;
    int64_t sa = s->byteAddressOf(si, eb, sharedAddress);
    int64_t ga = g->offsetOf(gi) * eb;
    for (int64_t b = 0; b < eb; ++b)
      bytes.push_back({sa + b, ga + b});
  }
  std::sort(bytes.begin(), bytes.end());
  for (size_t i = 1; i < bytes.size(); ++i)
    if (bytes[i].shared == bytes[i - 1].shared)
      return std::nullopt;
  return bytes;
}

// Every chunk of `chunk` bytes is one contiguous, 128-byte aligned shared
// interval.
bool chunksContiguous(const std::vector<ByteMap> &bytes, int64_t chunk) {
  for (size_t i = 0; i < bytes.size(); i += static_cast<size_t>(chunk))
    if (bytes[i].shared % 128 != 0 ||
        bytes[i + static_cast<size_t>(chunk) - 1].shared - bytes[i].shared !=
            chunk - 1)
      return false;
  return true;
}

// The global offset of each w-byte unit (in shared order), or nullopt when a
// unit's bytes are not consecutive in global memory.
std::optional<std::vector<int64_t>> unitOffsets(const std::vector<ByteMap> &b,
                                                int64_t w) {
  std::vector<int64_t> units;
  units.reserve(b.size() / static_cast<size_t>(w));
  for (size_t i = 0; i < b.size(); i += static_cast<size_t>(w)) {
    for (int64_t k = 1; k < w; ++k)
      if (b[i + static_cast<size_t>(k)].global != b[i].global + k)
        return std::nullopt;
    units.push_back(b[i].global);
  }
  return units;
}

// The box `box` (units, dim 0 first) fits every chunk of `perChunk` units:
// the same strides everywhere, dim 0 contiguous, the others multiples of 16,
// every chunk start 16-byte aligned. Fills *strides (bytes, dims 1..).
bool boxFits(const std::vector<int64_t> &units, int64_t perChunk, int64_t w,
             const std::vector<int64_t> &box, std::vector<int64_t> *strides) {
  std::vector<int64_t> s(box.size());
  int64_t q = 1;
  for (size_t j = 0; j < box.size(); ++j) {
    s[j] = units[static_cast<size_t>(q)] - units[0];
    if (j == 0 ? s[j] != w : s[j] < 0 || s[j] % 16 != 0 || s[j] >= (1LL << 40))
      return false;
    q *= box[j];
  }
  for (size_t c = 0; c < units.size(); c += static_cast<size_t>(perChunk)) {
    int64_t start = units[c];
    if (start % 16 != 0)
      return false;
    for (int64_t u = 1; u < perChunk; ++u) {
      int64_t rest = u, want = start;
      for (size_t j = 0; j < box.size(); ++j) {
        want += (rest % box[j]) * s[j];
        rest /= box[j];
      }
      if (units[c + static_cast<size_t>(u)] != want)
        return false;
    }
  }
  strides->assign(s.begin() + 1, s.end());
  return true;
}

// Calls visit(box) for every ordered factorization of `units` into at most
// five factors in [2, 256], the first a multiple of 16 bytes, until visit
// returns true; returns whether it did.
bool forEachBox(
    int64_t units, int64_t w,
    const std::function<bool(const std::vector<int64_t> &)> &visit) {
  std::vector<int64_t> box;
  std::function<bool(int64_t)> rec = [&](int64_t rest) -> bool {
    if (rest == 1)
      return !box.empty() && visit(box);
    if (box.size() == 5)
      return false;
    for (int64_t b = std::min<int64_t>(rest, 256); b >= 2; --b) {
      if (rest % b != 0 || (box.empty() && (b * w) % 16 != 0))
        continue;
      box.push_back(b);
      if (rec(rest / b))
        return true;
      box.pop_back();
    }
    return false;
  };
  return rec(units);
}

TmaPlan makePlan(const CopyRequest &r, const std::vector<ByteMap> &bytes,
                 const std::vector<int64_t> &units, int64_t chunk, int64_t w,
                 const std::vector<int64_t> &box,
                 const std::vector<int64_t> &strides, int64_t sharedAddress) {
  TmaPlan plan;
  TensorMapDesc &m = plan.map;
  m.elementBytes = w;
  m.promoted = w != r.elementType.bytes;
  m.dataType = (m.promoted ? promotedDataType(w) : dataTypeFor(r.elementType))
                   .value_or(TensorDataType::U8);
  m.rank = static_cast<unsigned>(box.size());
  int64_t perChunk = chunk / w, lastStart = 0;
  for (size_t c = 0; c < units.size(); c += static_cast<size_t>(perChunk))
    lastStart = std::max(lastStart, units[c] / w);
  for (size_t j = 0; j < box.size(); ++j) {
    m.globalDim.push_back(
        static_cast<uint64_t>(j == 0 ? lastStart + box[0] : box[j]));
    m.boxDim.push_back(static_cast<uint32_t>(box[j]));
    m.elementStrides.push_back(1);
  }
  for (int64_t s : strides)
    m.globalStridesBytes.push_back(static_cast<uint64_t>(s));
  m.baseOffsetBytes = SymExpr(0);
  for (size_t c = 0; c < units.size(); c += static_cast<size_t>(perChunk)) {
    TmaIssue issue;
    issue.smemByteOffset =
        SymExpr(bytes[c * static_cast<size_t>(w)].shared - sharedAddress);
    issue.coords.assign(box.size(), SymExpr(0));
    issue.coords[0] = SymExpr(units[c] / w);
    plan.issues.push_back(std::move(issue));
  }
  plan.bytes = static_cast<int64_t>(bytes.size());
  return plan;
}

} // namespace

bool inScope(const CopyRequest &r, int64_t maxBytes, std::string *why) {
  auto no = [&](const std::string &reason) {
    *why = reason;
    return false;
  };
  if (r.direction != Direction::GlobalToShared)
    return no("a store");
  if (r.symbolicGlobal)
    return no("a run-time global buffer");
  if (r.reduce != ReduceKind::None || r.oobFill != OobFill::Zero)
    return no("reduce or NaN fill");
  if (r.sharedLayout.swizzle() != Swizzle::None ||
      r.globalLayout.swizzle() != Swizzle::None)
    return no("a swizzled layout");
  if (r.globalOffsets.size() != r.globalShape.size() ||
      r.globalSizes.size() != r.globalShape.size() ||
      r.sharedOffsets.size() != r.sharedShape.size() ||
      r.sharedSizes.size() != r.sharedShape.size())
    return no("region ranks do not match the buffers");
  for (size_t d = 0; d < r.globalShape.size(); ++d) {
    std::optional<int64_t> o = r.globalOffsets[d].constantValue();
    if (!o || *o < 0 || *o + r.globalSizes[d] > r.globalShape[d])
      return no("the global region leaves the tensor or is dynamic");
  }
  for (size_t d = 0; d < r.sharedShape.size(); ++d) {
    std::optional<int64_t> o = r.sharedOffsets[d].constantValue();
    if (!o || *o < 0 || *o + r.sharedSizes[d] > r.sharedShape[d])
      return no("the shared region leaves its buffer or is dynamic");
  }
  int64_t shared = 1;
  for (int64_t s : r.sharedSizes)
    shared *= s;
  if (regionElements(r) != shared)
    return no("the regions differ in size");
  if (regionElements(r) * r.elementType.bytes > maxBytes)
    return no("too large");
  return true;
}

BruteForceResult bruteForcePlan(const CopyRequest &r) {
  BruteForceResult result;
  // As the model does: the alignment's residue modulo 1024 decides.
  int64_t sharedAddress =
      1024 + (r.sharedBaseAlignment > 0 ? r.sharedBaseAlignment % 1024 : 0);
  std::optional<std::vector<ByteMap>> bytes = regionBytes(r, sharedAddress);
  if (!bytes || bytes->empty())
    return result;
  int64_t total = static_cast<int64_t>(bytes->size());
  int64_t eb = r.elementType.bytes;
  // Largest box first: the first chunk size with a fitting box wins.
  for (int64_t chunk = total; chunk >= 16; --chunk) {
    if (total % chunk != 0 || !chunksContiguous(*bytes, chunk))
      continue;
    for (int64_t w = 8; w >= eb; w /= 2) {
      if (w % eb != 0 || chunk % w != 0)
        continue;
      std::optional<std::vector<int64_t>> units = unitOffsets(*bytes, w);
      if (!units)
        continue;
      std::vector<int64_t> strides;
      std::vector<int64_t> found;
      if (forEachBox(chunk / w, w, [&](const std::vector<int64_t> &box) {
            ++result.boxesTried;
            if (!boxFits(*units, chunk / w, w, box, &strides))
              return false;
            found = box;
            return true;
          })) {
        result.plan = makePlan(r, *bytes, *units, chunk, w, found, strides,
                               sharedAddress);
        return result;
      }
    }
  }
  return result;
}

} // namespace tile::tma::brute
