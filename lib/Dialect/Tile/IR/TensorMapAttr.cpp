//===- TensorMapAttr.cpp - The typed tensor-map record -------------------===//
//
// The record a kernel keeps per tensor-map argument (`tile.tensor_maps`) and
// the two sub-attributes it alone uses:
//
// #tile.im2col_map<"f16", rank = 4, lower_corner = [-1, -1],
//                  upper_corner = [-1, -1], channels_per_pixel = 64,
//                  pixels_per_column = 128, element_strides = [1, 1, 1, 1],
//                  swizzle = "128B", l2_promotion = 2, oob = "zero",
//                  element_bytes = 2>
// #tile.guard<multiple_of, rule = "global-align", constant = 0,
//             terms = [address, offset*2], modulus = 16>
// #tile.guard<in_range, rule = "global-dim", constant = 0,
//             terms = [size(1)], lo = 1, hi = 4294967296>
//
// A guard's terms are `size(D)`, `stride(D)`, `offset` or `address` of the
// map's global buffer, each with an optional `*C`.
//
//===----------------------------------------------------------------------===//

#include "PlanSyntax.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Limits.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::plan_syntax;
using ::tile::tma::Guard;
using ::tile::tma::Im2colMapDesc;
using ::tile::tma::RuntimeValue;
using ::tile::tma::TensorMapDesc;

/// `[a, b, ...]` of signed integers that fit T.
template <typename T>
static ParseResult parseSignedList(AsmParser &parser, std::vector<T> &out) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t v;
        SMLoc loc = parser.getCurrentLocation();
        if (parser.parseInteger(v))
          return failure();
        if (v < std::numeric_limits<T>::min() ||
            v > std::numeric_limits<T>::max())
          return parser.emitError(loc, "value out of range");
        out.push_back(static_cast<T>(v));
        return success();
      });
}

/// `, name = <integer>`.
static ParseResult parseIntegerKey(AsmParser &parser, StringRef name,
                                   int64_t &value) {
  return failure(parser.parseComma() || parser.parseKeyword(name) ||
                 parser.parseEqual() || parser.parseInteger(value));
}

//===----------------------------------------------------------------------===//
// #tile.im2col_map
//===----------------------------------------------------------------------===//

void Im2colMapAttr::print(AsmPrinter &printer) const {
  const Im2colMapDesc &m = getDesc();
  printer << "<\"" << ::tile::tma::toString(m.dataType) << "\"";
  if (!m.globalDim.empty()) {
    printer << ", dim = ";
    printList(printer, m.globalDim);
    printer << ", strides = ";
    printList(printer, m.globalStridesBytes);
  }
  printer << ", rank = " << m.rank << ", lower_corner = ";
  printList(printer, m.lowerCorner);
  printer << ", upper_corner = ";
  printList(printer, m.upperCorner);
  printer << ", channels_per_pixel = " << m.channelsPerPixel
          << ", pixels_per_column = " << m.pixelsPerColumn
          << ", element_strides = ";
  printList(printer, m.elementStrides);
  printer << ", swizzle = \"" << ::tile::toString(m.swizzle)
          << "\", l2_promotion = " << m.l2Promotion << ", oob = \""
          << stringifyOobMode(m.oobFill ? OobMode::NaN : OobMode::Zero)
          << "\", element_bytes = " << m.elementBytes << '>';
}

Attribute Im2colMapAttr::parse(AsmParser &parser, Type) {
  PlanParser p(parser);
  Im2colMapDesc m;
  std::string dataType, swizzle, oob;
  int64_t rank, channels, pixels, l2, elementBytes;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || p.quoted(dataType) || parser.parseComma())
    return {};
  if (succeeded(parser.parseOptionalKeyword("dim")) &&
      (parser.parseEqual() || p.list(m.globalDim) || p.key("strides") ||
       p.list(m.globalStridesBytes) || parser.parseComma()))
    return {};
  if (parser.parseKeyword("rank") || parser.parseEqual() ||
      parser.parseInteger(rank) || p.key("lower_corner") ||
      parseSignedList(parser, m.lowerCorner) || p.key("upper_corner") ||
      parseSignedList(parser, m.upperCorner) ||
      parseIntegerKey(parser, "channels_per_pixel", channels) ||
      parseIntegerKey(parser, "pixels_per_column", pixels) ||
      p.key("element_strides") || p.list(m.elementStrides) ||
      p.key("swizzle") || p.quoted(swizzle) ||
      parseIntegerKey(parser, "l2_promotion", l2) || p.key("oob") ||
      p.quoted(oob) || parseIntegerKey(parser, "element_bytes", elementBytes) ||
      parser.parseGreater())
    return {};
  std::optional<::tile::tma::TensorDataType> type = parseDataType(dataType);
  std::optional<::tile::Swizzle> swz = ::tile::parseSwizzle(swizzle);
  std::optional<OobMode> oobMode = symbolizeOobMode(oob);
  if (!type || !swz || !oobMode) {
    parser.emitError(loc, "unknown ")
        << (!type  ? "tensor-map data type '" + dataType
            : !swz ? "swizzle '" + swizzle
                   : "oob mode '" + oob)
        << "'";
    return {};
  }
  using ::tile::tma::limits::kMaxIm2colChannels;
  using ::tile::tma::limits::kMaxIm2colPixels;
  if (rank < 3 || rank > ::tile::tma::limits::kMaxRank || channels < 1 ||
      channels > kMaxIm2colChannels || pixels < 1 ||
      pixels > kMaxIm2colPixels) {
    withRule(parser.emitError(loc), RuleId::Im2colRank)
        << "im2col-rank: an im2col map has rank 3 to "
        << ::tile::tma::limits::kMaxRank << ", 1 to " << kMaxIm2colChannels
        << " channels and 1 to " << kMaxIm2colPixels << " pixels (it has rank "
        << rank << ", " << channels << " channels, " << pixels << " pixels)";
    return {};
  }
  if (!m.globalDim.empty() &&
      (m.globalDim.size() != static_cast<size_t>(rank) ||
       m.globalStridesBytes.size() + 1 != m.globalDim.size())) {
    withRule(parser.emitError(loc), RuleId::TensorMap)
        << "tensor-map: an im2col map's `dim` lists rank " << rank
        << " sizes and `strides` rank - 1 byte strides (it lists "
        << m.globalDim.size() << " and " << m.globalStridesBytes.size() << ")";
    return {};
  }
  m.dataType = *type;
  m.rank = static_cast<unsigned>(rank);
  m.channelsPerPixel = static_cast<uint32_t>(channels);
  m.pixelsPerColumn = static_cast<uint32_t>(pixels);
  m.swizzle = *swz;
  m.l2Promotion = static_cast<int>(l2);
  m.oobFill = *oobMode == OobMode::NaN ? 1 : 0;
  m.elementBytes = elementBytes;
  return Im2colMapAttr::get(parser.getContext(), m);
}

FailureOr<Im2colMapAttr> mlir::tile::parseIm2colMapField(AsmParser &parser) {
  Attribute attr;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(attr))
    return failure();
  auto map = dyn_cast<Im2colMapAttr>(attr);
  if (!map)
    return parser.emitError(loc, "expected a #tile.im2col_map, got ") << attr;
  return map;
}

//===----------------------------------------------------------------------===//
// #tile.guard
//===----------------------------------------------------------------------===//

void GuardAttr::print(AsmPrinter &printer) const {
  const Guard &g = getGuard();
  bool multiple = g.kind == Guard::Kind::MultipleOf;
  printer << '<' << (multiple ? "multiple_of" : "in_range") << ", rule = \""
          << ::tile::ruleIdName(g.rule) << "\", constant = " << g.constant
          << ", terms = [";
  llvm::interleaveComma(g.terms, printer, [&](const auto &term) {
    const auto &[value, coeff] = term;
    printer << value.kindName();
    if (value.kind == RuntimeValue::Kind::Size ||
        value.kind == RuntimeValue::Kind::Stride)
      printer << '(' << value.dim << ')';
    if (coeff != 1)
      printer << '*' << coeff;
  });
  printer << ']';
  if (multiple)
    printer << ", modulus = " << g.modulus;
  else
    printer << ", lo = " << g.lo << ", hi = " << g.hi;
  printer << '>';
}

/// One term: size(D), stride(D), offset or address, then an optional *C.
static ParseResult parseGuardTerm(AsmParser &parser,
                                  std::pair<RuntimeValue, int64_t> &term) {
  StringRef kind;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kind))
    return failure();
  if (kind == "size" || kind == "stride") {
    if (parseDimValue(parser, kind, loc, term.first))
      return failure();
  } else if (kind == "offset") {
    term.first = RuntimeValue::offset();
  } else if (kind == "address") {
    term.first = RuntimeValue::address();
  } else {
    return parser.emitError(loc, "a guard term is size(D), stride(D), offset "
                                 "or address, not '")
           << kind << "'";
  }
  term.second = 1;
  if (succeeded(parser.parseOptionalStar()) && parser.parseInteger(term.second))
    return failure();
  return success();
}

Attribute GuardAttr::parse(AsmParser &parser, Type) {
  Guard g;
  StringRef kind;
  std::string rule;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&kind))
    return {};
  if (kind != "multiple_of" && kind != "in_range") {
    parser.emitError(loc, "a guard is multiple_of or in_range, not '")
        << kind << "'";
    return {};
  }
  g.kind =
      kind == "multiple_of" ? Guard::Kind::MultipleOf : Guard::Kind::InRange;
  SMLoc ruleLoc;
  if (parser.parseComma() || parser.parseKeyword("rule") ||
      parser.parseEqual() ||
      (ruleLoc = parser.getCurrentLocation(), parser.parseString(&rule)) ||
      parseIntegerKey(parser, "constant", g.constant) || parser.parseComma() ||
      parser.parseKeyword("terms") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            g.terms.emplace_back();
            return parseGuardTerm(parser, g.terms.back());
          }))
    return {};
  const auto &rules = ::tile::allRules();
  auto it = llvm::find_if(
      rules, [&](const ::tile::RuleInfo &r) { return r.id == rule; });
  if (it == rules.end()) {
    parser.emitError(ruleLoc, "'")
        << rule << "' is not a rule id (docs/rules.md)";
    return {};
  }
  g.rule = it->rule;
  if (g.kind == Guard::Kind::MultipleOf) {
    if (parseIntegerKey(parser, "modulus", g.modulus))
      return {};
    if (g.modulus < 1) {
      parser.emitError(loc, "a multiple_of guard's modulus is positive, not ")
          << g.modulus;
      return {};
    }
  } else {
    if (parseIntegerKey(parser, "lo", g.lo) ||
        parseIntegerKey(parser, "hi", g.hi))
      return {};
    if (g.lo > g.hi) {
      parser.emitError(loc, "an in_range guard needs lo <= hi (")
          << g.lo << " > " << g.hi << ")";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return GuardAttr::get(parser.getContext(), g);
}

//===----------------------------------------------------------------------===//
// #tile.tensor_map
//===----------------------------------------------------------------------===//

/// The run-time fields of one list name dimensions below 64 and have a
/// positive scale and divisor (the parser ensures it; a builder may not).
static bool
validFields(const std::vector<std::optional<::tile::tma::RuntimeField>> &fields,
            size_t expected) {
  if (!fields.empty() && fields.size() != expected)
    return false;
  return llvm::all_of(fields, [](const auto &f) {
    return !f || (f->scale >= 1 && f->divisor >= 1 && f->value.dim < 64);
  });
}

static LogicalResult
verifyTiledMap(function_ref<InFlightDiagnostic()> emitError,
               const TensorMapDesc &m) {
  size_t rank = m.globalDim.size();
  if (rank < 1 || rank > static_cast<size_t>(::tile::tma::limits::kMaxRank) ||
      m.rank != rank || m.globalStridesBytes.size() != rank - 1 ||
      m.boxDim.size() != rank || m.elementStrides.size() != rank)
    return emitRuleError(emitError, RuleId::TensorMap)
           << "a tiled map of rank 1 to " << ::tile::tma::limits::kMaxRank
           << " lists rank dims, boxes "
           << "and element strides and rank - 1 strides (it lists " << rank
           << " dims, " << m.globalStridesBytes.size() << " strides, "
           << m.boxDim.size() << " boxes, " << m.elementStrides.size()
           << " element strides)";
  if (!m.baseOffsetBytes.isConstant())
    return emitRuleError(emitError, RuleId::TensorMap)
           << "a tiled map's base offset is a "
              "compile-time constant, not "
           << m.baseOffsetBytes.str();
  if (!validFields(m.runtimeGlobalDim, rank) ||
      !validFields(m.runtimeGlobalStrides, rank - 1))
    return emitRuleError(emitError, RuleId::TensorMap)
           << "a run-time field list has one entry "
              "per field, each with a positive scale and divisor";
  return success();
}

static LogicalResult
verifyIm2colMap(function_ref<InFlightDiagnostic()> emitError,
                const Im2colMapDesc &m) {
  if (m.rank < 3 || m.rank > ::tile::tma::limits::kMaxRank ||
      m.lowerCorner.size() != m.rank - 2 ||
      m.upperCorner.size() != m.rank - 2 || m.elementStrides.size() != m.rank)
    return emitRuleError(emitError, RuleId::TensorMap)
           << "an im2col map of rank 3 to " << ::tile::tma::limits::kMaxRank
           << " lists rank - 2 values per corner and rank element "
              "strides (rank "
           << m.rank << ": " << m.lowerCorner.size() << ", "
           << m.upperCorner.size() << " and " << m.elementStrides.size() << ")";
  return success();
}

LogicalResult
TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      TensorMapMode mode, int64_t arg,
                      std::optional<int64_t> param, int64_t globalArg,
                      Attribute map, ArrayAttr guards) {
  if (arg < 0 || globalArg < 0 || (param && *param < 0))
    return emitRuleError(emitError, RuleId::TensorMap)
           << "arg, param and global_arg are argument "
              "indices (>= 0)";
  if (mode == TensorMapMode::Tiled) {
    auto tiled = dyn_cast_or_null<TiledMapAttr>(map);
    if (!tiled)
      return emitRuleError(emitError, RuleId::TensorMap)
             << "a tiled record's map is a "
                "#tile.tiled_map";
    if (failed(verifyTiledMap(emitError, tiled.getDesc())))
      return failure();
  } else {
    auto im2col = dyn_cast_or_null<Im2colMapAttr>(map);
    if (!im2col)
      return emitRuleError(emitError, RuleId::TensorMap)
             << "an im2col record's map is a "
                "#tile.im2col_map";
    if (guards && !guards.empty())
      return emitRuleError(emitError, RuleId::TensorMap)
             << "an im2col map has no guards (the "
                "runtime's encode checks its buffer)";
    if (failed(verifyIm2colMap(emitError, im2col.getDesc())))
      return failure();
  }
  if (guards && !llvm::all_of(guards, llvm::IsaPred<GuardAttr>))
    return emitRuleError(emitError, RuleId::TensorMap)
           << "guards are #tile.guard attributes";
  return success();
}

TensorMapAttr TensorMapAttr::getEncodeKey() const {
  return TensorMapAttr::get(getContext(), getMode(), /*arg=*/0,
                            /*param=*/std::nullopt, getGlobalArg(), getMap(),
                            getGuards());
}
