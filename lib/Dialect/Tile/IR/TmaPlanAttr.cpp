//===- TmaPlanAttr.cpp - #tile.tma_plan syntax and hashing ----------------===//
//
// #tile.tma_plan<"f16", dim = [256, 8], strides = [512], box = [64, 8],
//                element_strides = [1, 1], swizzle = "128B", interleave = 0,
//                l2_promotion = 2, oob = "zero", base = 0, element_bytes = 2,
//                promoted = false, issues = [{smem = 0, coords = [s0, 0]}],
//                bytes = 1024>
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

static void printSym(AsmPrinter &printer, const SymExpr &e) {
  // SymExpr::str() writes "N", "sK", "N*sK" joined by " + " and " - ".
  printer << e.str();
}

void TmaPlanAttr::print(AsmPrinter &printer) const {
  const TmaPlan &plan = getPlan();
  const TensorMapDesc &m = plan.map;
  printer << "<\"" << ::tile::tma::toString(m.dataType) << "\", dim = ";
  printList(printer, m.globalDim);
  printer << ", strides = ";
  printList(printer, m.globalStridesBytes);
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
          << ", promoted = " << (m.promoted ? "true" : "false")
          << ", issues = [";
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

  /// One term: N, sK or N*sK.
  ParseResult term(SymExpr &out) {
    int64_t coeff = 1;
    OptionalParseResult number = parser.parseOptionalInteger(coeff);
    if (number.has_value()) {
      if (failed(*number))
        return failure();
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
      p.list(m.globalDim) || p.key("strides") || p.list(m.globalStridesBytes) ||
      p.key("box") || p.list(m.boxDim) || p.key("element_strides") ||
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
  if (p.key("issues") ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
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
  m.elementBytes = elementBytes;
  m.promoted = promoted;
  plan.bytes = bytes;
  return TmaPlanAttr::get(parser.getContext(), plan);
}
