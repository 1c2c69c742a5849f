//===- LayoutFuzzer.cpp - Layout text: parse, print, re-parse -------------===//
//
// Each input is layout text (`(8, 4, 64) : (64, 512, 1), swizzle = 128B`),
// or, when it starts with byte 0x01, a layout built directly from the bytes
// (extents, strides that are often exactly row-major, swizzle, offset, with
// boundary values) whose printed text must then parse back.
// Invariants:
//   - a parse error names a column inside the text (1 .. length + 1);
//   - a parsed layout prints to text that parses back to the same layout and
//     prints identically (the round trip the dialect attribute relies on);
//   - verify, hasOverlap, cosize and canonicalize never crash, and for small
//     valid layouts canonicalize keeps every element's offset and swizzled
//     byte address.
//
//===----------------------------------------------------------------------===//

#include "tile/Layout/Layout.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace tile;

namespace {

[[noreturn]] void finding(const std::string &what, std::string_view input) {
  fprintf(stderr, "==== tile-fuzz-layout finding: %s\n==== input: '%.*s'\n",
          what.c_str(), static_cast<int>(input.size()), input.data());
  abort();
}

/// Small enough that offsets cannot overflow and every index can be visited.
bool small(const Layout &l) {
  int64_t size = 1;
  for (const Shard &s : l.shards()) {
    if (s.extent < 1 || s.extent > 4096 || s.stride < 0 ||
        s.stride > (int64_t(1) << 20))
      return false;
    size *= s.extent;
    if (size > 4096)
      return false;
  }
  return l.elementOffset() >= -(int64_t(1) << 20) &&
         l.elementOffset() <= (int64_t(1) << 20);
}

/// A layout from bytes; nullopt when a value is outside what the text syntax
/// can spell (|v| <= 2^62).
std::optional<Layout> decode(FuzzedDataProvider &in) {
  static const int64_t kValues[] = {0,
                                    1,
                                    2,
                                    4,
                                    64,
                                    256,
                                    int64_t(1) << 31,
                                    int64_t(1) << 32,
                                    int64_t(1) << 61,
                                    int64_t(1) << 62,
                                    -1};
  auto value = [&] {
    return in.ConsumeBool() ? in.PickValueInArray(kValues)
                            : in.ConsumeIntegralInRange<int64_t>(
                                  -(int64_t(1) << 62), int64_t(1) << 62);
  };
  size_t rank = in.ConsumeIntegralInRange<size_t>(0, 5);
  std::vector<Shard> shards(rank);
  bool rowMajor = in.ConsumeBool();
  uint64_t stride = 1; // wraps like the values a caller could compute
  for (size_t i = rank; i-- > 0;) {
    shards[i].extent = value();
    shards[i].stride = rowMajor ? static_cast<int64_t>(stride) : value();
    stride *= static_cast<uint64_t>(shards[i].extent);
  }
  for (const Shard &sh : shards)
    if (sh.stride > (int64_t(1) << 62) || sh.stride < -(int64_t(1) << 62))
      return std::nullopt;
  return Layout(shards, static_cast<Swizzle>(in.ConsumeIntegralInRange(0, 3)),
                in.ConsumeBool() ? value() : 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  std::string error;
  if (size > 0 && data[0] == 1) {
    FuzzedDataProvider in(data + 1, size - 1);
    std::optional<Layout> built = decode(in);
    if (!built)
      return 0;
    std::string printed = built->str();
    std::optional<Layout> back = Layout::parse(printed, &error);
    // Row-major text whose strides overflow is the one refusal allowed.
    if (!back && error.rfind("row-major strides overflow", 0) != 0)
      finding("printed layout '" + printed + "' does not parse: " + error,
              text);
    if (back && !(*back == *built))
      finding("printed layout '" + printed + "' parses to another layout",
              text);
    return 0;
  }
  std::optional<Layout> parsed = Layout::parse(text, &error);
  if (!parsed) {
    size_t at = error.rfind(" at column ");
    if (at == std::string::npos)
      finding("parse error without a column: " + error, text);
    long column = strtol(error.c_str() + at + 11, nullptr, 10);
    if (column < 1 || static_cast<size_t>(column) > size + 1)
      finding("parse error column outside the text: " + error, text);
    return 0;
  }
  const Layout &l = *parsed;
  std::string printed = l.str();
  std::optional<Layout> again = Layout::parse(printed, &error);
  if (!again)
    finding("printed layout '" + printed + "' does not parse: " + error, text);
  if (!(*again == l))
    finding("printed layout '" + printed + "' parses to a different layout",
            text);
  if (again->str() != printed)
    finding("printed layout '" + printed + "' re-prints as '" + again->str() +
                "'",
            text);

  bool valid = !l.verify().has_value();
  if (!valid || !small(l))
    return 0;
  (void)l.hasOverlap();
  Layout canonical = l.canonicalize();
  if (canonical.size() != l.size())
    finding("canonicalize changes the size", text);
  bool swizzleOk = !l.verifySwizzle(2).has_value();
  for (int64_t i = 0; i < l.size(); ++i) {
    if (canonical.offsetOf(i) != l.offsetOf(i))
      finding("canonicalize moves element " + std::to_string(i), text);
    if (swizzleOk &&
        canonical.byteAddressOf(i, 2, 1024) != l.byteAddressOf(i, 2, 1024))
      finding("canonicalize moves the swizzled byte of element " +
                  std::to_string(i),
              text);
  }
  return 0;
}
