//===- TmaPlanAttr.cpp - #tile.tma_plan syntax and hashing ----------------===//
//
// #tile.tma_plan<"f16", dim = [256, 8], strides = [512], box = [64, 8],
//                element_strides = [1, 1], swizzle = "128B", interleave = 0,
//                l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2,
//                promoted = false, issues = [{smem = 0, coords = [s0, 0]}],
//                bytes = 1024>
//
// A map for a buffer with run-time sizes or strides writes those fields as
// `size(D)`, `stride(D)*S` or `size(D)/N` (memref dimension D) and its
// run-time offset as `offset_scale = B` after `promoted`. Guards are not
// stored: they follow from the plan and the copy (tile::tma::deriveGuards).
//
// Offsets and coordinates are affine in the copy's symbols: terms `N`, `sK`
// and `N*sK` joined by `+` and `-`.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::tma::SymExpr;
using ::tile::tma::TensorDataType;
using ::tile::tma::TensorMapDesc;
using ::tile::tma::TmaIssue;
using ::tile::tma::TmaPlan;

namespace tile::tma {
llvm::hash_code hash_value(const TmaPlan &plan) {
  std::string key;
  llvm::raw_string_ostream os(key);
  mlir::tile::writeTmaPlanKey(os, plan);
  return llvm::hash_value(key);
}
} // namespace tile::tma

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

template <typename T>
static void printList(AsmPrinter &printer, const std::vector<T> &values) {
  printer << '[';
  llvm::interleaveComma(values, printer,
                        [&](T v) { printer << static_cast<int64_t>(v); });
  printer << ']';
}

/// A list of tensor-map fields, run-time ones as size(D)*S/N.
template <typename T>
static void
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

static void printSym(AsmPrinter &printer, const SymExpr &e) {
  // SymExpr::str() writes "N", "sK", "N*sK" joined by " + " and " - ".
  printer << e.str();
}

void TmaPlanAttr::print(AsmPrinter &printer) const {
  const TmaPlan &plan = getPlan();
  const TensorMapDesc &m = plan.map;
  printer << "<\"" << ::tile::tma::toString(m.dataType) << "\", dim = ";
  printFields(printer, m.globalDim, m.runtimeGlobalDim);
  printer << ", strides = ";
  printFields(printer, m.globalStridesBytes, m.runtimeGlobalStrides);
  printer << ", box = ";
  printList(printer, m.boxDim);
  printer << ", element_strides = ";
  printList(printer, m.elementStrides);
  printer << ", swizzle = \"" << ::tile::toString(m.swizzle)
          << "\", interleave = " << m.interleave
          << ", l2_promotion = " << m.l2Promotion << ", oob = \""
          << stringifyOobMode(m.oobFill ? OobMode::NaN : OobMode::Zero)
          << "\", base = ";
  printSym(printer, m.baseOffsetBytes);
  printer << ", element_bytes = " << m.elementBytes
          << ", promoted = " << (m.promoted ? "true" : "false");
  if (m.runtimeOffsetScale != 0)
    printer << ", offset_scale = " << m.runtimeOffsetScale;
  printer << ", issues = [";
  llvm::interleaveComma(plan.issues, printer, [&](const TmaIssue &issue) {
    printer << "{smem = ";
    printSym(printer, issue.smemByteOffset);
    printer << ", coords = [";
    llvm::interleaveComma(issue.coords, printer,
                          [&](const SymExpr &c) { printSym(printer, c); });
    printer << "]}";
  });
  printer << "], bytes = " << plan.bytes << '>';
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
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
          int64_t dim;
          if (parser.parseLParen() || parser.parseInteger(dim) ||
              parser.parseRParen())
            return failure();
          if (dim < 0 || dim > 64)
            return parser.emitError(loc, "memref dimension out of range");
          f.value = kind == "size" ? ::tile::tma::RuntimeValue::size(dim)
                                   : ::tile::tma::RuntimeValue::stride(dim);
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
} // namespace

static std::optional<TensorDataType> parseDataType(StringRef name) {
  for (int v = 0; v <= static_cast<int>(TensorDataType::BF16); ++v)
    if (name == ::tile::tma::toString(static_cast<TensorDataType>(v)))
      return static_cast<TensorDataType>(v);
  return std::nullopt;
}

Attribute TmaPlanAttr::parse(AsmParser &parser, Type) {
  PlanParser p(parser);
  TmaPlan plan;
  TensorMapDesc &m = plan.map;
  std::string dataType, swizzle, oob;
  int64_t interleave, l2, elementBytes, bytes;
  bool promoted = false;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || p.quoted(dataType) || p.key("dim") ||
      p.fields(m.globalDim, m.runtimeGlobalDim) || p.key("strides") ||
      p.fields(m.globalStridesBytes, m.runtimeGlobalStrides) || p.key("box") ||
      p.list(m.boxDim) || p.key("element_strides") ||
      p.list(m.elementStrides) || p.key("swizzle") || p.quoted(swizzle) ||
      p.key("interleave") || parser.parseInteger(interleave) ||
      p.key("l2_promotion") || parser.parseInteger(l2) || p.key("oob") ||
      p.quoted(oob) || p.key("base") || p.sym(m.baseOffsetBytes) ||
      p.key("element_bytes") || parser.parseInteger(elementBytes) ||
      p.key("promoted"))
    return {};
  if (succeeded(parser.parseOptionalKeyword("true")))
    promoted = true;
  else if (parser.parseKeyword("false"))
    return {};
  if (parser.parseComma())
    return {};
  if (succeeded(parser.parseOptionalKeyword("offset_scale")) &&
      (parser.parseEqual() || parser.parseInteger(m.runtimeOffsetScale) ||
       parser.parseComma()))
    return {};
  if (parser.parseKeyword("issues") || parser.parseEqual())
    return {};
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       plan.issues.emplace_back();
                                       return p.issue(plan.issues.back());
                                     }) ||
      p.key("bytes") || parser.parseInteger(bytes) || parser.parseGreater())
    return {};
  std::optional<TensorDataType> type = parseDataType(dataType);
  std::optional<::tile::Swizzle> swz = ::tile::parseSwizzle(swizzle);
  if (!type)
    return parser.emitError(loc, "unknown tensor-map data type '")
               << dataType << "'",
           Attribute();
  if (!swz)
    return parser.emitError(loc, "unknown swizzle '") << swizzle << "'",
           Attribute();
  std::optional<OobMode> oobMode = symbolizeOobMode(oob);
  if (!oobMode)
    return parser.emitError(loc, "oob is \"zero\" or \"nan\", not '")
               << oob << "'",
           Attribute();
  m.dataType = *type;
  m.rank = static_cast<unsigned>(m.globalDim.size());
  m.swizzle = *swz;
  m.interleave = static_cast<int>(interleave);
  m.l2Promotion = static_cast<int>(l2);
  m.oobFill = *oobMode == OobMode::NaN ? 1 : 0;
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 &&
      elementBytes != 8 && elementBytes != 16)
    return parser.emitError(loc, "element_bytes is 1, 2, 4, 8 or 16, not ")
               << elementBytes,
           Attribute();
  m.elementBytes = elementBytes;
  m.promoted = promoted;
  plan.bytes = bytes;
  return TmaPlanAttr::get(parser.getContext(), plan);
}
