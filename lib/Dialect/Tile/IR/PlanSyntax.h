//===- PlanSyntax.h - Shared syntax of plan and map attributes -*- C++ -*-===//
//
// The pieces #tile.tma_plan, #tile.tiled_map, #tile.im2col_map and #tile.guard
// print and parse alike: integer lists, tensor-map fields that may be
// run-time values (`size(D)*S/N`), affine symbol expressions and the data
// type's name. Private to the dialect's attribute files.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_IR_PLANSYNTAX_H
#define TILE_LIB_DIALECT_TILE_IR_PLANSYNTAX_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/DialectImplementation.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile::plan_syntax {
using ::tile::tma::SymExpr;
using ::tile::tma::TensorDataType;
using ::tile::tma::TmaIssue;

template <typename T>
inline void printList(AsmPrinter &printer, const std::vector<T> &values) {
  printer << '[';
  llvm::interleaveComma(values, printer,
                        [&](T v) { printer << static_cast<int64_t>(v); });
  printer << ']';
}

/// A list of tensor-map fields, run-time ones as size(D)*S/N.
template <typename T>
inline void
printFields(AsmPrinter &printer, const std::vector<T> &values,
            const std::vector<std::optional<::tile::tma::RuntimeField>> &rt) {
  printer << '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      printer << ", ";
    if (i < rt.size() && rt[i]) {
      const ::tile::tma::RuntimeField &f = *rt[i];
      printer << f.value.kindName() << '(' << f.value.dim << ')';
      if (f.scale != 1)
        printer << '*' << f.scale;
      if (f.divisor != 1)
        printer << '/' << f.divisor;
    } else {
      printer << static_cast<int64_t>(values[i]);
    }
  }
  printer << ']';
}

inline void printSym(AsmPrinter &printer, const SymExpr &e) {
  // SymExpr::str() writes "N", "sK", "N*sK" joined by " + " and " - ".
  printer << e.str();
}

/// The `(D)` after `size` or `stride` (`kind`, read at `loc`): memref
/// dimension D's run-time size or stride.
inline ParseResult parseDimValue(AsmParser &parser, StringRef kind, SMLoc loc,
                                 ::tile::tma::RuntimeValue &value) {
  int64_t dim;
  if (parser.parseLParen() || parser.parseInteger(dim) || parser.parseRParen())
    return failure();
  if (dim < 0 || dim > 64)
    return parser.emitError(loc, "memref dimension out of range");
  value = kind == "size" ? ::tile::tma::RuntimeValue::size(dim)
                         : ::tile::tma::RuntimeValue::stride(dim);
  return success();
}

class PlanParser {
public:
  explicit PlanParser(AsmParser &parser) : parser(parser) {}

  ParseResult key(StringRef name) {
    if (parser.parseComma() || parser.parseKeyword(name) || parser.parseEqual())
      return failure();
    return success();
  }

  template <typename T>
  ParseResult list(std::vector<T> &out) {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          int64_t v;
          if (parser.parseInteger(v))
            return failure();
          if (v < 0 || static_cast<uint64_t>(v) >
                           static_cast<uint64_t>(std::numeric_limits<T>::max()))
            return parser.emitError(parser.getCurrentLocation(),
                                    "value out of range");
          out.push_back(static_cast<T>(v));
          return success();
        });
  }

  /// A list of fields: N, size(D), stride(D), each with optional *S and /N.
  template <typename T>
  ParseResult
  fields(std::vector<T> &out,
         std::vector<std::optional<::tile::tma::RuntimeField>> &rt) {
    ParseResult result = parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          StringRef kind;
          SMLoc loc = parser.getCurrentLocation();
          if (failed(parser.parseOptionalKeyword(&kind, {"size", "stride"}))) {
            int64_t v;
            if (parser.parseInteger(v))
              return failure();
            if (v < 0 ||
                static_cast<uint64_t>(v) >
                    static_cast<uint64_t>(std::numeric_limits<T>::max()))
              return parser.emitError(loc, "value out of range");
            out.push_back(static_cast<T>(v));
            rt.push_back(std::nullopt);
            return success();
          }
          ::tile::tma::RuntimeField f;
          if (parseDimValue(parser, kind, loc, f.value))
            return failure();
          if (succeeded(parser.parseOptionalStar()) &&
              parser.parseInteger(f.scale))
            return failure();
          if (succeeded(parser.parseOptionalSlash()) &&
              parser.parseInteger(f.divisor))
            return failure();
          if (f.scale < 1 || f.divisor < 1)
            return parser.emitError(loc, "scale and divisor must be positive");
          out.push_back(0);
          rt.push_back(f);
          return success();
        });
    if (failed(result))
      return failure();
    if (llvm::none_of(rt, [](const auto &f) { return f.has_value(); }))
      rt.clear();
    return success();
  }

  /// Offsets and coordinates are bounded by 2^52 (the op verifiers' range),
  /// so sums of terms stay far from int64 overflow.
  static constexpr int64_t kMaxMagnitude = int64_t(1) << 52;

  /// One term: N, sK or N*sK.
  ParseResult term(SymExpr &out) {
    int64_t coeff = 1;
    SMLoc numberLoc = parser.getCurrentLocation();
    OptionalParseResult number = parser.parseOptionalInteger(coeff);
    if (number.has_value()) {
      if (failed(*number))
        return failure();
      if (coeff < -kMaxMagnitude || coeff > kMaxMagnitude)
        return parser.emitError(numberLoc,
                                "value out of range (|value| <= 2^52)");
      if (failed(parser.parseOptionalStar())) {
        out = SymExpr(coeff);
        return success();
      }
    }
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    unsigned id;
    if (parser.parseKeyword(&name))
      return failure();
    if (!name.consume_front("s") || name.getAsInteger(10, id) || id > 64)
      return parser.emitError(loc, "expected a symbol s0..s64");
    out = SymExpr::symbol(id, coeff);
    return success();
  }

  ParseResult sym(SymExpr &out) {
    out = SymExpr(0);
    bool negate = succeeded(parser.parseOptionalMinus());
    while (true) {
      SymExpr t;
      if (term(t))
        return failure();
      out = negate ? out - t : out + t;
      bool inRange =
          out.constant >= -kMaxMagnitude && out.constant <= kMaxMagnitude;
      for (const auto &term : out.terms)
        inRange = inRange && term.second >= -kMaxMagnitude &&
                  term.second <= kMaxMagnitude;
      if (!inRange)
        return parser.emitError(parser.getCurrentLocation(),
                                "value out of range (|value| <= 2^52)");
      if (succeeded(parser.parseOptionalPlus()))
        negate = false;
      else if (succeeded(parser.parseOptionalMinus()))
        negate = true;
      else
        return success();
    }
  }

  ParseResult quoted(std::string &out) { return parser.parseString(&out); }

  ParseResult issue(TmaIssue &out) {
    if (parser.parseLBrace() || parser.parseKeyword("smem") ||
        parser.parseEqual() || sym(out.smemByteOffset) || key("coords"))
      return failure();
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       [&]() -> ParseResult {
                                         out.coords.emplace_back();
                                         return sym(out.coords.back());
                                       }))
      return failure();
    return parser.parseRBrace();
  }

  AsmParser &parser;
};

inline std::optional<TensorDataType> parseDataType(StringRef name) {
  for (int v = 0; v <= static_cast<int>(TensorDataType::BF16); ++v)
    if (name == ::tile::tma::toString(static_cast<TensorDataType>(v)))
      return static_cast<TensorDataType>(v);
  return std::nullopt;
}

} // namespace mlir::tile::plan_syntax

#endif // TILE_LIB_DIALECT_TILE_IR_PLANSYNTAX_H
