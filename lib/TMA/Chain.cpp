//===- Chain.cpp - L2: the contiguous stride-1 chain of shared modes ------===//
//
// The box is written densely in box order: dim 0 is a run of shared stride 1
// (and global stride 1), each further box dim steps by the padded row pitch
// times the box so far. The chain lists the modes that can play those roles,
// in order; modes above the box limits are split so the chain continues.
//
//===----------------------------------------------------------------------===//

#include "CopyModes.h"
#include "tile/TMA/Limits.h"

#include <algorithm>

namespace tile::tma::detail {

namespace {

// Replaces modes[i] by (extent / inner) outer and `inner` inner pieces; the
// outer piece lands at index i, the inner one at i + 1.
void splitMode(std::vector<Mode> &modes, size_t i, int64_t inner) {
  Mode m = modes[i];
  Mode outer{m.extent / inner, m.axis, m.step * inner, m.sharedStride * inner};
  modes[i] = {inner, m.axis, m.step, m.sharedStride};
  modes.insert(modes.begin() + static_cast<std::ptrdiff_t>(i), outer);
}

int64_t largestDivisorAtMost(int64_t n, int64_t limit, int64_t multipleOf) {
  for (int64_t b = std::min(n, limit); b > 1; --b)
    if (n % b == 0 && b % multipleOf == 0)
      return b;
  return 1;
}

// The mode that becomes box dim 0: the (last) run of shared stride 1, which
// must also have global stride 1.
std::optional<size_t> findStrideOneMode(const CopyModes &cm,
                                        const std::vector<Mode> &modes,
                                        Decline *decline) {
  auto globalStride = [&](const Mode &m) {
    return cm.axes[m.axis].stride * m.step;
  };
  size_t first = modes.size();
  for (size_t i = 0; i < modes.size(); ++i)
    if (modes[i].sharedStride == 1)
      first = i;
  if (first == modes.size() || globalStride(modes[first]) != 1) {
    if (first < modes.size() && cm.axes[modes[first].axis].runtimeStride)
      *decline = Decline{
          RuleId::Elementwise,
          "the shared stride-1 run of " + std::to_string(modes[first].extent) +
              " elements has a run-time global stride; TMA needs the "
              "innermost stride to be 1 in the buffer's type"};
    else if (first == modes.size())
      *decline = Decline{RuleId::Elementwise,
                         "no run of the copy has shared stride 1"};
    else
      *decline = Decline{
          RuleId::Elementwise,
          "the shared stride-1 run of " + std::to_string(modes[first].extent) +
              " elements has global stride " +
              std::to_string(globalStride(modes[first])) +
              "; the TMA reads the innermost dimension contiguously"};
    return std::nullopt;
  }
  return first;
}

// The elements of one box row (box dim 0) for an inner run of n0 elements: at
// most one swizzle span, at most 256 elements.
std::optional<int64_t> chooseRowElems(int64_t n0, int64_t eb, int64_t span,
                                      Decline *decline) {
  int64_t rowElems = n0;
  if (span > 0 && n0 * eb > span) {
    rowElems = span / eb;
    if (n0 % rowElems != 0) {
      *decline = Decline{
          RuleId::SwizzleSpan,
          "inner run of " + std::to_string(n0) + " x " + std::to_string(eb) +
              " B = " + std::to_string(n0 * eb) + " B does not split into " +
              std::to_string(span) + " B swizzle rows"};
      return std::nullopt;
    }
  } else if (n0 > limits::kMaxBoxDim) {
    constexpr int64_t granule = limits::kGranuleBytes;
    int64_t want = granule / std::min<int64_t>(granule, eb);
    rowElems = largestDivisorAtMost(n0, limits::kMaxBoxDim, want);
    if (rowElems == 1)
      rowElems = largestDivisorAtMost(n0, limits::kMaxBoxDim, 1);
  }
  return rowElems;
}

// Sets the row pitch; TMA pads rows narrower than the swizzle span, so the
// shared layout must not place the next row right after this one.
bool setPitch(Chain &chain, int64_t rowElems, int64_t eb, int64_t span,
              Decline *decline) {
  int64_t rowBytes = rowElems * eb;
  chain.pitch = span > 0 ? std::max(rowBytes, span) / eb : rowElems;
  if (chain.pitch != rowElems) {
    for (const Mode &m : chain.modes) {
      if (m.sharedStride == rowElems) {
        *decline = Decline{RuleId::SwizzleMismatch,
                           "TMA pads each " + std::to_string(rowBytes) +
                               " B row to the " + std::to_string(span) +
                               " B swizzle span, but the shared "
                               "layout places rows " +
                               std::to_string(rowBytes) + " B apart"};
        return false;
      }
    }
  }
  return true;
}

// Appends the modes that continue the box densely (shared stride = pitch
// times the box so far), splitting those above 256 elements.
void extendChain(Chain &chain) {
  std::vector<Mode> &modes = chain.modes;
  int64_t want = chain.pitch;
  while (true) {
    size_t next = modes.size();
    for (size_t i = 0; i < modes.size(); ++i)
      if (modes[i].sharedStride == want &&
          std::find(chain.order.begin(), chain.order.end(), i) ==
              chain.order.end())
        next = i;
    if (next == modes.size())
      break;
    if (modes[next].extent > limits::kMaxBoxDim) {
      int64_t b =
          largestDivisorAtMost(modes[next].extent, limits::kMaxBoxDim, 1);
      if (b == 1)
        break;
      splitMode(modes, next, b);
      for (size_t &c : chain.order)
        if (c >= next)
          ++c;
      ++next;
    }
    chain.order.push_back(next);
    want *= modes[next].extent;
  }
}

} // namespace

std::optional<Chain> findChain(const CopyModes &cm, Swizzle swizzle,
                               Decline *decline) {
  Chain chain;
  chain.modes = cm.modes;
  std::vector<Mode> &modes = chain.modes;
  int64_t eb = cm.elementBytes;
  std::optional<size_t> first = findStrideOneMode(cm, modes, decline);
  if (!first)
    return std::nullopt;

  int64_t span = swizzleSpanBytes(swizzle);
  std::optional<int64_t> rowElems =
      chooseRowElems(modes[*first].extent, eb, span, decline);
  if (!rowElems)
    return std::nullopt;
  if (*rowElems != modes[*first].extent) {
    splitMode(modes, *first, *rowElems);
    ++*first; // The inner piece.
  }
  chain.order.push_back(*first);

  if (!setPitch(chain, *rowElems, eb, span, decline))
    return std::nullopt;
  extendChain(chain);
  return chain;
}

} // namespace tile::tma::detail
