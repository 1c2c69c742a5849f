//===- LayoutText.cpp - Printing and parsing the layout syntax ------------===//
//
//   (E0, ..., En-1)                   row-major
//   (E0, ..., En-1) : (S0, ..., Sn-1) explicit strides
//   either form, then ", swizzle = 32B|64B|128B" and/or ", offset = N"
//
// The offset clause is this library's extension for memref offsets; the
// dialect attribute never prints it.
//
//===----------------------------------------------------------------------===//

#include "tile/Layout/Format.h"
#include "tile/Layout/Layout.h"

#include <cctype>

namespace tile {

namespace {

/// Strides equal to the products of the inner extents. A product that
/// overflows cannot equal any stride; the outermost extent is never
/// multiplied (the parser does the same, so the short form parses back).
bool isRowMajor(const std::vector<Shard> &shards) {
  int64_t stride = 1;
  for (size_t i = shards.size(); i-- > 0;) {
    if (shards[i].stride != stride)
      return false;
    if (i > 0 && __builtin_mul_overflow(stride, shards[i].extent, &stride))
      return false;
  }
  return true;
}

class Parser {
public:
  explicit Parser(std::string_view input) : text(input) {}

  std::optional<Layout> parse(std::string *error) {
    std::vector<int64_t> extents, strides;
    bool hasStrides = false;
    Swizzle swizzle = Swizzle::None;
    int64_t offset = 0;
    if (!parseTuple(extents))
      return fail(error);
    if (consume(':')) {
      hasStrides = true;
      if (!parseTuple(strides))
        return fail(error);
      if (strides.size() != extents.size()) {
        message = "stride count " + std::to_string(strides.size()) +
                  " does not match extent count " +
                  std::to_string(extents.size());
        return fail(error);
      }
    }
    bool seenSwizzle = false, seenOffset = false;
    while (consume(',')) {
      std::string_view key = word();
      if (!consume('=')) {
        message = "expected '=' after '" + std::string(key) + "'";
        return fail(error);
      }
      if (key == "swizzle" && !seenSwizzle) {
        seenSwizzle = true;
        std::string_view value = word();
        std::optional<Swizzle> s = parseSwizzle(value);
        if (!s || *s == Swizzle::None) {
          message = "unknown swizzle '" + std::string(value) +
                    "' (expected 32B, 64B or 128B)";
          return fail(error);
        }
        swizzle = *s;
      } else if (key == "offset" && !seenOffset) {
        seenOffset = true;
        if (!parseInt(offset))
          return fail(error);
      } else {
        message = "unexpected '" + std::string(key) +
                  "' (expected swizzle or offset, each at most once)";
        return fail(error);
      }
    }
    skipSpace();
    if (pos != text.size()) {
      message =
          "unexpected trailing text '" + std::string(text.substr(pos)) + "'";
      return fail(error);
    }
    std::vector<Shard> shards(extents.size());
    int64_t stride = 1;
    for (size_t i = extents.size(); i-- > 0;) {
      shards[i] = {extents[i], hasStrides ? strides[i] : stride};
      if (!hasStrides && i > 0 &&
          __builtin_mul_overflow(stride, extents[i], &stride)) {
        message = "row-major strides overflow";
        return fail(error);
      }
    }
    return Layout(std::move(shards), swizzle, offset);
  }

private:
  std::optional<Layout> fail(std::string *error) {
    if (error)
      *error = message + " at column " + std::to_string(pos + 1);
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  std::string_view word() {
    skipSpace();
    size_t begin = pos;
    while (pos < text.size() &&
           std::isalnum(static_cast<unsigned char>(text[pos])))
      ++pos;
    return text.substr(begin, pos - begin);
  }

  bool parseInt(int64_t &value) {
    skipSpace();
    bool negative = consume('-');
    skipSpace();
    size_t begin = pos;
    uint64_t v = 0;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos]))) {
      v = v * 10 + static_cast<uint64_t>(text[pos] - '0');
      if (v > (uint64_t(1) << 62)) {
        message = "integer out of range";
        return false;
      }
      ++pos;
    }
    if (pos == begin) {
      message = "expected an integer";
      return false;
    }
    value = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
  }

  bool parseTuple(std::vector<int64_t> &values) {
    if (!consume('(')) {
      message = "expected '('";
      return false;
    }
    if (consume(')'))
      return true;
    do {
      int64_t v;
      if (!parseInt(v))
        return false;
      values.push_back(v);
    } while (consume(','));
    if (!consume(')')) {
      message = "expected ',' or ')'";
      return false;
    }
    return true;
  }

  std::string_view text;
  size_t pos = 0;
  std::string message;
};

} // namespace

std::string Layout::str() const {
  std::vector<int64_t> extents, strides;
  for (const Shard &s : shardList) {
    extents.push_back(s.extent);
    strides.push_back(s.stride);
  }
  std::string s = formatTuple(extents);
  if (!isRowMajor(shardList))
    s += " : " + formatTuple(strides);
  if (swz != Swizzle::None)
    s += std::string(", swizzle = ") + toString(swz);
  if (offset != 0)
    s += ", offset = " + std::to_string(offset);
  return s;
}

std::optional<Layout> Layout::parse(std::string_view text, std::string *error) {
  return Parser(text).parse(error);
}

} // namespace tile
