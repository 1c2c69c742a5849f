//===- ReportCopyPlans.cpp - --tile-report-copy-plans ---------------------===//
//
// Writes the plan report (JSON Lines, one object per tile.copy_async in
// program order); see "Plan report (contract)" in docs/plan-report.md.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "tile/Dialect/Tile/IR/Im2colRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Support/Rules.h"
#include "tile/TMA/Planner.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/PlanReport.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEREPORTCOPYPLANS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::formatCopyLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    if (auto inner = dyn_cast<FileLineColLoc>(name.getChildLoc()))
      return formatCopyLocation(inner);
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

namespace {
struct ReportCopyPlansPass
    : public mlir::tile::impl::TileReportCopyPlansBase<ReportCopyPlansPass> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }

  void runOnOperation() override {
    std::unique_ptr<llvm::raw_fd_ostream> file;
    llvm::raw_ostream *os = &llvm::outs();
    if (!output.empty()) {
      std::error_code ec;
      file = std::make_unique<llvm::raw_fd_ostream>(output, ec,
                                                    llvm::sys::fs::OF_Text);
      if (ec) {
        getOperation()->emitError() << "cannot open plan report file '"
                                    << output << "': " << ec.message();
        return signalPassFailure();
      }
      os = file.get();
    }

    // The report shows the decisions the lowering would take: the ones
    // tile-plan-copies records.
    OpPassManager plan(getOperation()->getName());
    plan.addPass(createTilePlanCopies());
    if (failed(runPipeline(plan, getOperation())))
      return signalPassFailure();
    bool failedDispatch = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *any) {
      if (auto im2col = dyn_cast<CopyIm2colOp>(any)) {
        if (failed(writeIm2colReport(im2col, *os)))
          failedDispatch = true;
        else
          *os << "\n";
        return;
      }
      auto op = dyn_cast<CopyAsyncOp>(any);
      if (!op)
        return;
      FailureOr<DispatchResult> result = recallCopyDecision(op);
      if (failed(result)) {
        failedDispatch = true;
        return;
      }
      writeCopyPlanReport(op, *result, *os);
      *os << "\n";
    });
    os->flush();
    if (failedDispatch)
      signalPassFailure();
  }
};
} // namespace

void mlir::tile::writeCopyPlanReport(CopyAsyncOp op,
                                     const DispatchResult &result,
                                     llvm::raw_ostream &os) {
  llvm::json::OStream json(os);
  json.object([&] {
    json.attribute("loc", formatCopyLocation(op.getLoc()));
    json.attribute("op", op->getName().getStringRef());
    json.attribute("direction", op.getPrefetch() ? "prefetch"
                                : op.isLoad()    ? "g2s"
                                                 : "s2g");
    // The sm_100a forms, only on the copies that use them.
    if (op.isRowGather())
      json.attribute("mode", op.isLoad() ? "tile::gather4" : "tile::scatter4");
    if (std::optional<uint32_t> group = op.getCtaGroup())
      json.attribute("cta_group", static_cast<int64_t>(*group));
    if (result.selected)
      json.attribute("selected", result.selected->getName());
    else
      json.attribute("selected", nullptr);
    json.attributeArray("declined", [&] {
      for (const std::pair<std::string, std::string> &d : result.declined)
        json.object([&] {
          json.attribute("variant", d.first);
          json.attribute("reason", d.second);
          // The rule the reason names, for readers that branch on it
          // (null for a variant's reason outside the rule table).
          if (std::optional<::tile::RuleId> rule = getReasonRule(d.second))
            json.attribute("rule", StringRef(::tile::ruleIdName(*rule)));
          else
            json.attribute("rule", nullptr);
        });
    });
    if (result.selected)
      result.selected->describe(op, result.match.get(), json);
    json.attribute("bytes", op.getTransactionBytes());
  });
}

LogicalResult mlir::tile::writeIm2colReport(CopyIm2colOp op,
                                            llvm::raw_ostream &os) {
  FailureOr<::tile::tma::Im2colPlan> plan = recallIm2colPlan(op);
  if (failed(plan))
    return failure();
  const ::tile::tma::Im2colMapDesc &m = plan->map;
  // Coordinates and offsets in the instruction's order (innermost first):
  // constants as numbers, the N-th distinct run-time value as "sN".
  SmallVector<Value> symbols;
  auto operand = [&](llvm::json::OStream &json, Value v) {
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant))) {
      json.value(constant.getSExtValue());
      return;
    }
    auto *it = llvm::find(symbols, v);
    if (it == symbols.end()) {
      symbols.push_back(v);
      it = symbols.end() - 1;
    }
    json.value("s" + std::to_string(it - symbols.begin()));
  };
  llvm::json::OStream json(os);
  json.object([&] {
    json.attribute("loc", formatCopyLocation(op.getLoc()));
    json.attribute("op", op->getName().getStringRef());
    json.attribute("direction", "g2s");
    json.attribute("selected", "tma");
    json.attributeArray("declined", [] {});
    json.attributeObject("tensor_map", [&] {
      json.attribute("mode", "im2col");
      json.attribute("data_type", ::tile::tma::toString(m.dataType));
      json.attribute("rank", m.rank);
      // 0 stands for a size or stride the host reads at run time.
      json.attributeArray("global_dim", [&] {
        for (uint64_t d : m.globalDim)
          json.value(d);
      });
      json.attributeArray("global_strides", [&] {
        for (uint64_t s : m.globalStridesBytes)
          json.value(s);
      });
      json.attributeArray("lower_corner", [&] {
        for (int32_t c : m.lowerCorner)
          json.value(c);
      });
      json.attributeArray("upper_corner", [&] {
        for (int32_t c : m.upperCorner)
          json.value(c);
      });
      json.attribute("channels_per_pixel", m.channelsPerPixel);
      json.attribute("pixels_per_column", m.pixelsPerColumn);
      json.attributeArray("element_strides", [&] {
        for (uint32_t e : m.elementStrides)
          json.value(e);
      });
      json.attribute("interleave", 0);
      json.attribute("swizzle", static_cast<int64_t>(m.swizzle));
      json.attribute("l2_promotion", m.l2Promotion);
      json.attribute("oob_fill", m.oobFill);
    });
    json.attributeArray("issues", [&] {
      json.object([&] {
        json.attribute("smem_byte_offset", 0);
        json.attributeArray("coords", [&] {
          for (Value v : llvm::reverse(op.getCoords()))
            operand(json, v);
        });
        json.attributeArray("offsets", [&] {
          for (Value v : llvm::reverse(op.getOffsets()))
            operand(json, v);
        });
      });
    });
    json.attribute("bytes", plan->bytes);
  });
  return success();
}

LogicalResult mlir::tile::withCopyDecision(
    CopyAsyncOp op,
    function_ref<void(CopyAsyncOp, const DispatchResult &)> fn) {
  // The copy's position among the copies of its top-level op, to find it in
  // the clone the decision is recorded on.
  Operation *root = op;
  while (Operation *parent = root->getParentOp())
    root = parent;
  unsigned index = 0, count = 0;
  root->walk<WalkOrder::PreOrder>([&](CopyAsyncOp copy) {
    if (copy == op)
      index = count;
    ++count;
  });

  OwningOpRef<Operation *> clone = root->clone();
  PassManager pm(op->getContext(), root->getName().getStringRef());
  pm.addPass(createTilePlanCopies());
  if (failed(pm.run(clone.get())))
    return failure();
  CopyAsyncOp decided;
  count = 0;
  clone.get()->walk<WalkOrder::PreOrder>([&](CopyAsyncOp copy) {
    if (count++ == index)
      decided = copy;
  });
  FailureOr<DispatchResult> result = recallCopyDecision(decided);
  if (failed(result))
    return failure();
  fn(decided, *result);
  return success();
}

LogicalResult mlir::tile::reportCopyPlan(CopyAsyncOp op,
                                         llvm::raw_ostream &os) {
  return withCopyDecision(op,
                          [&](CopyAsyncOp decided, const DispatchResult &r) {
                            writeCopyPlanReport(decided, r, os);
                          });
}
