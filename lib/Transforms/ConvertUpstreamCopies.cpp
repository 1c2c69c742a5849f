//===- ConvertUpstreamCopies.cpp - memref/linalg copies to tile.copy ------===//
//
// A compiler that reaches shared memory through upstream copies gets the
// tile dialect's planned copies without rewriting: a global <-> shared
// `memref.copy` or `linalg.copy` that every thread of a kernel executes (each
// copying the whole buffer) becomes one CTA-wide `tile.copy`. Whatever cannot
// be converted keeps its upstream meaning and gets an `upstream-copy` remark.
// The conversion itself (UpstreamCopyConverter) is shared with
// `transform.tile.convert_upstream_copy`.
//
//===----------------------------------------------------------------------===//

#include "AsyncProtocol/PositionDependence.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "tile/Dialect/Tile/IR/RuleDiagnostic.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/IR/TileTypeUtils.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/UpstreamCopies.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECONVERTUPSTREAMCOPIES
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using async_protocol::Position;
using async_protocol::PositionDependence;

namespace {

/// An upstream copy: the op, its source and destination buffers.
struct UpstreamCopy {
  Operation *op;
  Value src, dst;
};

std::optional<UpstreamCopy> matchUpstreamCopy(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return UpstreamCopy{op, copy.getSource(), copy.getTarget()};
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    // Buffer semantics only: on tensors the copy is a value, not memory.
    if (copy.getInputs().size() == 1 && copy.getOutputs().size() == 1 &&
        isa<MemRefType>(copy.getInputs()[0].getType()) &&
        isa<MemRefType>(copy.getOutputs()[0].getType()))
      return UpstreamCopy{op, copy.getInputs()[0], copy.getOutputs()[0]};
  }
  return std::nullopt;
}

/// The body a kernel's threads run: a gpu.func kernel's or a gpu.launch's.
Region *kernelBodyOf(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(parent))
      return &launch.getBody();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(parent))
      return func.isKernel() ? &func.getBody() : nullptr;
  }
  return nullptr;
}

/// Why `copy` stays as it is (one line naming the values), or "" when its
/// buffers and shapes suit a tile.copy.
std::string checkBuffers(const UpstreamCopy &copy) {
  auto srcType = cast<MemRefType>(copy.src.getType());
  auto dstType = cast<MemRefType>(copy.dst.getType());
  MemorySpaceKind src = getMemorySpaceKind(srcType);
  MemorySpaceKind dst = getMemorySpaceKind(dstType);
  bool globalShared =
      (src == MemorySpaceKind::Global && dst == MemorySpaceKind::Shared) ||
      (src == MemorySpaceKind::Shared && dst == MemorySpaceKind::Global);
  if (!globalShared)
    return std::string("it copies ") + toString(src) + " to " + toString(dst) +
           " memory; only copies between global and shared memory become "
           "tile.copy";
  for (MemRefType type : {srcType, dstType})
    if (!type.hasStaticShape()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the shape of " << type
         << " is dynamic; tile.copy regions have static sizes";
      return text;
    }
  return "";
}

/// One side of a copy as a region of a buffer: a unit-stride, rank-keeping
/// `memref.subview` is its source's region at the view's offsets (so a view
/// with a run-time offset becomes a tile of the whole tensor, which the
/// planner can carry through the TMA); any other value is its own whole
/// region.
struct CopyRegion {
  Value buffer;
  SmallVector<Value> dynamicOffsets;
  SmallVector<int64_t> staticOffsets;
  ArrayRef<int64_t> sizes;
};

CopyRegion regionOf(Value value) {
  auto type = cast<MemRefType>(value.getType());
  CopyRegion region{
      value, {}, SmallVector<int64_t>(type.getRank(), 0), type.getShape()};
  auto view = value.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != type.getRank() ||
      !llvm::all_of(view.getStaticStrides(),
                    [](int64_t stride) { return stride == 1; }))
    return region;
  region.buffer = view.getSource();
  region.dynamicOffsets.assign(view.getOffsets().begin(),
                               view.getOffsets().end());
  region.staticOffsets.assign(view.getStaticOffsets().begin(),
                              view.getStaticOffsets().end());
  return region;
}

/// The tile.copy that does the work of `copy`, or the remark-ready reason
/// (tile.copy's own rule) why it cannot; nothing is left in the IR then.
FailureOr<CopyOp> buildTileCopy(const UpstreamCopy &copy, std::string &why) {
  OpBuilder b(copy.op);
  CopyRegion src = regionOf(copy.src), dst = regionOf(copy.dst);
  auto op = CopyOp::create(
      b, copy.op->getLoc(), dst.buffer, dst.dynamicOffsets,
      b.getDenseI64ArrayAttr(dst.staticOffsets),
      b.getDenseI64ArrayAttr(dst.sizes), src.buffer, src.dynamicOffsets,
      b.getDenseI64ArrayAttr(src.staticOffsets),
      b.getDenseI64ArrayAttr(src.sizes), b.getStringAttr("cta"));
  // The op's verifier decides; its message becomes the remark's reason.
  std::string message;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler capture(b.getContext(), [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    verified = mlir::verify(op);
  }
  if (succeeded(verified))
    return op;
  op->erase();
  why = "tile.copy would break its rule: " + message;
  return failure();
}

} // namespace

bool mlir::tile::isUpstreamCopy(Operation *op) {
  return matchUpstreamCopy(op).has_value();
}

struct UpstreamCopyConverter::Analyses {
  llvm::DenseMap<Region *, std::unique_ptr<PositionDependence>> byBody;
};

UpstreamCopyConverter::UpstreamCopyConverter()
    : analyses(std::make_unique<Analyses>()) {}
UpstreamCopyConverter::~UpstreamCopyConverter() = default;

FailureOr<CopyOp> UpstreamCopyConverter::convert(Operation *op,
                                                 std::string &why) {
  why.clear();
  std::optional<UpstreamCopy> copy = matchUpstreamCopy(op);
  if (!copy) {
    why = op->getName().getStringRef().str() +
          " is not a memref.copy or a linalg.copy of buffers";
    return failure();
  }
  Region *body = kernelBodyOf(op);
  if (!body)
    return failure(); // Host code, or a device function: not a kernel's
                      // threads.
  why = checkBuffers(*copy);
  if (why.empty()) {
    // One thread-dependence analysis per kernel body, memoized inside.
    std::unique_ptr<PositionDependence> &threads = analyses->byBody[body];
    if (!threads)
      threads = std::make_unique<PositionDependence>(*body, Position::Thread);
    if (Operation *control = threads->divergentControl(op))
      why = "it sits under control flow that differs between the "
            "threads of a CTA (" +
            control->getName().getStringRef().str() +
            "), and a CTA-wide tile.copy needs every thread";
  }
  if (!why.empty())
    return failure();
  FailureOr<CopyOp> tileCopy = buildTileCopy(*copy, why);
  if (succeeded(tileCopy))
    op->erase();
  return tileCopy;
}

namespace {
struct ConvertUpstreamCopiesPass
    : public mlir::tile::impl::TileConvertUpstreamCopiesBase<
          ConvertUpstreamCopiesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> copies;
    getOperation()->walk([&](Operation *op) {
      if (isUpstreamCopy(op))
        copies.push_back(op);
    });
    UpstreamCopyConverter converter;
    for (Operation *op : copies) {
      std::string why;
      if (succeeded(converter.convert(op, why)) || why.empty())
        continue;
      emitRuleRemark(op, RuleId::UpstreamCopy)
          << op->getName().getStringRef() << " stays per-thread: " << why;
    }
  }
};

} // namespace
