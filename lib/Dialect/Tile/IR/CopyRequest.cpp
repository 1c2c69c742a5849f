//===- CopyRequest.cpp - tile.copy_async to planner requests --------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "PlanWords.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/TMA/Limits.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>

using namespace mlir;
using namespace mlir::tile;
using ::tile::tma::SymExpr;

static int64_t lowBit(int64_t v) { return v == 0 ? 0 : (v & -v); }

int64_t mlir::tile::getSharedBaseAlignment(Value buffer) {
  // A loop, not a recursion: a chain of stages of stages is walked once.
  int64_t alignment = std::numeric_limits<int64_t>::max();
  while (auto stage = buffer.getDefiningOp<StageOp>()) {
    if (int64_t stride = lowBit(stage.getStageStrideBytes()))
      alignment = std::min(alignment, stride);
    buffer = stage.getSource();
  }
  auto arena = buffer.getDefiningOp<ArenaViewOp>();
  return std::min(alignment, arena ? arena.getBaseAlignment()
                                   : ::tile::tma::limits::kArenaAlignmentBytes);
}

namespace {
/// Assigns symbol ids to dynamic offsets (one id per distinct value).
struct OffsetSymbols {
  DivisorAnalysis *analysis;
  SmallVector<Value> values;
  std::vector<int64_t> divisors;

  SymExpr get(OpFoldResult ofr) {
    if (auto attr = dyn_cast<Attribute>(ofr))
      return SymExpr(cast<IntegerAttr>(attr).getInt());
    Value v = cast<Value>(ofr);
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return SymExpr(constant.getSExtValue());
    for (auto [i, existing] : llvm::enumerate(values))
      if (existing == v)
        return SymExpr::symbol(i);
    values.push_back(v);
    divisors.push_back(analysis ? analysis->getKnownDivisor(v) : 1);
    return SymExpr::symbol(values.size() - 1);
  }
};
} // namespace

static std::vector<int64_t> toVector(ArrayRef<int64_t> values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

namespace {
/// What a planner request reads from a copy op, whichever op it is.
struct CopyFields {
  bool load;
  Value global, shared;
  SmallVector<OpFoldResult> dstOffsets, srcOffsets;
  ArrayRef<int64_t> dstSizes, srcSizes;
  ValueRange rows;
  ::tile::tma::OobFill oobFill = ::tile::tma::OobFill::Zero;
  std::optional<ReduceMode> reduce;
};
} // namespace

static FailureOr<CopyRequestInfo> buildRequest(const CopyFields &op,
                                               ::tile::Decline &reason,
                                               DivisorAnalysis *divisors) {
  using namespace ::tile::tma;
  CopyRequestInfo info;
  CopyRequest &req = info.request;
  bool load = op.load;
  req.direction = load ? Direction::GlobalToShared : Direction::SharedToGlobal;

  auto globalType = cast<MemRefType>(op.global.getType());
  auto sharedType = cast<MemRefType>(op.shared.getType());
  std::optional<ElementType> element =
      getTmaElementType(globalType.getElementType());
  if (!element || !dataTypeFor(*element)) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "the tensor memory accelerator cannot carry "
       << globalType.getElementType();
    reason = {::tile::RuleId::ElementType, s};
    return failure();
  }
  req.elementType = *element;

  std::string error;
  // A type with '?' sizes, strides or offset plans symbolically: the host
  // reads those from the memref descriptor and checks the plan's guards.
  std::optional<::tile::tma::SymbolicGlobal> symbolic =
      getSymbolicGlobal(globalType);
  std::optional<::tile::Layout> globalLayout =
      symbolic ? std::optional<::tile::Layout>(::tile::Layout())
               : getShardLayout(globalType, &error);
  if (!globalLayout) {
    reason = {::tile::RuleId::GlobalDim, error};
    return failure();
  }
  req.symbolicGlobal = symbolic;
  std::optional<::tile::Layout> sharedLayout =
      getShardLayout(sharedType, &error);
  if (!sharedLayout) {
    reason = {::tile::RuleId::SmemLayout, error};
    return failure();
  }
  req.globalLayout = *globalLayout;
  req.sharedLayout = *sharedLayout;
  req.globalShape = toVector(globalType.getShape());
  for (int64_t &size : req.globalShape)
    if (ShapedType::isDynamic(size))
      size = kUnknownExtent;
  req.sharedShape = toVector(sharedType.getShape());

  OffsetSymbols symbols{divisors, {}, {}};
  std::vector<SymExpr> dstSym, srcSym;
  for (OpFoldResult ofr : op.dstOffsets)
    dstSym.push_back(symbols.get(ofr));
  for (OpFoldResult ofr : op.srcOffsets)
    srcSym.push_back(symbols.get(ofr));
  req.globalOffsets = load ? srcSym : dstSym;
  req.sharedOffsets = load ? dstSym : srcSym;
  req.globalSizes = toVector(load ? op.srcSizes : op.dstSizes);
  req.sharedSizes = toVector(load ? op.dstSizes : op.srcSizes);
  for (Value row : op.rows)
    req.gatherRows.push_back(symbols.get(row));
  req.symbolDivisors = symbols.divisors;
  info.symbols = symbols.values;
  req.sharedBaseAlignment = getSharedBaseAlignment(op.shared);
  req.oobFill = op.oobFill;
  if (op.reduce)
    req.reduce = toTmaReduceKind(*op.reduce);
  return info;
}

FailureOr<CopyRequestInfo>
mlir::tile::buildCopyRequest(CopyAsyncOp op, ::tile::Decline &reason,
                             DivisorAnalysis *divisors) {
  CopyFields fields;
  fields.load = op.isLoad();
  fields.global = op.getGlobal();
  fields.shared = op.getShared();
  fields.dstOffsets = op.getMixedDstOffsets();
  fields.srcOffsets = op.getMixedSrcOffsets();
  fields.dstSizes = op.getDstSizes();
  fields.srcSizes = op.getSrcSizes();
  fields.rows = op.getRows();
  fields.oobFill = op.getOobKind() == OobMode::NaN ? ::tile::tma::OobFill::NaN
                                                   : ::tile::tma::OobFill::Zero;
  fields.reduce = op.getReduceKind();
  return buildRequest(fields, reason, divisors);
}

FailureOr<CopyRequestInfo>
mlir::tile::buildCopyRequest(CopyOp op, ::tile::Decline &reason,
                             DivisorAnalysis *divisors) {
  // tile.copy's verifier accepts two buffers of one memory space (an
  // element-wise copy); a planner request has a global and a shared side.
  MemorySpaceKind dstSpace = getMemorySpaceKind(op.getDst().getType());
  if (dstSpace == getMemorySpaceKind(op.getSrc().getType())) {
    reason = {::tile::RuleId::Direction,
              std::string("both buffers are in ") + toString(dstSpace) +
                  " memory; the tensor memory accelerator copies between "
                  "global and shared memory"};
    return failure();
  }
  CopyFields fields;
  fields.load = dstSpace == MemorySpaceKind::Shared;
  fields.global = fields.load ? op.getSrc() : op.getDst();
  fields.shared = fields.load ? op.getDst() : op.getSrc();
  fields.dstOffsets = op.getMixedDstOffsets();
  fields.srcOffsets = op.getMixedSrcOffsets();
  fields.dstSizes = op.getDstSizes();
  fields.srcSizes = op.getSrcSizes();
  return buildRequest(fields, reason, divisors);
}

uint64_t mlir::tile::getPlanInputFingerprint(const ::tile::tma::CopyRequest &r,
                                             const ::tile::tma::TmaPlan &plan) {
  detail::PlanWords w;
  w.word(static_cast<int>(r.direction));
  w.word(static_cast<int>(r.elementType.kind));
  w.word(r.elementType.bytes);
  w.layout(r.globalLayout);
  w.list(r.globalShape);
  w.syms(r.globalOffsets);
  w.list(r.globalSizes);
  w.layout(r.sharedLayout);
  w.list(r.sharedShape);
  w.syms(r.sharedOffsets);
  w.list(r.sharedSizes);
  w.word(r.symbolicGlobal.has_value());
  if (r.symbolicGlobal) {
    w.optionals(r.symbolicGlobal->sizes);
    w.optionals(r.symbolicGlobal->strides);
    w.optional(r.symbolicGlobal->offset);
  }
  w.word(r.sharedBaseAlignment);
  w.word(static_cast<int>(r.oobFill));
  w.word(static_cast<int>(r.reduce));
  w.syms(r.gatherRows);
  w.plan(plan);
  return w.hash();
}
