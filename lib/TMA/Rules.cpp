//===- Rules.cpp - One function per TMA rule ------------------------------===//
//
// Each check returns a Decline (the rule and the values that broke it) or
// nullopt. The rule table with every id lives in tile/Support/RuleIds.def.
//
//===----------------------------------------------------------------------===//

#include "CopyModes.h"

#include "tile/Layout/Format.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Limits.h"

#include <algorithm>

namespace tile::tma {

namespace {
using Check = std::optional<Decline>;

std::string bytesOf(int64_t n, int64_t eb) {
  return std::to_string(n) + " x " + std::to_string(eb) +
         " B = " + std::to_string(n * eb) + " B";
}
} // namespace

namespace detail {

//===-- Request-level rules ----------------------------------------------===//

Check checkDataType(const CopyRequest &r) {
  if (!dataTypeFor(r.elementType))
    return Decline{RuleId::DataType, "element type " + toString(r.elementType) +
                                         " has no TMA data type"};
  return std::nullopt;
}

Check checkNanFillType(const CopyRequest &r) {
  if (r.oobFill == OobFill::NaN && !nanFillSupports(r.elementType))
    return Decline{RuleId::NanFillType,
                   "NaN fill needs f16, bf16, f32 or f64, not " +
                       toString(r.elementType)};
  return std::nullopt;
}

Check checkOobMode(const CopyRequest &r) {
  if (r.oobFill == OobFill::NaN && r.direction == Direction::SharedToGlobal)
    return Decline{RuleId::OobMode,
                   std::string("NaN fill applies to loads, not stores")};
  return std::nullopt;
}

Check checkReduceType(const CopyRequest &r) {
  if (r.reduce == ReduceKind::None)
    return std::nullopt;
  if (r.direction == Direction::GlobalToShared)
    return Decline{RuleId::ReduceType,
                   std::string("reduce ") + toString(r.reduce) +
                       " on a load; TMA reduces only into global memory"};
  if (!reduceSupports(r.reduce, r.elementType))
    return Decline{RuleId::ReduceType,
                   std::string("reduce ") + toString(r.reduce) +
                       " does not support " + toString(r.elementType)};
  // H200: and/or through an INT64 tensor map trap (CUDA error 715); UINT64
  // maps and 32-bit maps of either sign work. Other variants take the rest.
  bool bitwise = r.reduce == ReduceKind::And || r.reduce == ReduceKind::Or ||
                 r.reduce == ReduceKind::Xor;
  if (bitwise && r.elementType.bytes == 8 &&
      r.elementType.kind != ScalarKind::UnsignedInt)
    return Decline{RuleId::ReduceType,
                   std::string("reduce ") + toString(r.reduce) +
                       " does not support " + toString(r.elementType) +
                       " (an INT64 tensor map traps on sm_90; ui64 works)"};
  return std::nullopt;
}

/// Stores may not leave the tensor (static starts; dynamic ones are the
/// caller's contract).
Check checkStoreRegion(const CopyRequest &r) {
  if (r.direction != Direction::SharedToGlobal)
    return std::nullopt;
  for (size_t d = 0; d < r.globalShape.size() && d < r.globalOffsets.size() &&
                     d < r.globalSizes.size();
       ++d) {
    std::optional<int64_t> o = r.globalOffsets[d].constantValue();
    if (!o)
      continue;
    if (*o < 0)
      return Decline{RuleId::StoreNegativeCoord,
                     "store region starts at " + std::to_string(*o) +
                         " on global dimension " + std::to_string(d)};
    // Offsets reach here unchecked: the end may not fit int64.
    int64_t end;
    bool wraps = __builtin_add_overflow(*o, r.globalSizes[d], &end);
    if (wraps || end > r.globalShape[d])
      return Decline{RuleId::StoreBounds,
                     "store region [" + std::to_string(*o) + ", " +
                         (wraps ? "+" + std::to_string(r.globalSizes[d])
                                : std::to_string(end)) +
                         ") leaves [0, " + std::to_string(r.globalShape[d]) +
                         ") on global dimension " + std::to_string(d)};
  }
  return std::nullopt;
}

std::optional<Decline> checkRequestRules(const CopyRequest &r) {
  for (Check (*check)(const CopyRequest &) :
       {checkDataType, checkNanFillType, checkOobMode, checkReduceType,
        checkStoreRegion})
    if (Check c = check(r))
      return c;
  return std::nullopt;
}

//===-- Descriptor rules (TMA_FACTS section 1) ----------------------------===//

Check checkRank(const TmaPlan &p) {
  if (p.map.rank < 1 || p.map.rank > limits::kMaxRank)
    return Decline{RuleId::Rank,
                   "the copy needs " + std::to_string(p.map.rank) +
                       " tensor-map dimensions, TMA allows 1 to " +
                       std::to_string(limits::kMaxRank)};
  return std::nullopt;
}

Check checkBoxDims(const TmaPlan &p) {
  for (size_t d = 0; d < p.map.boxDim.size(); ++d)
    if (p.map.boxDim[d] < 1 || p.map.boxDim[d] > limits::kMaxBoxDim)
      return Decline{RuleId::BoxDim, "box dimension " + std::to_string(d) +
                                         " is " +
                                         std::to_string(p.map.boxDim[d]) +
                                         ", TMA allows 1 to " +
                                         std::to_string(limits::kMaxBoxDim)};
  return std::nullopt;
}

Check checkInnerBoxBytes(const TmaPlan &p) {
  int64_t eb = p.map.elementBytes;
  if (!p.map.boxDim.empty() &&
      (p.map.boxDim[0] * eb) % limits::kGranuleBytes != 0)
    return Decline{RuleId::InnerBoxBytes,
                   "box " + bytesOf(p.map.boxDim[0], eb) +
                       " is not a multiple of " +
                       std::to_string(limits::kGranuleBytes)};
  return std::nullopt;
}

Check checkElementStrides(const TmaPlan &p) {
  for (size_t d = 0; d < p.map.elementStrides.size(); ++d)
    if (p.map.elementStrides[d] < 1 ||
        p.map.elementStrides[d] > limits::kMaxElementStride)
      return Decline{
          RuleId::ElementStride,
          "element stride " + std::to_string(p.map.elementStrides[d]) +
              " of dimension " + std::to_string(d) + " is outside 1 to " +
              std::to_string(limits::kMaxElementStride)};
  return std::nullopt;
}

// A run-time field is the host's to compute; its rule is a guard
// (Guards.cpp).
bool isRuntime(const std::vector<std::optional<RuntimeField>> &fields,
               size_t i) {
  return i < fields.size() && fields[i].has_value();
}

Check checkGlobalDims(const TmaPlan &p) {
  for (size_t d = 0; d < p.map.globalDim.size(); ++d)
    if (isRuntime(p.map.runtimeGlobalDim, d))
      continue;
    else if (p.map.globalDim[d] < 1 ||
             p.map.globalDim[d] > uint64_t(limits::kMaxGlobalDim))
      return Decline{RuleId::GlobalDim, "global dimension " +
                                            std::to_string(d) + " is " +
                                            std::to_string(p.map.globalDim[d]) +
                                            ", TMA allows 1 to 2^32"};
  return std::nullopt;
}

Check checkGlobalStrides(const TmaPlan &p) {
  for (size_t i = 0; i < p.map.globalStridesBytes.size(); ++i) {
    if (isRuntime(p.map.runtimeGlobalStrides, i))
      continue;
    uint64_t s = p.map.globalStridesBytes[i];
    if (s % limits::kGranuleBytes != 0)
      return Decline{RuleId::GlobalStride,
                     "dimension " + std::to_string(i + 1) + " stride " +
                         std::to_string(s) + " B is not a multiple of " +
                         std::to_string(limits::kGranuleBytes)};
    if (s >= uint64_t(limits::kGlobalStrideLimitBytes))
      return Decline{RuleId::GlobalStride,
                     "dimension " + std::to_string(i + 1) + " stride " +
                         std::to_string(s) + " B is not below 2^40"};
  }
  return std::nullopt;
}

Check checkGlobalAlign(const CopyRequest &r, const TmaPlan &p) {
  // With a run-time offset the whole base is a global-align guard.
  if (p.map.runtimeOffsetScale == 0 &&
      !p.map.baseOffsetBytes.provablyMultipleOf(limits::kGranuleBytes,
                                                r.symbolDivisors))
    return Decline{RuleId::GlobalAlign, "global base offset " +
                                            p.map.baseOffsetBytes.str() +
                                            " B is not a multiple of 16"};
  return std::nullopt;
}

Check checkSwizzleSpan(const TmaPlan &p) {
  int64_t span = swizzleSpanBytes(p.map.swizzle);
  int64_t eb = p.map.elementBytes;
  if (span > 0 && !p.map.boxDim.empty() && p.map.boxDim[0] * eb > span)
    return Decline{RuleId::SwizzleSpan,
                   "inner box " + bytesOf(p.map.boxDim[0], eb) +
                       " exceeds the " + std::to_string(span) +
                       " B swizzle span"};
  return std::nullopt;
}

//===-- Instruction rules (TMA_FACTS section 2) ---------------------------===//

Check checkSmemAlign(const CopyRequest &r, const TmaPlan &p) {
  constexpr int64_t align = limits::kSharedAlignmentBytes;
  if (r.sharedBaseAlignment <= 0 || r.sharedBaseAlignment % align != 0)
    return Decline{RuleId::SmemAlign,
                   "shared buffer alignment " +
                       std::to_string(r.sharedBaseAlignment) +
                       " B is not a multiple of " + std::to_string(align)};
  for (const TmaIssue &i : p.issues)
    if (!i.smemByteOffset.provablyMultipleOf(align, r.symbolDivisors))
      return Decline{RuleId::SmemAlign,
                     "shared offset " + i.smemByteOffset.str() +
                         " B of an instruction is not a multiple of " +
                         std::to_string(align)};
  return std::nullopt;
}

Check checkInnerCoordAlign(const CopyRequest &r, const TmaPlan &p) {
  int64_t eb = p.map.elementBytes;
  for (const TmaIssue &i : p.issues)
    if (!i.coords.empty() &&
        !(i.coords[0] * eb)
             .provablyMultipleOf(limits::kGranuleBytes, r.symbolDivisors))
      return Decline{RuleId::InnerCoordAlign,
                     "inner coordinate " + i.coords[0].str() + " x " +
                         std::to_string(eb) + " B is not " +
                         (i.coords[0].isConstant() ? "" : "provably ") +
                         "a multiple of 16 B"};
  return std::nullopt;
}

Check checkCoordRange(const TmaPlan &p) {
  for (const TmaIssue &i : p.issues)
    for (const SymExpr &c : i.coords)
      if (c.constant < -(int64_t(1) << 31) || c.constant >= (int64_t(1) << 31))
        return Decline{RuleId::CoordRange,
                       "coordinate " + c.str() + " does not fit int32"};
  return std::nullopt;
}

Check checkStoreNegativeCoord(const CopyRequest &r, const TmaPlan &p) {
  if (r.direction != Direction::SharedToGlobal)
    return std::nullopt;
  for (const TmaIssue &i : p.issues)
    for (const SymExpr &c : i.coords)
      if (c.isConstant() && c.constant < 0)
        return Decline{RuleId::StoreNegativeCoord,
                       "store coordinate " + c.str() + " is negative"};
  return std::nullopt;
}

// Stores clip at 16-byte granularity of the innermost dimension: a box that
// crosses a row end not on a 16-byte boundary writes past it.
Check checkStoreBounds(const CopyRequest &r, const TmaPlan &p) {
  if (r.direction != Direction::SharedToGlobal || p.map.rank == 0)
    return std::nullopt;
  int64_t eb = p.map.elementBytes;
  int64_t dim0 = static_cast<int64_t>(p.map.globalDim[0]);
  for (const TmaIssue &i : p.issues)
    for (size_t d = 0; d < i.coords.size(); ++d) {
      std::optional<int64_t> c = i.coords[d].constantValue();
      int64_t extent = static_cast<int64_t>(p.map.globalDim[d]);
      // A run-time extent clips the store at its end (exact in outer
      // dimensions; the innermost one has a store-bounds guard).
      if (isRuntime(p.map.runtimeGlobalDim, d))
        continue;
      if (c && *c + p.map.boxDim[d] > extent)
        return Decline{RuleId::StoreBounds,
                       "store box [" + std::to_string(*c) + ", " +
                           std::to_string(*c + p.map.boxDim[d]) +
                           ") leaves tensor-map dimension " +
                           std::to_string(d) + " of extent " +
                           std::to_string(extent)};
      if (d == 0 && !c && (dim0 * eb) % limits::kGranuleBytes != 0)
        return Decline{
            RuleId::StoreBounds,
            "innermost extent " + bytesOf(dim0, eb) + " is not a multiple of " +
                std::to_string(limits::kGranuleBytes) +
                " and the dynamic coordinate " + i.coords[0].str() +
                " cannot be proven to keep the box from clipping past a row"};
    }
  return std::nullopt;
}

std::optional<Decline> checkPlanRules(const CopyRequest &r, const TmaPlan &p) {
  for (Check (*check)(const TmaPlan &) :
       {checkRank, checkBoxDims, checkInnerBoxBytes, checkElementStrides,
        checkGlobalDims, checkGlobalStrides, checkSwizzleSpan, checkCoordRange})
    if (Check c = check(p))
      return c;
  for (Check (*check)(const CopyRequest &, const TmaPlan &) :
       {checkGlobalAlign, checkSmemAlign, checkInnerCoordAlign,
        checkStoreNegativeCoord, checkStoreBounds})
    if (Check c = check(r, p))
      return c;
  return std::nullopt;
}

} // namespace detail
} // namespace tile::tma
