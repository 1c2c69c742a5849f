//===- TmaPlanAttr.cpp - #tile.tma_plan and #tile.tiled_map syntax --------===//
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
// #tile.tiled_map<...> is the same text up to `promoted` (and offset_scale):
// the map alone, as a host encodes it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "PlanSyntax.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::plan_syntax;
using ::tile::tma::TensorMapDesc;
using ::tile::tma::TmaPlan;

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The map's fields from the data type through `promoted` and
/// `offset_scale`, without the brackets.
static void printMapFields(AsmPrinter &printer, const TensorMapDesc &m) {
  printer << "\"" << ::tile::tma::toString(m.dataType) << "\", dim = ";
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
}

void TiledMapAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printMapFields(printer, getDesc());
  printer << '>';
}

void TmaPlanAttr::print(AsmPrinter &printer) const {
  const TmaPlan &plan = getPlan();
  printer << '<';
  printMapFields(printer, plan.map);
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

/// The map's fields as printMapFields writes them. `more` is set when a
/// comma follows them (the caller's next key comes after it).
static ParseResult parseMapFields(AsmParser &parser, TensorMapDesc &m,
                                  bool &more) {
  PlanParser p(parser);
  std::string dataType, swizzle, oob;
  int64_t interleave, l2, elementBytes;
  SMLoc loc = parser.getCurrentLocation();
  if (p.quoted(dataType) || p.key("dim") ||
      p.fields(m.globalDim, m.runtimeGlobalDim) || p.key("strides") ||
      p.fields(m.globalStridesBytes, m.runtimeGlobalStrides) || p.key("box") ||
      p.list(m.boxDim) || p.key("element_strides") ||
      p.list(m.elementStrides) || p.key("swizzle") || p.quoted(swizzle) ||
      p.key("interleave") || parser.parseInteger(interleave) ||
      p.key("l2_promotion") || parser.parseInteger(l2) || p.key("oob") ||
      p.quoted(oob) || p.key("base") || p.sym(m.baseOffsetBytes) ||
      p.key("element_bytes") || parser.parseInteger(elementBytes) ||
      p.key("promoted"))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("true")))
    m.promoted = true;
  else if (parser.parseKeyword("false"))
    return failure();
  more = succeeded(parser.parseOptionalComma());
  if (more && succeeded(parser.parseOptionalKeyword("offset_scale"))) {
    if (parser.parseEqual() || parser.parseInteger(m.runtimeOffsetScale))
      return failure();
    more = succeeded(parser.parseOptionalComma());
  }
  std::optional<TensorDataType> type = parseDataType(dataType);
  std::optional<::tile::Swizzle> swz = ::tile::parseSwizzle(swizzle);
  if (!type)
    return parser.emitError(loc, "unknown tensor-map data type '")
           << dataType << "'";
  if (!swz)
    return parser.emitError(loc, "unknown swizzle '") << swizzle << "'";
  std::optional<OobMode> oobMode = symbolizeOobMode(oob);
  if (!oobMode)
    return parser.emitError(loc, "oob is \"zero\" or \"nan\", not '")
           << oob << "'";
  m.dataType = *type;
  m.rank = static_cast<unsigned>(m.globalDim.size());
  m.swizzle = *swz;
  m.interleave = static_cast<int>(interleave);
  m.l2Promotion = static_cast<int>(l2);
  m.oobFill = *oobMode == OobMode::NaN ? 1 : 0;
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 &&
      elementBytes != 8 && elementBytes != 16)
    return parser.emitError(loc, "element_bytes is 1, 2, 4, 8 or 16, not ")
           << elementBytes;
  m.elementBytes = elementBytes;
  return success();
}

Attribute TiledMapAttr::parse(AsmParser &parser, Type) {
  TensorMapDesc m;
  bool more = false;
  if (parser.parseLess() || parseMapFields(parser, m, more))
    return {};
  if (more) {
    parser.emitError(parser.getCurrentLocation(),
                     "a tiled map ends after `promoted` or `offset_scale`");
    return {};
  }
  if (parser.parseGreater())
    return {};
  return TiledMapAttr::get(parser.getContext(), m);
}

Attribute TmaPlanAttr::parse(AsmParser &parser, Type) {
  PlanParser p(parser);
  TmaPlan plan;
  int64_t bytes;
  bool more = false;
  if (parser.parseLess() || parseMapFields(parser, plan.map, more))
    return {};
  if (!more) {
    parser.emitError(parser.getCurrentLocation(),
                     "expected `, issues = [...]`");
    return {};
  }
  if (parser.parseKeyword("issues") || parser.parseEqual())
    return {};
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       plan.issues.emplace_back();
                                       return p.issue(plan.issues.back());
                                     }) ||
      p.key("bytes") || parser.parseInteger(bytes) || parser.parseGreater())
    return {};
  plan.bytes = bytes;
  return TmaPlanAttr::get(parser.getContext(), plan);
}
