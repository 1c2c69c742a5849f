//===- WgmmaDescriptor.cpp - sm_90 wgmma shared-memory descriptors --------===//
//
// The planner evaluates the layout at the block's rows and K elements and
// compares each address with the one the descriptor gives it; grouped
// layouts are separable (the offset of [r, c] is a function of r plus a
// function of c), so rows are checked along one column and K along one row.
//
//===----------------------------------------------------------------------===//

#include "tile/MMA/WgmmaDescriptor.h"

#include <map>

namespace tile::mma {

WgmmaSwizzleMode toWgmmaSwizzleMode(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return WgmmaSwizzleMode::Interleave;
  case Swizzle::B32:
    return WgmmaSwizzleMode::B32;
  case Swizzle::B64:
    return WgmmaSwizzleMode::B64;
  case Swizzle::B128:
    return WgmmaSwizzleMode::B128;
  }
  return WgmmaSwizzleMode::Interleave;
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

static uint64_t field14(int64_t bytes) {
  return (static_cast<uint64_t>(bytes) >> 4) & 0x3FFF;
}

uint64_t encodeWgmmaDescriptor(const WgmmaDescriptorFields &fields,
                               int64_t bufferByteAddress) {
  return field14(bufferByteAddress + fields.startByte) |
         field14(fields.leadingByteOffset) << 16 |
         field14(fields.strideByteOffset) << 32 |
         (static_cast<uint64_t>(fields.baseOffset) & 0x7) << 49 |
         static_cast<uint64_t>(fields.swizzleMode) << 62;
}

WgmmaDescriptorFields decodeWgmmaDescriptor(uint64_t d) {
  WgmmaDescriptorFields f;
  f.startByte = static_cast<int64_t>(d & 0x3FFF) << 4;
  f.leadingByteOffset = static_cast<int64_t>((d >> 16) & 0x3FFF) << 4;
  f.strideByteOffset = static_cast<int64_t>((d >> 32) & 0x3FFF) << 4;
  f.baseOffset = static_cast<int64_t>((d >> 49) & 0x7);
  f.swizzleMode = static_cast<WgmmaSwizzleMode>((d >> 62) & 0x3);
  return f;
}

//===----------------------------------------------------------------------===//
// The model (PTX "Shared Memory Matrix Layout", K-major)
//===----------------------------------------------------------------------===//

/// The span (row length) of a swizzled mode's atom: 128, 64 or 32 B.
static int64_t spanOf(WgmmaSwizzleMode mode) {
  switch (mode) {
  case WgmmaSwizzleMode::B128:
    return 128;
  case WgmmaSwizzleMode::B64:
    return 64;
  default:
    return 32;
  }
}

std::optional<WgmmaOperandAddress>
wgmmaOperandByteAddress(const WgmmaDescriptorFields &fields, int64_t m,
                        int64_t kk, int64_t elementBytes, WgmmaMajor major) {
  if (fields.baseOffset != 0)
    return std::nullopt;
  int64_t kBytes = kk * elementBytes, mBytes = m * elementBytes;
  int64_t rowInAtom = m % 8, atom = m / 8;
  WgmmaOperandAddress a;
  if (fields.swizzleMode == WgmmaSwizzleMode::Interleave) {
    if (major == WgmmaMajor::K) {
      // Core matrices of 8 rows x 16 B: rows 16 B apart, core matrices LBO
      // apart along K and SBO apart along M/N. No swizzle.
      a.linear = fields.startByte + rowInAtom * 16 +
                 atom * fields.strideByteOffset +
                 (kBytes / 16) * fields.leadingByteOffset + kBytes % 16;
    } else {
      // 16 B of M/N per K-row, K-rows 16 B apart, 8-row groups LBO apart
      // along K, 16-byte groups SBO apart along M/N.
      a.linear = fields.startByte + mBytes % 16 +
                 (mBytes / 16) * fields.strideByteOffset + (kk % 8) * 16 +
                 (kk / 8) * fields.leadingByteOffset;
    }
    a.swizzled = a.linear;
    return a;
  }
  // Swizzled: the mode's span is the atom's row length (128, 64, 32 B); the
  // 16-byte chunk index (bits 4..) is XORed with the 128-byte row index
  // (bits 7..), as many bits as the span has chunks.
  int64_t span = spanOf(fields.swizzleMode);
  if (major == WgmmaMajor::K)
    a.linear = fields.startByte + rowInAtom * span +
               atom * fields.strideByteOffset + kBytes;
  else
    a.linear = fields.startByte + mBytes % span +
               (mBytes / span) * fields.leadingByteOffset + (kk % 8) * span +
               (kk / 8) * fields.strideByteOffset;
  int64_t chunkMask = span / 16 - 1;
  a.swizzled = a.linear ^ (((a.linear >> 7) & chunkMask) << 4);
  return a;
}

//===----------------------------------------------------------------------===//
// The planner
//===----------------------------------------------------------------------===//

namespace {
using Check = std::optional<Decline>;

std::string str(int64_t v) { return std::to_string(v); }

int64_t floorMod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

/// Rank, element size, rows and k (`wgmma-shape`).
Check checkOperandShape(const std::vector<int64_t> &shape, int64_t elementBytes,
                        int64_t rows, int64_t k) {
  if (shape.size() != 2)
    return Decline{RuleId::WgmmaShape,
                   "the buffer has rank " + str(shape.size()) +
                       "; a wgmma operand is a 2-D (M or N) x K buffer"};
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4)
    return Decline{
        RuleId::WgmmaShape,
        "element size " + str(elementBytes) +
            " B; wgmma reads elements of 1, 2 or 4 bytes from shared memory"};
  // k may be any attribute value: range first, then the product.
  if (k <= 0 || k > kWgmmaKStepBytes)
    return Decline{
        RuleId::WgmmaShape,
        "k = " + str(k) +
            " elements; one wgmma k-step is 32 B, at most 32 elements"};
  if (k * elementBytes != kWgmmaKStepBytes)
    return Decline{RuleId::WgmmaShape, "k = " + str(k) + " elements x " +
                                           str(elementBytes) +
                                           " B = " + str(k * elementBytes) +
                                           " B; one wgmma k-step is 32 B"};
  if (rows < 8 || rows > 256 || rows % 8 != 0)
    return Decline{RuleId::WgmmaShape,
                   "rows = " + str(rows) +
                       "; an operand has 8..256 rows in multiples of 8"};
  return std::nullopt;
}

/// The block [start, start + size) inside dimension `dim` (`smem-bounds`).
Check checkInside(const std::vector<int64_t> &shape, size_t dim, int64_t start,
                  int64_t size) {
  if (start >= 0 && start <= shape[dim] - size)
    return std::nullopt;
  return Decline{RuleId::SmemBounds, "wgmma block [" + str(start) + ", +" +
                                         str(size) + ") leaves dimension " +
                                         str(dim) + " of size " +
                                         str(shape[dim])};
}

/// A swizzled layout on a base aligned to its repeat (`wgmma-layout`,
/// `wgmma-align`).
Check checkSwizzle(const Layout &layout, int64_t baseAlignment) {
  Swizzle s = layout.swizzle();
  if (s == Swizzle::None)
    return Decline{RuleId::WgmmaLayout,
                   "layout " + layout.str() +
                       " has no swizzle; the descriptor supports the swizzled "
                       "32B, 64B and "
                       "128B modes only"};
  int64_t repeat = swizzleRepeatBytes(s);
  if (baseAlignment <= 0 || baseAlignment % repeat != 0)
    return Decline{RuleId::WgmmaAlign,
                   "buffer base alignment " + str(baseAlignment) +
                       " B is not a multiple of the " + toString(s) +
                       " swizzle repeat " + str(repeat) + " B"};
  return std::nullopt;
}

/// Bytes from element [0, c] to element [r, c] (any c).
int64_t rowBytes(const GroupedLayout &g, int64_t r, int64_t elementBytes) {
  return (g.offsetOf({r, 0}) - g.offsetOf({0, 0})) * elementBytes;
}
/// Bytes from element [r, 0] to element [r, c] (any r).
int64_t colBytes(const GroupedLayout &g, int64_t c, int64_t elementBytes) {
  return (g.offsetOf({0, c}) - g.offsetOf({0, 0})) * elementBytes;
}

/// K elements col .. col + k - 1 are contiguous (`wgmma-layout`).
Check checkKContiguous(const GroupedLayout &g, int64_t elementBytes,
                       int64_t col, int64_t k) {
  int64_t first = colBytes(g, col, elementBytes);
  for (int64_t kk = 1; kk < k; ++kk) {
    int64_t got = colBytes(g, col + kk, elementBytes) - first;
    if (got != kk * elementBytes)
      return Decline{RuleId::WgmmaLayout,
                     "K is not contiguous: column " + str(col + kk) + " is " +
                         str(got) + " B after column " + str(col) +
                         ", a K-major layout has it " + str(kk * elementBytes) +
                         " B after"};
  }
  return std::nullopt;
}

/// A positive multiple of the swizzle repeat below 2^18 B.
bool isAtomDistance(int64_t bytes, int64_t repeat) {
  return bytes > 0 && bytes % repeat == 0 && bytes < kWgmmaFieldLimit;
}

/// Dimension 0 of either major is rows one swizzle span apart in 8-row
/// groups, the groups SBO apart: M/N rows of a K-major operand, K-rows of
/// an MN-major one. How the declines name them.
struct RowNames {
  const char *row;    // one row of dimension 0
  const char *layout; // the layout's major
  const char *group;  // its 8-row groups
};
constexpr RowNames kKMajorRows{"row", "K-major", "atoms"};
constexpr RowNames kMnMajorRows{"K-row", "MN-major", "groups"};

/// The SBO of the rows from `row`: the distance of the second 8-row group,
/// or the repeat when there is one group; a positive multiple of the repeat
/// that the 14-bit field holds (`wgmma-layout`).
Check deriveStrideBytes(const GroupedLayout &g, int64_t elementBytes,
                        int64_t row, int64_t rows, int64_t &sbo,
                        const RowNames &names) {
  int64_t repeat = swizzleRepeatBytes(g.swizzle);
  sbo = rows > kWgmmaAtomRows
            ? rowBytes(g, row + kWgmmaAtomRows, elementBytes) -
                  rowBytes(g, row, elementBytes)
            : repeat;
  if (isAtomDistance(sbo, repeat))
    return std::nullopt;
  return Decline{RuleId::WgmmaLayout,
                 std::string(names.row) + "s " + str(row) + " and " +
                     str(row + kWgmmaAtomRows) + " are " + str(sbo) +
                     " B apart; the " + toString(g.swizzle) + " " +
                     names.layout + " layout stacks its 8-row " + names.group +
                     " a positive multiple of " + str(repeat) +
                     " B apart (below 2^18 B)"};
}

/// Row m of the block is m % 8 swizzle spans plus m / 8 SBOs after its
/// first row (`wgmma-layout`).
Check checkRows(const GroupedLayout &g, int64_t elementBytes, int64_t row,
                int64_t rows, int64_t sbo, const RowNames &names) {
  int64_t span = swizzleSpanBytes(g.swizzle);
  int64_t first = rowBytes(g, row, elementBytes);
  for (int64_t m = 1; m < rows; ++m) {
    int64_t got = rowBytes(g, row + m, elementBytes) - first;
    int64_t want = (m % kWgmmaAtomRows) * span + (m / kWgmmaAtomRows) * sbo;
    if (got != want)
      return Decline{RuleId::WgmmaLayout,
                     std::string(names.row) + " " + str(row + m) + " is " +
                         str(got) + " B after " + names.row + " " + str(row) +
                         "; the " + toString(g.swizzle) + " " + names.layout +
                         " layout (" + names.row + "s of " + str(span) +
                         " B, 8-row " + names.group + " SBO = " + str(sbo) +
                         " B apart) has it " + str(want) + " B after"};
  }
  return std::nullopt;
}

/// The start is on a k-step in the first row of a swizzle atom, so that the
/// descriptor's base offset is 0 (`wgmma-align`).
Check checkStart(Swizzle s, int64_t startByte) {
  if (floorMod(startByte, kWgmmaKStepBytes) != 0)
    return Decline{RuleId::WgmmaAlign,
                   "start byte offset " + str(startByte) +
                       " is not a multiple of the 32 B k-step"};
  int64_t span = swizzleSpanBytes(s), repeat = swizzleRepeatBytes(s);
  int64_t inAtom = floorMod(startByte, repeat);
  if (inAtom >= span)
    return Decline{RuleId::WgmmaAlign,
                   "start byte offset " + str(startByte) + " lies in row " +
                       str(inAtom / span) + " of a " + toString(s) +
                       " swizzle atom (" + str(repeat) +
                       " B); the block must start in the atom's first row"};
  return std::nullopt;
}

/// The values a start index takes inside a dimension of `extent` for a
/// block of `size` (empty when none fits).
std::vector<int64_t> candidates(WgmmaStartIndex index, int64_t extent,
                                int64_t size) {
  if (index.constant)
    return {*index.constant};
  std::vector<int64_t> values;
  for (int64_t v = 0; v <= extent - size; v += index.divisor)
    values.push_back(v);
  return values;
}

/// A dynamic start must be a multiple of `unit` elements.
Check checkDivisor(WgmmaStartIndex index, int64_t unit, const char *what,
                   const char *need) {
  if (index.constant || (index.divisor > 0 && index.divisor % unit == 0))
    return std::nullopt;
  return Decline{RuleId::WgmmaAlign,
                 "the dynamic " + std::string(what) +
                     " start is known to be a multiple of " +
                     str(index.divisor) +
                     "; the descriptor needs a multiple of " + str(unit) +
                     " (" + need + ")"};
}

/// Checks every row start (dimension 0, `rows` rows from each): one SBO;
/// the row bytes each start adds, by residue modulo the swizzle repeat
/// (first value seen).
Check planRowStarts(const GroupedLayout &g, int64_t elementBytes,
                    const std::vector<int64_t> &starts, int64_t rows,
                    int64_t &sbo, std::map<int64_t, int64_t> &residues,
                    const RowNames &names) {
  int64_t repeat = swizzleRepeatBytes(g.swizzle);
  for (int64_t row : starts) {
    if (Check d = checkInside(g.shape, 0, row, rows))
      return d;
    int64_t rowSbo = 0;
    if (Check d = deriveStrideBytes(g, elementBytes, row, rows, rowSbo, names))
      return d;
    if (Check d = checkRows(g, elementBytes, row, rows, rowSbo, names))
      return d;
    if (row != starts.front() && rowSbo != sbo)
      return Decline{RuleId::WgmmaLayout,
                     std::string(names.row) + " starts " + str(starts.front()) +
                         " and " + str(row) + " need SBO " + str(sbo) +
                         " B and " + str(rowSbo) +
                         " B; a dynamic start needs one"};
    sbo = rowSbo;
    int64_t bytes = rowBytes(g, row, elementBytes);
    residues.emplace(floorMod(bytes, repeat), bytes);
  }
  return std::nullopt;
}

/// Checks every column start; residues as planRowStarts.
Check planColStarts(const GroupedLayout &g, int64_t elementBytes,
                    const std::vector<int64_t> &starts, int64_t k,
                    std::map<int64_t, int64_t> &residues) {
  int64_t repeat = swizzleRepeatBytes(g.swizzle);
  for (int64_t col : starts) {
    if (Check d = checkInside(g.shape, 1, col, k))
      return d;
    if (Check d = checkKContiguous(g, elementBytes, col, k))
      return d;
    int64_t bytes = colBytes(g, col, elementBytes);
    residues.emplace(floorMod(bytes, repeat), bytes);
  }
  return std::nullopt;
}

/// MN-major M/N starts: a span's worth of elements contiguous, one span
/// after another LBO apart (one LBO for every start) (`wgmma-layout`,
/// `smem-bounds`).
Check planMnStarts(const GroupedLayout &g, int64_t elementBytes,
                   const std::vector<int64_t> &starts, int64_t rows,
                   int64_t &lbo, std::map<int64_t, int64_t> &residues) {
  int64_t span = swizzleSpanBytes(g.swizzle);
  int64_t repeat = swizzleRepeatBytes(g.swizzle);
  int64_t perSpan = span / elementBytes;
  for (int64_t col : starts) {
    if (Check d = checkInside(g.shape, 1, col, rows))
      return d;
    int64_t first = colBytes(g, col, elementBytes);
    int64_t colLbo = rows > perSpan
                         ? colBytes(g, col + perSpan, elementBytes) - first
                         : repeat;
    if (!isAtomDistance(colLbo, repeat))
      return Decline{RuleId::WgmmaLayout,
                     "columns " + str(col) + " and " + str(col + perSpan) +
                         " are " + str(colLbo) + " B apart; the " +
                         toString(g.swizzle) +
                         " MN-major layout places its spans of " +
                         str(perSpan) + " elements a positive multiple of " +
                         str(repeat) + " B apart (below 2^18 B)"};
    for (int64_t n = 1; n < rows; ++n) {
      int64_t got = colBytes(g, col + n, elementBytes) - first;
      int64_t want = (n * elementBytes) % span + (n / perSpan) * colLbo;
      if (got != want)
        return Decline{RuleId::WgmmaLayout,
                       "column " + str(col + n) + " is " + str(got) +
                           " B after column " + str(col) + "; the " +
                           toString(g.swizzle) +
                           " MN-major layout (M/N contiguous in spans of " +
                           str(span) + " B, LBO = " + str(colLbo) +
                           " B apart) has it " + str(want) + " B after"};
    }
    if (col != starts.front() && colLbo != lbo)
      return Decline{RuleId::WgmmaLayout,
                     "column starts " + str(starts.front()) + " and " +
                         str(col) + " need LBO " + str(lbo) + " B and " +
                         str(colLbo) + " B; a dynamic start needs one"};
    lbo = colLbo;
    residues.emplace(floorMod(first, repeat), first);
  }
  return std::nullopt;
}

/// An MN-major block starts on a swizzle atom (`wgmma-align`): its first
/// K-row is an atom's first row and its first M/N element the span's first.
Check checkMnStart(Swizzle s, int64_t startByte) {
  int64_t repeat = swizzleRepeatBytes(s);
  if (floorMod(startByte, repeat) == 0)
    return std::nullopt;
  return Decline{RuleId::WgmmaAlign,
                 "start byte offset " + str(startByte) + " is not on a " +
                     toString(s) + " swizzle atom (" + str(repeat) +
                     " B); an MN-major block starts on an atom's first "
                     "byte"};
}

WgmmaDescriptorPlan declined(Decline reason) {
  WgmmaDescriptorPlan plan;
  plan.decline = std::move(reason);
  return plan;
}
} // namespace

/// The MN-major plan (shape, layout and swizzle checked): K along
/// dimension 0, M/N along dimension 1.
static WgmmaDescriptorPlan planMnMajor(const GroupedLayout &g,
                                       int64_t elementBytes,
                                       WgmmaStartIndex row, WgmmaStartIndex col,
                                       int64_t rows, int64_t k) {
  if (elementBytes != 2)
    return declined(Decline{
        RuleId::WgmmaShape,
        "element size " + str(elementBytes) +
            " B; wgmma reads an MN-major (transposed) operand of f16 or bf16 "
            "only"});
  int64_t perSpan = swizzleSpanBytes(g.swizzle) / elementBytes;
  if (Check d = checkDivisor(row, kWgmmaAtomRows, "K-row", "one 8-row group"))
    return declined(*d);
  if (Check d = checkDivisor(col, perSpan, "column", "one swizzle span"))
    return declined(*d);
  if (col.constant && floorMod(*col.constant, perSpan) != 0)
    return declined(Decline{
        RuleId::WgmmaAlign,
        "column start " + str(*col.constant) + " is not on a swizzle span (" +
            str(perSpan) +
            " elements); an MN-major block starts on an atom's first byte"});
  std::vector<int64_t> kStarts = candidates(row, g.shape[0], k);
  std::vector<int64_t> mnStarts = candidates(col, g.shape[1], rows);
  if (kStarts.empty())
    return declined(*checkInside(g.shape, 0, 0, k));
  if (mnStarts.empty())
    return declined(*checkInside(g.shape, 1, 0, rows));
  int64_t sbo = 0, lbo = 0;
  std::map<int64_t, int64_t> kResidues, mnResidues;
  if (Check d = planMnStarts(g, elementBytes, mnStarts, rows, lbo, mnResidues))
    return declined(*d);
  if (Check d = planRowStarts(g, elementBytes, kStarts, k, sbo, kResidues,
                              kMnMajorRows))
    return declined(*d);
  int64_t base = g.offsetOf({0, 0}) * elementBytes;
  for (const auto &[kResidue, kOffset] : kResidues)
    for (const auto &[mnResidue, mnOffset] : mnResidues)
      if (Check d = checkMnStart(g.swizzle, base + kOffset + mnOffset))
        return declined(*d);
  WgmmaDescriptorFields fields;
  fields.startByte = base + rowBytes(g, kStarts.front(), elementBytes) +
                     colBytes(g, mnStarts.front(), elementBytes);
  fields.leadingByteOffset = lbo;
  fields.strideByteOffset = sbo;
  fields.baseOffset = 0;
  fields.swizzleMode = toWgmmaSwizzleMode(g.swizzle);
  WgmmaDescriptorPlan plan;
  plan.fields = fields;
  return plan;
}

WgmmaDescriptorPlan planWgmmaDescriptorStarts(
    const Layout &layout, const std::vector<int64_t> &shape,
    int64_t elementBytes, WgmmaStartIndex row, WgmmaStartIndex col,
    int64_t rows, int64_t k, int64_t baseAlignment, WgmmaMajor major) {
  if (Check d = checkOperandShape(shape, elementBytes, rows, k))
    return declined(*d);
  std::string error;
  std::optional<GroupedLayout> g = groupOnto(layout, shape, &error);
  if (!g)
    return declined(Decline{RuleId::Layout, error});
  if (Check d = checkSwizzle(layout, baseAlignment))
    return declined(*d);
  if (major == WgmmaMajor::MN)
    return planMnMajor(*g, elementBytes, row, col, rows, k);
  if (Check d = checkDivisor(row, kWgmmaAtomRows, "row", "one 8-row atom"))
    return declined(*d);
  if (Check d = checkDivisor(col, kWgmmaKStepBytes / elementBytes, "column",
                             "one 32 B k-step"))
    return declined(*d);

  std::vector<int64_t> rowStarts = candidates(row, shape[0], rows);
  std::vector<int64_t> colStarts = candidates(col, shape[1], k);
  if (rowStarts.empty())
    return declined(*checkInside(shape, 0, 0, rows));
  if (colStarts.empty())
    return declined(*checkInside(shape, 1, 0, k));
  int64_t sbo = 0;
  std::map<int64_t, int64_t> rowResidues, colResidues;
  // K first: a transposed layout is reported as such.
  if (Check d = planColStarts(*g, elementBytes, colStarts, k, colResidues))
    return declined(*d);
  if (Check d = planRowStarts(*g, elementBytes, rowStarts, rows, sbo,
                              rowResidues, kKMajorRows))
    return declined(*d);

  // Every combination of a row start and a column start.
  int64_t base = g->offsetOf({0, 0}) * elementBytes;
  for (const auto &[rowResidue, rowOffset] : rowResidues)
    for (const auto &[colResidue, colOffset] : colResidues)
      if (Check d = checkStart(g->swizzle, base + rowOffset + colOffset))
        return declined(*d);

  WgmmaDescriptorFields fields;
  fields.startByte = base + rowBytes(*g, rowStarts.front(), elementBytes) +
                     colBytes(*g, colStarts.front(), elementBytes);
  // Not used by swizzled K-major layouts; PTX assumes 1 (16 B).
  fields.leadingByteOffset = 16;
  fields.strideByteOffset = sbo;
  fields.baseOffset = 0;
  fields.swizzleMode = toWgmmaSwizzleMode(g->swizzle);
  WgmmaDescriptorPlan plan;
  plan.fields = fields;
  return plan;
}

WgmmaDescriptorPlan planWgmmaDescriptor(const Layout &layout,
                                        const std::vector<int64_t> &shape,
                                        int64_t elementBytes, int64_t row,
                                        int64_t col, int64_t rows, int64_t k,
                                        int64_t baseAlignment,
                                        WgmmaMajor major) {
  return planWgmmaDescriptorStarts(
      layout, shape, elementBytes, WgmmaStartIndex::known(row),
      WgmmaStartIndex::known(col), rows, k, baseAlignment, major);
}

} // namespace tile::mma
