//===- HardwareModel.cpp - TMA_FACTS section 2 on memory images -----------===//

#include "tile/TMA/HardwareModel.h"

#include "tile/Layout/Format.h"

namespace tile::tma {

namespace {

using Error = std::optional<std::string>;

// Section 1's rules on what a box's size depends on: rank, element size,
// box and element strides.
Error checkBoxFields(const TensorMapDesc &m) {
  int64_t eb = m.elementBytes;
  if (m.rank < 1 || m.rank > 5)
    return "descriptor rank " + std::to_string(m.rank);
  if (m.boxDim.size() != m.rank || m.elementStrides.size() != m.rank)
    return std::string("descriptor lists do not match its rank");
  if (eb != 1 && eb != 2 && eb != 4 && eb != 8)
    return "element size " + std::to_string(eb);
  for (unsigned d = 0; d < m.rank; ++d) {
    if (m.boxDim[d] < 1 || m.boxDim[d] > 256)
      return "boxDim[" + std::to_string(d) + "] out of range";
    if (m.elementStrides[d] < 1 || m.elementStrides[d] > 8)
      return "elementStrides[" + std::to_string(d) + "] out of range";
  }
  return std::nullopt;
}

// The elements the box moves along dimension d: every element of dimension
// 0 (without interleave the driver ignores its element stride), one in
// elementStrides[d] of the others.
int64_t boxExtent(const TensorMapDesc &m, unsigned d) {
  return d == 0 ? m.boxDim[0]
                : (m.boxDim[d] + m.elementStrides[d] - 1) / m.elementStrides[d];
}

// Section 1, checked on its own so the model does not trust the planner.
Error checkDescriptor(const TensorMapDesc &m) {
  if (Error e = checkBoxFields(m))
    return e;
  int64_t eb = m.elementBytes;
  if (m.globalDim.size() != m.rank || m.globalStridesBytes.size() + 1 != m.rank)
    return std::string("descriptor lists do not match its rank");
  if (m.interleave != 0)
    return std::string("interleave is not modelled");
  for (unsigned d = 0; d < m.rank; ++d)
    if (m.globalDim[d] < 1 || m.globalDim[d] > (uint64_t(1) << 32))
      return "globalDim[" + std::to_string(d) + "] out of range";
  for (uint64_t s : m.globalStridesBytes)
    if (s % 16 != 0 || s >= (uint64_t(1) << 40))
      return "global stride " + std::to_string(s) + " B is illegal";
  if ((m.boxDim[0] * eb) % 16 != 0)
    return "boxDim[0] bytes not a multiple of 16";
  int64_t span = swizzleSpanBytes(m.swizzle);
  if (span > 0 && m.boxDim[0] * eb > span)
    return "boxDim[0] bytes exceed the swizzle span";
  return std::nullopt;
}

int64_t cellIndex(const MemoryImage &img, int64_t address) {
  int64_t i = address - img.base;
  return i >= 0 && i < static_cast<int64_t>(img.cells.size()) ? i : -1;
}

uint32_t fillCell(const std::vector<uint32_t> &cells, int64_t byte) {
  if (cells.empty())
    return 0;
  return cells[std::min<size_t>(static_cast<size_t>(byte), cells.size() - 1)];
}

// The issue's coordinates: the inner one 16-byte aligned, none negative for
// a store, all within int32.
Error checkCoordinates(const std::vector<int64_t> &coord, int64_t eb,
                       bool isStore) {
  // The remainder first: a recorded plan may carry any int64 coordinate.
  if (((coord[0] % 16) * eb) % 16 != 0)
    return "trap: inner coordinate " + std::to_string(coord[0]) +
           " is not 16-byte aligned";
  for (int64_t c : coord) {
    if (isStore && c < 0)
      return "trap: negative store coordinate " + std::to_string(c);
    if (c < -(int64_t(1) << 31) || c >= (int64_t(1) << 31))
      return "coordinate " + std::to_string(c) + " does not fit int32";
  }
  return std::nullopt;
}

// Visits the box's elements in the order TMA writes them to shared memory
// (dim 0 fastest), with rows padded to the swizzle span, until `visit`
// returns false.
void visitBoxElements(const TensorMapDesc &m, const std::vector<int64_t> &coord,
                      int64_t base, int64_t dst, bool isStore,
                      const std::function<bool(const BoxElement &)> &visit) {
  int64_t eb = m.elementBytes;
  unsigned rank = m.rank;
  int64_t n[5] = {1, 1, 1, 1, 1};
  for (unsigned d = 0; d < rank; ++d)
    n[d] = boxExtent(m, d);
  int64_t span = swizzleSpanBytes(m.swizzle);
  int64_t pitch = std::max<int64_t>(n[0] * eb, span);
  int64_t stride[5] = {eb, 0, 0, 0, 0};
  for (unsigned d = 1; d < rank; ++d)
    stride[d] = static_cast<int64_t>(m.globalStridesBytes[d - 1]);
  // Stores write up to the next 16-byte boundary past a row's end.
  int64_t dim0 = static_cast<int64_t>(m.globalDim[0]);
  int64_t clipEnd = isStore ? ((dim0 * eb + 15) / 16 * 16) / eb : dim0;
  int64_t total = n[0] * n[1] * n[2] * n[3] * n[4];
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t c[5], rest = flat;
    for (unsigned d = 0; d < 5; ++d) {
      c[d] = rest % n[d];
      rest /= n[d];
    }
    int64_t row = c[1] + n[1] * (c[2] + n[2] * (c[3] + n[3] * c[4]));
    BoxElement e;
    e.sharedAddress = applySwizzle(m.swizzle, dst + row * pitch + c[0] * eb);
    bool inside = true;
    e.globalByteOffset = base;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t g = coord[d] + c[d] * (d == 0 ? 1 : m.elementStrides[d]);
      int64_t limit = d == 0 ? clipEnd : static_cast<int64_t>(m.globalDim[d]);
      inside = inside && g >= 0 && g < limit;
      e.globalByteOffset += g * stride[d];
    }
    e.touchesGlobal = inside;
    if (!visit(e))
      return;
  }
}

// walkBox whose visitor can stop the walk (returns false): a box can hold
// 256^5 elements, so a fault must end it.
Error walkBoxUntil(const TensorMapDesc &m, const TmaIssue &issue,
                   Direction direction, const std::vector<int64_t> &symbols,
                   int64_t sharedBufferAddress,
                   const std::function<bool(const BoxElement &)> &visit) {
  if (Error e = checkDescriptor(m))
    return "illegal descriptor: " + *e;
  int64_t eb = m.elementBytes;
  int64_t base = m.baseOffsetBytes.evaluate(symbols);
  if (base % 16 != 0)
    return "illegal descriptor: global address offset " + std::to_string(base) +
           " B is not 16-byte aligned";
  if (issue.coords.size() != m.rank)
    return std::string("issue has the wrong number of coordinates");
  std::vector<int64_t> coord;
  for (const SymExpr &c : issue.coords)
    coord.push_back(c.evaluate(symbols));
  bool isStore = direction == Direction::SharedToGlobal;
  if (Error e = checkCoordinates(coord, eb, isStore))
    return e;
  int64_t dst = sharedBufferAddress + issue.smemByteOffset.evaluate(symbols);
  if (dst % 128 != 0)
    return "misaligned address: shared address " + std::to_string(dst) +
           " is not 128-byte aligned";
  visitBoxElements(m, coord, base, dst, isStore, visit);
  return std::nullopt;
}

} // namespace

Error walkBox(const TensorMapDesc &m, const TmaIssue &issue,
              Direction direction, const std::vector<int64_t> &symbols,
              int64_t sharedBufferAddress,
              const std::function<void(const BoxElement &)> &visit) {
  return walkBoxUntil(m, issue, direction, symbols, sharedBufferAddress,
                      [&](const BoxElement &e) {
                        visit(e);
                        return true;
                      });
}

Error simulateIssue(const TensorMapDesc &m, const TmaIssue &issue,
                    Direction direction, const std::vector<int64_t> &symbols,
                    MemoryImage &global, MemoryImage &shared,
                    const FillCells &fill, int64_t *transactionBytes) {
  int64_t eb = m.elementBytes;
  bool isLoad = direction == Direction::GlobalToShared;
  Error fault;
  int64_t moved = 0;
  Error walk = walkBoxUntil(
      m, issue, direction, symbols, shared.base, [&](const BoxElement &e) {
        moved += eb;
        for (int64_t b = 0; b < eb; ++b) {
          int64_t s = cellIndex(shared, e.sharedAddress + b);
          if (s < 0) {
            fault = "shared access at " + std::to_string(e.sharedAddress + b) +
                    " outside the shared buffer";
            return false;
          }
          if (!e.touchesGlobal) {
            if (isLoad)
              shared.cells[s] = fillCell(m.oobFill ? fill.nan : fill.zero, b);
            continue;
          }
          int64_t g = cellIndex(global, global.base + e.globalByteOffset + b);
          if (g < 0) {
            fault = "global access at byte offset " +
                    std::to_string(e.globalByteOffset + b) +
                    " outside the global buffer";
            return false;
          }
          if (isLoad)
            shared.cells[s] = global.cells[g];
          else
            global.cells[g] = shared.cells[s];
        }
        return true;
      });
  if (walk)
    return walk;
  if (fault)
    return fault;
  if (transactionBytes)
    *transactionBytes += moved;
  return std::nullopt;
}

namespace {

constexpr uint32_t kSentinel = 0x10000000;
constexpr uint32_t kZeroFill = 0x20000000;
constexpr uint32_t kNanFill = 0x30000000;
constexpr uint32_t kGlobalTag = 0x40000000;
constexpr uint32_t kSharedTag = 0x80000000;

std::string describeCell(uint32_t v) {
  if (v == kSentinel)
    return "untouched";
  if (v == kZeroFill)
    return "zero fill";
  if (v == kNanFill)
    return "NaN fill";
  if (v & kSharedTag)
    return "shared byte " + std::to_string(v & ~kSharedTag);
  if (v & kGlobalTag)
    return "global byte " + std::to_string(v & ~kGlobalTag);
  return std::to_string(v);
}

} // namespace

Error whyUndefined(const CopyRequest &r, const std::vector<int64_t> &symbols,
                   bool storesClip) {
  auto leaves = [&](const char *side, const std::vector<SymExpr> &offsets,
                    const std::vector<int64_t> &sizes,
                    const std::vector<int64_t> &shape) -> Error {
    for (size_t d = 0; d < offsets.size() && d < shape.size(); ++d) {
      int64_t o = offsets[d].evaluate(symbols);
      if (o < 0 || o > shape[d] - sizes[d])
        return std::string(side) + " region [" + std::to_string(o) + ", +" +
               std::to_string(sizes[d]) + ") leaves dimension " +
               std::to_string(d) + " of size " + std::to_string(shape[d]);
    }
    return std::nullopt;
  };
  if (Error e = leaves("shared", r.sharedOffsets, r.sharedSizes, r.sharedShape))
    return e;
  if (r.direction == Direction::SharedToGlobal && !storesClip)
    return leaves("store's global", r.globalOffsets, r.globalSizes,
                  r.globalShape);
  return std::nullopt;
}

namespace {

// The bytes of the global image and of the shared image (padded past the
// swizzle's repeat, so a misplaced box lands inside it and is reported), or
// nullopt where they overflow int64 or come out negative.
std::optional<std::pair<int64_t, int64_t>> imageBytes(const CopyRequest &r) {
  int64_t eb = r.elementType.bytes;
  int64_t repeat =
      std::max<int64_t>(swizzleRepeatBytes(r.sharedLayout.swizzle()), 128);
  int64_t gBytes, sBytes;
  if (__builtin_add_overflow(r.globalLayout.elementOffset(),
                             r.globalLayout.cosize(), &gBytes) ||
      __builtin_mul_overflow(gBytes, eb, &gBytes) ||
      __builtin_add_overflow(r.sharedLayout.elementOffset(),
                             r.sharedLayout.cosize(), &sBytes) ||
      __builtin_mul_overflow(sBytes, eb, &sBytes) ||
      __builtin_add_overflow(sBytes, 2 * repeat, &sBytes) || gBytes < 0 ||
      sBytes < 0)
    return std::nullopt;
  return std::make_pair(gBytes, sBytes / repeat * repeat);
}

// The region's bytes, or nullopt where they overflow int64.
std::optional<int64_t> regionBytes(const CopyRequest &r) {
  int64_t bytes = r.elementType.bytes;
  for (int64_t n : r.globalSizes)
    if (__builtin_mul_overflow(bytes, std::max<int64_t>(n, 0), &bytes))
      return std::nullopt;
  return bytes;
}

// The buffers' memory images: every global byte tagged with its offset, the
// shared bytes tagged too for a store and untouched for a load.
void makeImages(const CopyRequest &r, MemoryImage &global,
                MemoryImage &shared) {
  auto [gBytes, sBytes] = *imageBytes(r);
  bool isLoad = r.direction == Direction::GlobalToShared;

  global = {0, std::vector<uint32_t>(static_cast<size_t>(gBytes))};
  for (size_t i = 0; i < global.cells.size(); ++i)
    global.cells[i] = kGlobalTag | static_cast<uint32_t>(i);
  // The buffer sits at an address with the stated alignment's residue modulo
  // 1024, the longest period the instructions see (the 128B swizzle's atom);
  // placing it at the alignment itself overflows for absurd alignments.
  int64_t sharedAddr =
      1024 + (r.sharedBaseAlignment > 0 ? r.sharedBaseAlignment % 1024 : 0);
  shared = {sharedAddr,
            std::vector<uint32_t>(static_cast<size_t>(sBytes), kSentinel)};
  if (!isLoad)
    for (size_t i = 0; i < shared.cells.size(); ++i)
      shared.cells[i] = kSharedTag | static_cast<uint32_t>(i);
}

Error transactionError(int64_t moved, int64_t planned, int64_t region) {
  return "transaction bytes: issues move " + std::to_string(moved) +
         " B, plan says " + std::to_string(planned) + " B, region has " +
         std::to_string(region) + " B";
}

// Writes into the expected image what the copy of each region element should
// leave there, reading the source bytes from the other image.
Error expectRegion(const CopyRequest &r, const GroupedLayout &g,
                   const GroupedLayout &s, const std::vector<int64_t> &symbols,
                   int64_t count, const MemoryImage &global,
                   const MemoryImage &shared, MemoryImage &expectGlobal,
                   MemoryImage &expectShared, bool storesClip) {
  int64_t eb = r.elementType.bytes;
  bool isLoad = r.direction == Direction::GlobalToShared;
  std::vector<int64_t> gIdx, sIdx;
  for (int64_t e = 0; e < count; ++e) {
    gIdx = unravelIndex(e, r.globalSizes);
    sIdx = unravelIndex(e, r.sharedSizes);
    bool inside = true;
    for (size_t d = 0; d < gIdx.size(); ++d) {
      gIdx[d] += r.globalOffsets[d].evaluate(symbols);
      inside = inside && gIdx[d] >= 0 && gIdx[d] < r.globalShape[d];
    }
    for (size_t d = 0; d < sIdx.size(); ++d)
      sIdx[d] += r.sharedOffsets[d].evaluate(symbols);
    int64_t sAddr = s.byteAddressOf(sIdx, eb, shared.base);
    int64_t gOff = inside ? g.offsetOf(gIdx) * eb : -1;
    if (!inside && !isLoad) {
      if (storesClip)
        continue; // Not written.
      return "model: store element " + formatList(gIdx) +
             " is outside the tensor";
    }
    for (int64_t b = 0; b < eb; ++b) {
      int64_t si = cellIndex(shared, sAddr + b);
      int64_t gi = inside ? cellIndex(global, gOff + b) : 0;
      if (si < 0 || gi < 0)
        return "model: region element outside its buffer image";
      if (isLoad)
        expectShared.cells[si] =
            inside ? global.cells[gi]
                   : (r.oobFill == OobFill::NaN ? kNanFill : kZeroFill);
      else
        expectGlobal.cells[gi] = shared.cells[si];
    }
  }
  return std::nullopt;
}

// The first byte where the simulated image differs from the expected one.
Error compareImages(const MemoryImage &got, const MemoryImage &want,
                    bool isLoad) {
  for (size_t i = 0; i < got.cells.size(); ++i)
    if (got.cells[i] != want.cells[i])
      return std::string(isLoad ? "shared" : "global") + " byte at " +
             std::to_string(got.base + static_cast<int64_t>(i)) + " holds " +
             describeCell(got.cells[i]) + ", expected " +
             describeCell(want.cells[i]);
  return std::nullopt;
}

} // namespace

std::optional<int64_t> planTransferBytes(const TmaPlan &plan) {
  // Only the fields the count reads: a plan of a run-time-sized buffer has
  // 0 for its run-time dims and strides.
  const TensorMapDesc &m = plan.map;
  if (checkBoxFields(m))
    return std::nullopt;
  int64_t box = m.elementBytes;
  for (unsigned d = 0; d < m.rank; ++d)
    box *= boxExtent(m, d);
  int64_t total;
  if (__builtin_mul_overflow(box, static_cast<int64_t>(plan.issues.size()),
                             &total))
    return INT64_MAX;
  return total;
}

Error whyTooLargeToModel(const CopyRequest &r, const ModelOptions &options) {
  std::optional<std::pair<int64_t, int64_t>> images = imageBytes(r);
  if (!images)
    return std::string("buffers whose bytes do not fit int64");
  auto [gBytes, sBytes] = *images;
  if (gBytes > options.maxImageCells || sBytes > options.maxImageCells)
    return "buffers of " + std::to_string(gBytes) + " B (global) and " +
           std::to_string(sBytes) + " B (shared) exceed the " +
           std::to_string(options.maxImageCells) + " B it simulates";
  std::optional<int64_t> bytes = regionBytes(r);
  if (!bytes || *bytes > options.maxImageCells)
    return "a region of " + (bytes ? std::to_string(*bytes) : "over 2^63") +
           " B exceeds the " + std::to_string(options.maxImageCells) +
           " B it simulates";
  return std::nullopt;
}

Error verifyPlan(const CopyRequest &r, const TmaPlan &plan,
                 const std::vector<int64_t> &symbols,
                 const ModelOptions &options) {
  if (Error why = whyUndefined(r, symbols, options.storesClip))
    return "model: undefined: " + *why;
  int64_t eb = r.elementType.bytes;
  std::optional<GroupedLayout> g = groupOnto(r.globalLayout, r.globalShape);
  std::optional<GroupedLayout> s = groupOnto(r.sharedLayout, r.sharedShape);
  if (!g || !s)
    return std::string("model: layouts do not group onto their shapes");
  if (eb < 1)
    return "model: element size " + std::to_string(eb) + " B";
  if (Error e = whyTooLargeToModel(r, options))
    return "model: " + *e;
  int64_t bytes = *regionBytes(r);
  // Boxes adding up to more than the model simulates (one box can hold 256^5
  // elements) are more than the region: wrong before any is walked.
  std::optional<int64_t> planned = planTransferBytes(plan);
  if (planned && *planned > options.maxImageCells)
    return transactionError(*planned, plan.bytes, bytes);
  MemoryImage global, shared;
  makeImages(r, global, shared);
  bool isLoad = r.direction == Direction::GlobalToShared;
  MemoryImage expectGlobal = global, expectShared = shared;

  FillCells fill{{kZeroFill}, {kNanFill}};
  int64_t tx = 0;
  for (size_t i = 0; i < plan.issues.size(); ++i)
    if (Error e = simulateIssue(plan.map, plan.issues[i], r.direction, symbols,
                                global, shared, fill, &tx))
      return "issue " + std::to_string(i) + ": " + *e;

  if (tx != bytes || plan.bytes != bytes)
    return transactionError(tx, plan.bytes, bytes);
  int64_t count = bytes / eb;

  if (Error e = expectRegion(r, *g, *s, symbols, count, global, shared,
                             expectGlobal, expectShared, options.storesClip))
    return e;
  return isLoad ? compareImages(shared, expectShared, isLoad)
                : compareImages(global, expectGlobal, isLoad);
}

std::vector<int64_t> unravelIndex(int64_t flat,
                                  const std::vector<int64_t> &sizes) {
  std::vector<int64_t> idx(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    idx[d] = flat % sizes[d];
    flat /= sizes[d];
  }
  return idx;
}

} // namespace tile::tma
