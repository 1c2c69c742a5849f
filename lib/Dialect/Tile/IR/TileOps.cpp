//===- TileOps.cpp - tile dialect operations ------------------------------===//
//
// Verifiers name the rule a copy breaks and the values involved; the rule ids
// match the planner's decline reasons where the same rule applies.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Limits.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;
using ::tile::RuleId;

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Attribute enums
//===----------------------------------------------------------------------===//

::tile::tma::ReduceKind mlir::tile::toTmaReduceKind(ReduceMode mode) {
  using ::tile::tma::ReduceKind;
  switch (mode) {
  case ReduceMode::Add:
    return ReduceKind::Add;
  case ReduceMode::Min:
    return ReduceKind::Min;
  case ReduceMode::Max:
    return ReduceKind::Max;
  case ReduceMode::Inc:
    return ReduceKind::Inc;
  case ReduceMode::Dec:
    return ReduceKind::Dec;
  case ReduceMode::And:
    return ReduceKind::And;
  case ReduceMode::Or:
    return ReduceKind::Or;
  case ReduceMode::Xor:
    return ReduceKind::Xor;
  }
  llvm_unreachable("unknown ReduceMode");
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static std::string shapeStr(ArrayRef<int64_t> values) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(values, os, [&](int64_t v) {
    if (ShapedType::isDynamic(v))
      os << "?";
    else
      os << v;
  });
  os << "]";
  return s;
}

/// Static offsets, sizes and buffer spans are bounded by 2^52 (the layout
/// library's limit), so that every sum and product the verifiers, the planner
/// and the lowerings form from them fits in 64 bits.
static constexpr int64_t kMaxExtent = int64_t(1) << 52;

/// Product of positive values, or nullopt when it exceeds kMaxExtent.
static std::optional<int64_t> boundedProduct(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    if (llvm::MulOverflow(p, v, p) || p > kMaxExtent)
      return std::nullopt;
  return p;
}

static int64_t product(ArrayRef<int64_t> values) {
  return boundedProduct(values).value_or(0);
}

namespace {
/// One side of a copy: a buffer and a region of it.
struct RegionRef {
  StringRef name; // "destination" or "source"
  MemRefType type;
  ArrayRef<int64_t> staticOffsets;
  ArrayRef<int64_t> sizes;
  /// Number of SSA offset operands of this region.
  size_t numDynamicOffsets;
};
} // namespace

/// Rank and size checks common to every region.
static LogicalResult verifyRegionShape(Operation *op, const RegionRef &r) {
  int64_t rank = r.type.getRank();
  if (static_cast<int64_t>(r.staticOffsets.size()) != rank)
    return emitRuleError(op, RuleId::Rank)
           << r.name << " region has " << r.staticOffsets.size()
           << " offsets but the buffer has rank " << rank;
  if (static_cast<int64_t>(r.sizes.size()) != rank)
    return emitRuleError(op, RuleId::Rank)
           << r.name << " region has " << r.sizes.size()
           << " sizes but the buffer has rank " << rank;
  for (auto [i, size] : llvm::enumerate(r.sizes)) {
    if (size <= 0)
      return emitRuleError(op, RuleId::RegionSize)
             << r.name << " region size " << size << " in dimension " << i
             << " is not positive";
    if (size > kMaxExtent)
      return emitRuleError(op, RuleId::RegionSize)
             << r.name << " region size " << size << " in dimension " << i
             << " exceeds 2^52";
  }
  if (!boundedProduct(r.sizes))
    return emitRuleError(op, RuleId::RegionSize)
           << r.name << " region " << shapeStr(r.sizes)
           << " has more than 2^52 elements";
  // A literal equal to the dynamic marker would be read as a missing operand.
  size_t markers = llvm::count_if(r.staticOffsets, ShapedType::isDynamic);
  if (markers != r.numDynamicOffsets)
    return emitRuleError(op, RuleId::OffsetRange)
           << r.name << " offsets have " << markers << " dynamic entries but "
           << r.numDynamicOffsets << " offset operands; the literal "
           << ShapedType::kDynamic
           << " is reserved as the dynamic-offset marker";
  for (auto [i, offset] : llvm::enumerate(r.staticOffsets))
    if (!ShapedType::isDynamic(offset) &&
        (offset > kMaxExtent || offset < -kMaxExtent))
      return emitRuleError(op, RuleId::OffsetRange)
             << r.name << " offset " << offset << " in dimension " << i
             << " is outside [-2^52, 2^52]";
  return success();
}

/// Checks that the region lies inside its buffer (static offsets exactly;
/// dynamic offsets only by size). `rule` names the violated rule.
static LogicalResult verifyRegionInside(Operation *op, const RegionRef &r,
                                        ::tile::RuleId rule, StringRef what) {
  ArrayRef<int64_t> shape = r.type.getShape();
  for (int64_t i = 0, e = r.type.getRank(); i < e; ++i) {
    if (ShapedType::isDynamic(shape[i]))
      continue;
    int64_t offset = r.staticOffsets[i];
    bool dynamicOffset = ShapedType::isDynamic(offset);
    int64_t begin = dynamicOffset ? 0 : offset;
    // Offsets and sizes are bounded by 2^52 (verifyRegionShape): no overflow.
    if (begin < 0 || begin + r.sizes[i] > shape[i])
      return op->emitOpError()
             << ::tile::ruleIdName(rule) << ": " << what << " region ["
             << (dynamicOffset ? "?" : std::to_string(begin)) << ", +"
             << r.sizes[i] << ") leaves dimension " << i << " of size "
             << shape[i] << " (buffer " << shapeStr(shape) << ")";
  }
  return success();
}

/// Element types a copy can move: integers and floats whose storage size is
/// a power of two from 1 to 16 bytes, so that the kernel's element pitch and
/// the host's (LLVM's allocation size) agree.
static LogicalResult verifyElementType(Operation *op, MemRefType type,
                                       StringRef what) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return emitRuleError(op, RuleId::ElementType)
           << what << " element type " << element
           << " is not supported; copies carry integer and floating-point "
              "elements of 1, 2, 4, 8 or 16 bytes";
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 128 || !llvm::isPowerOf2_32(bits))
    return emitRuleError(op, RuleId::ElementType)
           << what << " element type " << element << " is " << bits
           << " bits wide; copies carry elements of 8, 16, 32, 64 or 128 "
              "bits (other widths are padded differently on host and device)";
  return success();
}

/// The buffer's addresses must stay below 2^52 elements (`buffer-size`).
static LogicalResult verifyLayoutBounds(Operation *op, MemRefType type,
                                        const ::tile::Layout &layout,
                                        StringRef what) {
  if (std::optional<std::string> error = layout.verify())
    return emitRuleError(op, RuleId::BufferSize)
           << what << " buffer " << type << ": " << *error;
  return success();
}

/// Layout checks for a shared buffer: static shape, a known layout, no
/// overlapping addresses, a swizzle the element size allows.
static LogicalResult verifySharedBuffer(Operation *op, MemRefType type,
                                        StringRef what) {
  if (failed(verifyElementType(op, type, what)))
    return failure();
  if (!type.hasStaticShape())
    return emitRuleError(op, RuleId::SmemLayout)
           << what << " shared buffer " << type << " must have a static shape";
  std::string error;
  std::optional<::tile::Layout> layout = getShardLayout(type, &error);
  if (!layout)
    return emitRuleError(op, RuleId::SmemLayout)
           << what << " shared buffer: " << error;
  if (failed(verifyLayoutBounds(op, type, *layout, what)))
    return failure();
  if (layout->hasOverlap())
    return emitRuleError(op, RuleId::Overlap)
           << "shared buffer layout " << type.getLayout()
           << " maps several elements to the same address";
  std::optional<int64_t> bytes = getElementBytes(type);
  if (!bytes)
    return op->emitOpError()
           << what << " element type " << type.getElementType()
           << " is not a whole number of bytes";
  if (std::optional<std::string> swizzleError = layout->verifySwizzle(*bytes))
    return emitRuleError(op, RuleId::Swizzle) << *swizzleError;
  return success();
}

static LogicalResult verifyGlobalBuffer(Operation *op, MemRefType type,
                                        StringRef what) {
  if (failed(verifyElementType(op, type, what)))
    return failure();
  if (!isa<LayoutAttr>(type.getLayout())) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getMemRefStridesAndOffset(type, strides, offset)))
      return emitRuleError(op, RuleId::Layout)
             << what << " global buffer " << type
             << " must have a strided or #tile.layout layout";
  }
  // Static buffers: their extent must be addressable (dynamic ones are
  // checked at run time by the lowering's bounds tests).
  if (std::optional<::tile::Layout> layout = getShardLayout(type))
    return verifyLayoutBounds(op, type, *layout, what);
  return success();
}

/// Checks shared by tile.copy_async and tile.copy: element types, region
/// ranks and element counts.
static LogicalResult verifyRegionPair(Operation *op, const RegionRef &dst,
                                      const RegionRef &src) {
  if (dst.type.getElementType() != src.type.getElementType())
    return emitRuleError(op, RuleId::ElementType)
           << "element type mismatch: destination has "
           << dst.type.getElementType() << ", source has "
           << src.type.getElementType();
  if (failed(verifyRegionShape(op, dst)) || failed(verifyRegionShape(op, src)))
    return failure();
  int64_t dstCount = product(dst.sizes), srcCount = product(src.sizes);
  if (dstCount != srcCount)
    return emitRuleError(op, RuleId::CountMismatch)
           << "destination region " << shapeStr(dst.sizes) << " has "
           << dstCount << " elements, source region " << shapeStr(src.sizes)
           << " has " << srcCount;
  return success();
}

/// A constant barrier index must name one of the group's barriers.
static LogicalResult verifyBarrierIndex(Operation *op, Value group,
                                        Value index) {
  if (!group)
    return success();
  auto groupType = dyn_cast<nvgpu::MBarrierGroupType>(group.getType());
  // The lowering addresses barriers in shared memory (mbarrier ops take
  // shared-window addresses).
  if (groupType &&
      getMemorySpaceKind(groupType.getMemorySpace()) != MemorySpaceKind::Shared)
    return emitRuleError(op, RuleId::Barrier)
           << "the mbarrier group must live in shared memory "
              "(#gpu.address_space<workgroup>), not "
           << groupType.getMemorySpace();
  APInt constant;
  if (!groupType || !index || !matchPattern(index, m_ConstantInt(&constant)))
    return success();
  int64_t value = constant.getSExtValue();
  int64_t count = groupType.getNumBarriers();
  if (value < 0 || value >= count)
    return emitRuleError(op, RuleId::Barrier)
           << "index " << value << " is outside the group's " << count
           << " barrier(s)";
  return success();
}

static SmallVector<OpFoldResult>
mixedOffsets(MLIRContext *ctx, ArrayRef<int64_t> statics, ValueRange dynamics) {
  return getMixedValues(statics, dynamics, ctx);
}

//===----------------------------------------------------------------------===//
// CopyAsyncOp
//===----------------------------------------------------------------------===//

bool CopyAsyncOp::isLoad() {
  return getMemorySpaceKind(getDst().getType()) == MemorySpaceKind::Shared;
}

SmallVector<OpFoldResult> CopyAsyncOp::getMixedDstOffsets() {
  return mixedOffsets(getContext(), getStaticDstOffsets(), getDstOffsets());
}
SmallVector<OpFoldResult> CopyAsyncOp::getMixedSrcOffsets() {
  return mixedOffsets(getContext(), getStaticSrcOffsets(), getSrcOffsets());
}

int64_t CopyAsyncOp::getTransactionBytes() {
  return product(getDstSizes()) *
         getElementBytes(getDst().getType()).value_or(0);
}

std::optional<OobMode> CopyAsyncOp::getOobKind() {
  std::optional<StringRef> oob = getOob();
  return oob ? symbolizeOobMode(*oob) : OobMode::Zero;
}

std::optional<ReduceMode> CopyAsyncOp::getReduceKind() {
  std::optional<StringRef> reduce = getReduce();
  return reduce ? symbolizeReduceMode(*reduce) : std::nullopt;
}

std::optional<CacheHint> CopyAsyncOp::getCacheHintKind() {
  std::optional<StringRef> hint = getCacheHint();
  return hint ? symbolizeCacheHint(*hint) : std::nullopt;
}

/// Both buffers' memory spaces, and that one is global and the other shared.
static LogicalResult verifyCopyDirection(CopyAsyncOp op, MemRefType dstType,
                                         MemRefType srcType) {
  MemorySpaceKind dstSpace = getMemorySpaceKind(dstType);
  MemorySpaceKind srcSpace = getMemorySpaceKind(srcType);
  for (auto [name, type, space] :
       {std::tuple<StringRef, MemRefType, MemorySpaceKind>{"destination",
                                                           dstType, dstSpace},
        {"source", srcType, srcSpace}})
    if (space == MemorySpaceKind::Other)
      return emitRuleError(op.getOperation(), RuleId::Direction)
             << name << " memory space " << type.getMemorySpace()
             << " is neither global nor shared "
                "(#gpu.address_space<workgroup>)";
  if (dstSpace == srcSpace)
    return emitRuleError(op.getOperation(), RuleId::Direction)
           << "both buffers are in " << toString(dstSpace)
           << " memory; tile.copy_async copies between global "
              "and shared memory";
  return success();
}

/// Loads complete on an mbarrier, stores through bulk groups; only loads
/// multicast.
static LogicalResult verifyCopyCompletion(CopyAsyncOp op, bool load) {
  if (failed(verifyBarrierIndex(op, op.getBarrier(), op.getBarrierIndex())))
    return failure();
  if (op.getPrefetch()) {
    if (!load)
      return emitRuleError(op.getOperation(), RuleId::Prefetch)
             << "only loads (global to shared) "
                "have a prefetch form; this copy is a store";
    if (op.getBarrier())
      return emitRuleError(op.getOperation(), RuleId::Prefetch)
             << "a prefetch completes nothing; it takes no barrier";
    if (op.getMulticastMask())
      return emitRuleError(op.getOperation(), RuleId::Prefetch)
             << "a prefetch fills the L2 cache, "
                "not the cluster's shared memory; it takes "
                "no multicast";
    if (op.getOob())
      return emitRuleError(op.getOperation(), RuleId::Prefetch)
             << "a prefetch writes no shared "
                "memory; it takes no oob fill";
    return success();
  }
  // A pipeline's loads complete on the barrier tile-expand-pipelines gives.
  if (load && !op.getBarrier() && !isPipelineLoadOp(op))
    return emitRuleError(op.getOperation(), RuleId::Barrier)
           << "a load (global to shared) requires "
              "barrier(%group[%i]) to complete on";
  if (!load && op.getBarrier())
    return emitRuleError(op.getOperation(), RuleId::Barrier)
           << "a store (shared to global) takes no "
              "barrier; it completes through "
              "tile.bulk_commit_group / tile.bulk_wait_group";
  if (!load && op.getMulticastMask())
    return emitRuleError(op.getOperation(), RuleId::Multicast)
           << "only loads can multicast to the "
              "cluster; this copy is a store";
  return success();
}

/// An `oob` fill name: known, and NaN only for float elements.
static LogicalResult verifyOobFillName(Operation *op, StringRef oob,
                                       Type elementType) {
  std::optional<OobMode> mode = symbolizeOobMode(oob);
  if (!mode)
    return emitRuleError(op, RuleId::OobMode)
           << "unknown out-of-bounds fill '" << oob
           << "'; expected \"zero\" or \"nan\"";
  std::optional<::tile::tma::ElementType> element =
      getTmaElementType(elementType);
  if (*mode == OobMode::NaN &&
      (!element || !::tile::tma::nanFillSupports(*element)))
    return emitRuleError(op, RuleId::NanFillType)
           << "NaN fill needs f16, bf16, f32 "
              "or f64 elements, not "
           << elementType;
  return success();
}

/// A `cache_hint` name.
static LogicalResult verifyCacheHintName(Operation *op,
                                         std::optional<StringRef> hint) {
  if (hint && !symbolizeCacheHint(*hint))
    return emitRuleError(op, RuleId::CacheHint)
           << "unknown cache policy '" << *hint
           << "'; expected evict_first, evict_last or "
              "evict_normal";
  return success();
}

/// The `oob`, `reduce` and `cache_hint` attributes. They are checked as
/// strings: a present `oob = "zero"` on a store is an error although it is
/// the default fill.
static LogicalResult verifyCopyModifiers(CopyAsyncOp op, bool load,
                                         Type elementType) {
  std::optional<::tile::tma::ElementType> element =
      getTmaElementType(elementType);
  if (std::optional<StringRef> oob = op.getOob()) {
    if (symbolizeOobMode(*oob) && !load)
      return emitRuleError(op.getOperation(), RuleId::OobMode)
             << "out-of-bounds fill applies to "
                "loads only; stores must stay inside the tensor";
    if (failed(verifyOobFillName(op, *oob, elementType)))
      return failure();
  }
  if (std::optional<StringRef> reduce = op.getReduce()) {
    std::optional<ReduceMode> mode = symbolizeReduceMode(*reduce);
    if (!mode)
      return emitRuleError(op.getOperation(), RuleId::Reduce)
             << "unknown reduction '" << *reduce
             << "'; expected add, min, max, inc, dec, and, or "
                "or xor";
    if (load)
      return emitRuleError(op.getOperation(), RuleId::Reduce)
             << "reductions apply to stores (shared to "
                "global) only; this copy is a load";
    ::tile::tma::ReduceKind kind = toTmaReduceKind(*mode);
    if (!element || !::tile::tma::reduceSupports(kind, *element))
      return emitRuleError(op.getOperation(), RuleId::ReduceType)
             << "reduction '" << *reduce << "' does not support element type "
             << elementType
             << " (supported: " << ::tile::tma::reduceTypesDescription(kind)
             << ")";
  }
  return verifyCacheHintName(op, op.getCacheHint());
}

Sm100Form CopyAsyncOp::getSm100Form() {
  if (isRowGather())
    return isLoad() ? Sm100Form::Gather4 : Sm100Form::Scatter4;
  if (getCtaGroup())
    return Sm100Form::CtaGroup;
  return Sm100Form::None;
}

std::string CopyAsyncOp::describeSm100Form() {
  switch (getSm100Form()) {
  case Sm100Form::None:
    return "";
  case Sm100Form::CtaGroup:
    return "cta_group = " + std::to_string(*getCtaGroup());
  case Sm100Form::Gather4:
    return "tile::gather4";
  case Sm100Form::Scatter4:
    return "tile::scatter4";
  }
  llvm_unreachable("an Sm100Form the switch does not name");
}

/// The chip of the first NVVM target of the enclosing gpu.module, or "" when
/// none is attached yet (a plain function, or before the pipeline attaches
/// its target).
std::string mlir::tile::getTargetChip(Operation *op) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  if (!module || !module.getTargetsAttr())
    return "";
  for (Attribute target : module.getTargetsAttr())
    if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
      return nvvm.getChip().str();
  return "";
}

bool mlir::tile::chipHasSm100Forms(StringRef chip) {
  return chip == "sm_100a" || chip == "sm_100f";
}

LogicalResult mlir::tile::verifySm100FormChip(CopyAsyncOp op, StringRef chip,
                                              StringRef chipSource) {
  if (op.getSm100Form() == Sm100Form::None || chipHasSm100Forms(chip))
    return success();
  return emitRuleError(op.getOperation(), RuleId::Sm100Form)
         << op.describeSm100Form() << " needs chip sm_100a or sm_100f; "
         << chipSource << " is "
         << (chip.empty() ? StringRef("not set (the gpu.module has no "
                                      "#nvvm.target)")
                          : chip);
}

/// `cta_group` and `rows(...)`: the forms only sm_100a has. The chip is
/// checked here when the enclosing gpu.module names its target; the
/// pipeline checks its `chip` option before it attaches one.
static LogicalResult verifySm100Forms(CopyAsyncOp op, bool load,
                                      const RegionRef &global) {
  if (std::optional<uint32_t> group = op.getCtaGroup()) {
    if (*group != 1 && *group != 2)
      return emitRuleError(op.getOperation(), RuleId::CtaGroup)
             << "cta_group is 1 or 2, not " << *group;
    if (!load)
      return emitRuleError(op.getOperation(), RuleId::CtaGroup)
             << "cta_group applies to loads "
                "only; this copy is a store";
    if (op.getPrefetch())
      return emitRuleError(op.getOperation(), RuleId::CtaGroup)
             << "a prefetch writes no shared "
                "memory of a CTA pair; it takes no cta_group";
  }
  if (op.isRowGather()) {
    if (op.getRows().size() != 4)
      return emitRuleError(op.getOperation(), RuleId::Gather4)
             << "rows(...) names 4 rows, not " << op.getRows().size();
    if (global.type.getRank() != 2)
      return emitRuleError(op.getOperation(), RuleId::Gather4)
             << "tile::gather4 and tile::scatter4 address a 2D "
                "tensor; the global buffer has "
             << global.type.getRank() << " dimensions";
    if (global.staticOffsets[0] != 0 || global.sizes[0] != 4)
      return emitRuleError(op.getOperation(), RuleId::Gather4)
             << "the global region of a row gather is [0, col] "
                "[4, n] (its rows come from rows(...)); this one starts at row "
             << (ShapedType::isDynamic(global.staticOffsets[0])
                     ? std::string("?")
                     : std::to_string(global.staticOffsets[0]))
             << " and spans " << global.sizes[0] << " rows";
    if (op.getPrefetch() || op.getMulticastMask() || op.getReduce())
      return emitRuleError(op.getOperation(), RuleId::Gather4)
             << "the four-row forms take no "
             << (op.getPrefetch()        ? "prefetch"
                 : op.getMulticastMask() ? "multicast"
                                         : "reduce");
  }
  // Before the pipeline attaches a target there is no chip to check.
  std::string chip = getTargetChip(op);
  if (chip.empty())
    return success();
  return verifySm100FormChip(op, chip, "the target chip of the gpu.module");
}

LogicalResult CopyAsyncOp::verify() {
  MemRefType dstType = getDst().getType(), srcType = getSrc().getType();
  if (failed(verifyCopyDirection(*this, dstType, srcType)))
    return failure();

  RegionRef dst{"destination", dstType, getStaticDstOffsets(), getDstSizes(),
                getDstOffsets().size()};
  RegionRef src{"source", srcType, getStaticSrcOffsets(), getSrcSizes(),
                getSrcOffsets().size()};
  if (failed(verifyRegionPair(*this, dst, src)))
    return failure();

  bool load = getMemorySpaceKind(dstType) == MemorySpaceKind::Shared;
  const RegionRef &shared = load ? dst : src;
  const RegionRef &global = load ? src : dst;
  if (failed(verifySharedBuffer(*this, shared.type, shared.name)) ||
      failed(verifyGlobalBuffer(*this, global.type, global.name)))
    return failure();
  if (failed(verifyRegionInside(*this, shared, RuleId::SmemBounds, "shared")))
    return failure();
  if (!load && failed(verifyRegionInside(*this, global, RuleId::StoreBounds,
                                         "store's global")))
    return failure();

  if (failed(verifyCopyCompletion(*this, load)) ||
      failed(verifyCopyModifiers(*this, load, dstType.getElementType())) ||
      failed(verifySm100Forms(*this, load, global)) ||
      failed(verifyCopyThroughDeviceMap(*this)))
    return failure();
  // The recorded plan is not checked here: that builds the planner request
  // and may run the hardware model, which a verifier run after every pass
  // must not. Every pass that reads the record checks it (the `tma`
  // variant's recall), and so does tile-check-recorded-plans.
  return success();
}

//===----------------------------------------------------------------------===//
// CopyIm2colOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> CopyIm2colOp::getTraversalStrides() {
  if (std::optional<ArrayRef<int64_t>> strides = getStrides())
    return SmallVector<int64_t>(strides->begin(), strides->end());
  return SmallVector<int64_t>(getLower().size(), 1);
}

int64_t CopyIm2colOp::getTransactionBytes() {
  MemRefType tile = getDst().getType();
  std::optional<int64_t> bytes = getElementBytes(tile);
  if (!tile.hasStaticShape() || !bytes)
    return 0;
  return tile.getNumElements() * *bytes;
}

LogicalResult CopyIm2colOp::verify() {
  MemRefType dstType = getDst().getType(), srcType = getSrc().getType();
  if (getMemorySpaceKind(dstType) != MemorySpaceKind::Shared ||
      getMemorySpaceKind(srcType) != MemorySpaceKind::Global)
    return emitRuleError(getOperation(), RuleId::Direction)
           << "im2col loads from global memory into "
              "shared memory (#gpu.address_space<workgroup>); "
              "got a "
           << toString(getMemorySpaceKind(srcType)) << " source and a "
           << toString(getMemorySpaceKind(dstType)) << " destination";
  if (dstType.getElementType() != srcType.getElementType())
    return emitRuleError(getOperation(), RuleId::ElementType)
           << "element type mismatch: destination "
              "has "
           << dstType.getElementType() << ", source has "
           << srcType.getElementType();
  int64_t rank = srcType.getRank();
  if (rank < 3 || rank > 5)
    return emitRuleError(getOperation(), RuleId::Im2colRank)
           << "the global tensor has rank " << rank
           << "; im2col loads a channels-last tensor of rank "
              "3..5 ([N, W, C], [N, H, W, C], [N, D, H, W, C])";
  auto count = [&](int64_t n, int64_t want, StringRef what) -> LogicalResult {
    if (n == want)
      return success();
    return emitRuleError(getOperation(), RuleId::Im2colRank)
           << n << " " << what << " for a rank-" << rank << " tensor; expected "
           << want;
  };
  int64_t spatial = rank - 2;
  if (failed(count(getCoords().size(), rank, "coordinate(s)")) ||
      failed(count(getOffsets().size(), spatial, "offset(s)")) ||
      failed(count(getLower().size(), spatial, "lower corner value(s)")) ||
      failed(count(getUpper().size(), spatial, "upper corner value(s)")) ||
      failed(
          count(getTraversalStrides().size(), spatial, "traversal stride(s)")))
    return failure();
  if (failed(verifySharedBuffer(*this, dstType, "destination")) ||
      failed(verifyBarrierIndex(*this, getBarrier(), getBarrierIndex())))
    return failure();
  if (std::optional<StringRef> oob = getOob())
    if (failed(verifyOobFillName(*this, *oob, dstType.getElementType())))
      return failure();
  // The planner's rules (im2col-*) are checked by tile-plan-copies, which
  // records the plan; the verifier stays local.
  return verifyCacheHintName(*this, getCacheHint());
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

SmallVector<OpFoldResult> CopyOp::getMixedDstOffsets() {
  return mixedOffsets(getContext(), getStaticDstOffsets(), getDstOffsets());
}
SmallVector<OpFoldResult> CopyOp::getMixedSrcOffsets() {
  return mixedOffsets(getContext(), getStaticSrcOffsets(), getSrcOffsets());
}

std::optional<CopyScope> CopyOp::getScopeKind() {
  std::optional<StringRef> scope = getScope();
  return scope ? symbolizeCopyScope(*scope) : CopyScope::Cta;
}

/// A warp- or warpgroup-wide copy synchronises full warps (`bar.warp.sync`
/// with every lane) or full warpgroups (a named barrier over 128 threads): in
/// a block whose stated size leaves a partial one, those threads would wait
/// for threads that do not exist.
static LogicalResult verifyScopeFitsBlock(CopyOp op) {
  std::optional<CopyScope> scope = op.getScopeKind();
  int64_t group = scope == CopyScope::Warp        ? 32
                  : scope == CopyScope::Warpgroup ? kWarpgroupThreads
                                                  : 1;
  if (group == 1)
    return success();
  // A count below 1 or past CUDA's limits is the launch-size check's.
  std::optional<int64_t> threads = getStatedBlockThreads(op);
  if (!threads || *threads < 1 || *threads > kMaxBlockThreads ||
      *threads % group == 0)
    return success();
  InFlightDiagnostic diag = emitRuleError(op.getOperation(), RuleId::Scope)
                            << "a " << *op.getScope() << "-wide copy needs a "
                            << "block of whole " << *op.getScope() << "s ("
                            << group << " threads), but the kernel's"
                            << " block is ";
  llvm::interleave(*getStatedBlockSize(op), diag, " x ");
  return diag << " = " << *threads << " threads";
}

LogicalResult CopyOp::verify() {
  if (!getScopeKind())
    return emitRuleError(getOperation(), RuleId::Scope)
           << "unknown scope '" << *getScope()
           << "'; expected thread, warp, warpgroup or cta";
  if (failed(verifyScopeFitsBlock(*this)))
    return failure();
  RegionRef dst{"destination", getDst().getType(), getStaticDstOffsets(),
                getDstSizes(), getDstOffsets().size()};
  RegionRef src{"source", getSrc().getType(), getStaticSrcOffsets(),
                getSrcSizes(), getSrcOffsets().size()};
  if (failed(verifyRegionPair(*this, dst, src)))
    return failure();
  for (const RegionRef *r : {&dst, &src}) {
    MemorySpaceKind space = getMemorySpaceKind(r->type);
    if (space == MemorySpaceKind::Other)
      return emitRuleError(getOperation(), RuleId::Direction)
             << r->name << " memory space " << r->type.getMemorySpace()
             << " is neither global nor shared";
    if (space == MemorySpaceKind::Shared) {
      if (failed(verifySharedBuffer(*this, r->type, r->name)) ||
          failed(verifyRegionInside(*this, *r, RuleId::SmemBounds, "shared")))
        return failure();
    } else {
      if (failed(verifyGlobalBuffer(*this, r->type, r->name)) ||
          failed(verifyRegionInside(*this, *r, RuleId::GlobalBounds, "global")))
        return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ArenaViewOp
//===----------------------------------------------------------------------===//

int64_t ArenaViewOp::getSpanBytes() {
  MemRefType type = getResult().getType();
  std::optional<::tile::Layout> layout = getShardLayout(type);
  if (!layout)
    return 0;
  // Verified layouts reach below 2^52 elements of at most 16 bytes.
  return layout->cosize() * getElementBytes(type).value_or(0);
}

int64_t ArenaViewOp::getBaseAlignment() {
  // The arena's own alignment, which the lowering declares.
  constexpr int64_t arena = ::tile::tma::limits::kArenaAlignmentBytes;
  int64_t offset = getOffset();
  if (offset == 0)
    return arena;
  return std::min<int64_t>(arena, offset & -offset);
}

LogicalResult ArenaViewOp::verify() {
  MemRefType type = getResult().getType();
  if (getMemorySpaceKind(type) != MemorySpaceKind::Shared)
    return emitRuleError(getOperation(), RuleId::Direction)
           << "result must be in shared memory "
              "(#gpu.address_space<workgroup>), not "
           << type.getMemorySpace();
  if (failed(verifySharedBuffer(*this, type, "result")))
    return failure();
  int64_t elementBytes = *getElementBytes(type);
  int64_t offset = getOffset();
  int64_t span = getSpanBytes();
  if (offset > kMaxDynamicSharedBytes || span > kMaxDynamicSharedBytes - offset)
    return emitRuleError(getOperation(), RuleId::SmemSize)
           << "the view spans bytes [" << offset << ", " << offset << " + "
           << span << ") of the arena; a kernel has at most "
           << kMaxDynamicSharedBytes << " bytes of dynamic shared memory";
  if (offset % elementBytes != 0)
    return emitRuleError(getOperation(), RuleId::SmemAlign)
           << "offset " << offset << " is not a multiple of the element size "
           << elementBytes;
  ::tile::Swizzle swizzle = getShardLayout(type)->swizzle();
  int64_t repeat = ::tile::swizzleRepeatBytes(swizzle);
  if (offset % repeat != 0)
    return emitRuleError(getOperation(), RuleId::SmemAlign)
           << "a " << ::tile::toString(swizzle)
           << " swizzled view must start on a multiple of " << repeat
           << " bytes, not at offset " << offset;
  return success();
}

//===----------------------------------------------------------------------===//
// StageOp
//===----------------------------------------------------------------------===//

/// The single moving shard of the outermost dimension (extent 1 if none).
static std::optional<::tile::Shard>
outerStageShard(const ::tile::GroupedLayout &grouped) {
  ::tile::Shard stage{1, 0};
  for (const ::tile::Shard &s : grouped.groups.front()) {
    if (s.extent == 1)
      continue;
    if (stage.extent != 1)
      return std::nullopt;
    stage = s;
  }
  return stage;
}

int64_t StageOp::getStageStrideBytes() {
  MemRefType type = getSource().getType();
  std::optional<::tile::GroupedLayout> grouped = getGroupedLayout(type);
  if (!grouped || grouped->groups.empty())
    return 0;
  std::optional<::tile::Shard> stage = outerStageShard(*grouped);
  return stage ? stage->stride * getElementBytes(type).value_or(0) : 0;
}

LogicalResult mlir::tile::verifyStageView(Operation *op, MemRefType srcType,
                                          MemRefType resType,
                                          std::optional<int64_t> index) {
  if (getMemorySpaceKind(srcType) != MemorySpaceKind::Shared ||
      getMemorySpaceKind(resType) != MemorySpaceKind::Shared)
    return emitRuleError(op, RuleId::Direction)
           << "source and result must be shared "
              "buffers";
  if (srcType.getElementType() != resType.getElementType())
    return emitRuleError(op, RuleId::ElementType)
           << "element type mismatch: source has " << srcType.getElementType()
           << ", result has " << resType.getElementType();
  if (srcType.getRank() < 1 ||
      srcType.getShape().drop_front() != resType.getShape())
    return emitRuleError(op, RuleId::Stage)
           << "result shape " << shapeStr(resType.getShape())
           << " must be the source shape " << shapeStr(srcType.getShape())
           << " without its outermost dimension";
  if (failed(verifySharedBuffer(op, srcType, "source")) ||
      failed(verifySharedBuffer(op, resType, "result")))
    return failure();
  std::optional<::tile::GroupedLayout> grouped = getGroupedLayout(srcType);
  std::optional<::tile::Shard> stage = outerStageShard(*grouped);
  if (!stage)
    return emitRuleError(op, RuleId::Stage)
           << "the outermost dimension of " << srcType
           << " spans several shards; a stage must be one shard";
  std::vector<::tile::Shard> rest;
  for (size_t d = 1; d < grouped->groups.size(); ++d)
    rest.insert(rest.end(), grouped->groups[d].begin(),
                grouped->groups[d].end());
  ::tile::Layout expected(rest, grouped->swizzle);
  std::optional<::tile::Layout> actual = getShardLayout(resType);
  if (!(expected.canonicalize() == actual->canonicalize()))
    return emitRuleError(op, RuleId::Stage)
           << "result layout " << resType.getLayout()
           << " must be the source layout without its "
              "outermost dimension, i.e. #tile.layout<"
           << expected.str() << ">";
  if (index && (*index < 0 || *index >= stage->extent))
    return emitRuleError(op, RuleId::Stage)
           << "index " << *index << " is outside the " << stage->extent
           << " stage(s) of " << srcType;
  int64_t strideBytes = stage->stride * *getElementBytes(srcType);
  int64_t repeat = ::tile::swizzleRepeatBytes(grouped->swizzle);
  if (stage->extent > 1 && strideBytes % repeat != 0)
    return emitRuleError(op, RuleId::SmemAlign)
           << "stage stride " << strideBytes << " B is not a multiple of the "
           << ::tile::toString(grouped->swizzle) << " swizzle repeat " << repeat
           << " B";
  return success();
}

LogicalResult StageOp::verify() {
  APInt index;
  std::optional<int64_t> constant;
  if (matchPattern(getIndex(), m_ConstantInt(&index)))
    constant = index.getSExtValue();
  return verifyStageView(getOperation(), getSource().getType(),
                         getResult().getType(), constant);
}

//===----------------------------------------------------------------------===//
// WgmmaDescriptorOp
//===----------------------------------------------------------------------===//

/// A start index of the block: its constant, or the multiple the IR proves.
static ::tile::mma::WgmmaStartIndex wgmmaStartIndex(Value index) {
  APInt constant;
  if (matchPattern(index, m_ConstantInt(&constant)))
    return ::tile::mma::WgmmaStartIndex::known(constant.getSExtValue());
  return ::tile::mma::WgmmaStartIndex::multipleOf(getKnownDivisor(index));
}

/// Element types wgmma reads from shared memory: f16, bf16, tf32 (f32),
/// 8-bit integers and the two fp8 formats.
static bool isWgmmaElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() == 8;
  return isa<Float16Type, BFloat16Type, Float32Type, Float8E4M3FNType,
             Float8E5M2Type>(type);
}

::tile::mma::WgmmaDescriptorPlan WgmmaDescriptorOp::planDescriptor() {
  MemRefType type = getSource().getType();
  std::string error;
  std::optional<::tile::Layout> layout = getShardLayout(type, &error);
  if (!layout)
    return {std::nullopt, ::tile::Decline{RuleId::SmemLayout,
                                          "operand shared buffer: " + error}};
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  return ::tile::mma::planWgmmaDescriptorStarts(
      *layout, shape, getElementBytes(type).value_or(0),
      wgmmaStartIndex(getRow()), wgmmaStartIndex(getCol()), getRows(), getK(),
      getSharedBaseAlignment(getSource()),
      getMajor() == WgmmaMajor::MN ? ::tile::mma::WgmmaMajor::MN
                                   : ::tile::mma::WgmmaMajor::K);
}

LogicalResult WgmmaDescriptorOp::verify() {
  MemRefType type = getSource().getType();
  if (getMemorySpaceKind(type) != MemorySpaceKind::Shared)
    return emitRuleError(getOperation(), RuleId::Direction)
           << "the wgmma operand " << type
           << " must be a shared buffer "
              "(#gpu.address_space<workgroup>)";
  if (failed(verifySharedBuffer(*this, type, "operand")))
    return failure();
  if (!isWgmmaElementType(type.getElementType()))
    return emitRuleError(getOperation(), RuleId::WgmmaShape)
           << "element type " << type.getElementType()
           << " is not a wgmma operand type; expected f16, "
              "bf16, f32 (tf32), i8, f8E4M3FN or f8E5M2";
  // The descriptor's rules (wgmma-shape on the block, wgmma-layout,
  // wgmma-align, smem-bounds) need the divisors of the start indices: they
  // are checked where tile-plan-copies plans the descriptor (recordPlan).
  return success();
}

/// The record of an accepted plan.
static WgmmaPlanAttr
getWgmmaPlanAttr(MLIRContext *ctx,
                 const ::tile::mma::WgmmaDescriptorFields &f) {
  return WgmmaPlanAttr::get(ctx, f.leadingByteOffset, f.strideByteOffset,
                            f.baseOffset,
                            static_cast<WgmmaSwizzle>(f.swizzleMode));
}

LogicalResult WgmmaDescriptorOp::recordPlan() {
  ::tile::mma::WgmmaDescriptorPlan plan = planDescriptor();
  if (!plan.accepted())
    return emitDeclineError(getOperation(), *plan.decline);
  (*this)->setAttr(kWgmmaPlanAttr,
                   getWgmmaPlanAttr(getContext(), *plan.fields));
  return success();
}

FailureOr<WgmmaPlanAttr> WgmmaDescriptorOp::recallPlan() {
  auto record = (*this)->getAttrOfType<WgmmaPlanAttr>(kWgmmaPlanAttr);
  if (!record)
    return emitRuleError(getOperation(), RuleId::PlanMissing)
           << "this wgmma descriptor carries no "
              "recorded plan; run --tile-plan-copies first "
              "(--tile-gpu-pipeline does)";
  return record;
}

LogicalResult WgmmaDescriptorOp::verifyRecordedPlan() {
  auto record = (*this)->getAttrOfType<WgmmaPlanAttr>(kWgmmaPlanAttr);
  if (!record)
    return success();
  ::tile::mma::WgmmaDescriptorPlan plan = planDescriptor();
  if (!plan.accepted())
    return emitDeclineError(getOperation(), *plan.decline);
  WgmmaPlanAttr now = getWgmmaPlanAttr(getContext(), *plan.fields);
  if (now != record)
    return emitRuleError(getOperation(), RuleId::PlanStale)
           << "the recorded wgmma plan no longer "
              "describes this descriptor (re-run "
              "tile-plan-copies after changing it); now: "
           << now;
  return success();
}
