//===- CopyRequest.cpp - tile.copy_async to planner requests --------------===//

#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/TMA/Limits.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
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
  CopyFields fields;
  // tile.copy's verifier leaves one global and one shared side for the
  // callers of this overload (the collective TMA variant checks first).
  fields.load =
      getMemorySpaceKind(op.getDst().getType()) == MemorySpaceKind::Shared;
  fields.global = fields.load ? op.getSrc() : op.getDst();
  fields.shared = fields.load ? op.getDst() : op.getSrc();
  fields.dstOffsets = op.getMixedDstOffsets();
  fields.srcOffsets = op.getMixedSrcOffsets();
  fields.dstSizes = op.getDstSizes();
  fields.srcSizes = op.getSrcSizes();
  return buildRequest(fields, reason, divisors);
}

namespace {
/// Writes a stable key as 64-bit words: every list is preceded by its
/// length, so no two different records give the same words. A word is the
/// field itself, never its printed form (printing every number made the
/// fingerprint cost more than the plan checks it saves).
struct KeyWriter {
  SmallVector<uint64_t, 128> &words;
  void word(int64_t v) { words.push_back(static_cast<uint64_t>(v)); }
  template <typename T>
  void list(const std::vector<T> &values) {
    word(values.size());
    for (const T &v : values)
      word(v);
  }
  void sym(const ::tile::tma::SymExpr &e) {
    word(e.constant);
    word(e.terms.size());
    for (const auto &[id, coeff] : e.terms) {
      word(id);
      word(coeff);
    }
  }
  void syms(const std::vector<::tile::tma::SymExpr> &values) {
    word(values.size());
    for (const ::tile::tma::SymExpr &e : values)
      sym(e);
  }
  void layout(const ::tile::Layout &l) {
    word(l.shards().size());
    for (const ::tile::Shard &s : l.shards()) {
      word(s.extent);
      word(s.stride);
    }
    word(static_cast<int>(l.swizzle()));
    word(l.elementOffset());
  }
  void optionals(const std::vector<std::optional<int64_t>> &values) {
    word(values.size());
    for (const std::optional<int64_t> &v : values) {
      word(v.has_value());
      word(v.value_or(0));
    }
  }
  void
  fields(const std::vector<std::optional<::tile::tma::RuntimeField>> &values) {
    word(values.size());
    for (const auto &f : values) {
      word(f.has_value());
      if (!f)
        continue;
      word(static_cast<int>(f->value.kind));
      word(f->value.dim);
      word(f->scale);
      word(f->divisor);
    }
  }
  void plan(const ::tile::tma::TmaPlan &plan) {
    const ::tile::tma::TensorMapDesc &m = plan.map;
    word(static_cast<int>(m.dataType));
    word(m.rank);
    list(m.globalDim);
    list(m.globalStridesBytes);
    list(m.boxDim);
    list(m.elementStrides);
    word(m.interleave);
    word(static_cast<int>(m.swizzle));
    word(m.l2Promotion);
    word(m.oobFill);
    sym(m.baseOffsetBytes);
    word(m.promoted);
    word(m.elementBytes);
    word(plan.bytes);
    word(plan.issues.size());
    for (const ::tile::tma::TmaIssue &issue : plan.issues) {
      sym(issue.smemByteOffset);
      syms(issue.coords);
    }
    fields(m.runtimeGlobalDim);
    fields(m.runtimeGlobalStrides);
    word(m.runtimeOffsetScale);
  }
};
} // namespace

uint64_t mlir::tile::getPlanInputFingerprint(const ::tile::tma::CopyRequest &r,
                                             const ::tile::tma::TmaPlan &plan) {
  SmallVector<uint64_t, 128> words;
  KeyWriter w{words};
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
    w.optionals({r.symbolicGlobal->offset});
  }
  w.word(r.sharedBaseAlignment);
  w.word(static_cast<int>(r.oobFill));
  w.word(static_cast<int>(r.reduce));
  w.syms(r.gatherRows);
  w.plan(plan);
  // Little-endian words on every host this runs on; the bytes are hashed as
  // they lie.
  return llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(words.data()),
                              words.size() * sizeof(uint64_t)));
}
