//===- ConvertUpstreamCopies.cpp - memref/linalg copies to tile.copy ------===//
//
// A compiler that reaches shared memory through upstream copies gets the
// tile dialect's planned copies without rewriting: a global <-> shared
// `memref.copy` or `linalg.copy` that every thread of a kernel executes (each
// copying the whole buffer) becomes one CTA-wide `tile.copy`. Whatever cannot
// be converted keeps its upstream meaning and gets an `upstream-copy` remark.
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

struct ConvertUpstreamCopiesPass
    : public mlir::tile::impl::TileConvertUpstreamCopiesBase<
          ConvertUpstreamCopiesPass> {
  void runOnOperation() override {
    SmallVector<UpstreamCopy> copies;
    getOperation()->walk([&](Operation *op) {
      if (std::optional<UpstreamCopy> copy = matchUpstreamCopy(op))
        copies.push_back(*copy);
    });
    // One thread-dependence analysis per kernel body, memoized inside.
    llvm::DenseMap<Region *, std::unique_ptr<PositionDependence>> analyses;
    for (const UpstreamCopy &copy : copies) {
      Region *body = kernelBodyOf(copy.op);
      if (!body)
        continue; // Host code, or a device function: not a kernel's threads.
      StringRef name = copy.op->getName().getStringRef();
      std::string why = checkBuffers(copy);
      if (why.empty()) {
        std::unique_ptr<PositionDependence> &threads = analyses[body];
        if (!threads)
          threads =
              std::make_unique<PositionDependence>(*body, Position::Thread);
        if (Operation *control = threads->divergentControl(copy.op))
          why = "it sits under control flow that differs between the "
                "threads of a CTA (" +
                control->getName().getStringRef().str() +
                "), and a CTA-wide tile.copy needs every thread";
      }
      if (why.empty() && succeeded(buildTileCopy(copy, why))) {
        copy.op->erase();
        continue;
      }
      emitRuleRemark(copy.op, RuleId::UpstreamCopy)
          << name << " stays per-thread: " << why;
    }
  }
};

} // namespace
