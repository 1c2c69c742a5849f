//===- DrawCopyPlans.cpp - --tile-draw-copy-plans -------------------------===//
//
// Writes one SVG picture per tile.copy_async (tile/Draw/Draw.h) and an
// index.html listing every copy with its plan report line and picture.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "tile/Dialect/Tile/IR/CopyRequest.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dispatch/BuiltinVariants.h"
#include "tile/Dispatch/CopyVariant.h"
#include "tile/Draw/Draw.h"
#include "tile/Transforms/Passes.h"
#include "tile/Transforms/PlanReport.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDRAWCOPYPLANS
#include "tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::drawCopyDecision(CopyAsyncOp op,
                                         const DispatchResult &result) {
  ::tile::draw::CopyPicture picture;
  picture.title = formatCopyLocation(op.getLoc());
  picture.direction = op.isLoad() ? "g2s" : "s2g";
  if (result.selected)
    picture.selected = result.selected->getName().str();
  picture.declined = result.declined;
  ::tile::Decline reason{};
  // The picture shows the divisors the planner proves.
  DivisorAnalysis divisors;
  FailureOr<CopyRequestInfo> info = buildCopyRequest(op, reason, &divisors);
  if (succeeded(info))
    picture.request = info->request;
  else
    picture.requestError = reason.message();
  if (result.selected && result.match)
    if (const ::tile::tma::TmaPlan *plan = result.match->getTensorMapPlan())
      picture.plan = *plan;
  return ::tile::draw::drawCopy(picture);
}

LogicalResult mlir::tile::drawCopyPlan(CopyAsyncOp op, llvm::raw_ostream &os) {
  return withCopyDecision(op,
                          [&](CopyAsyncOp decided, const DispatchResult &r) {
                            os << drawCopyDecision(decided, r);
                          });
}

/// The picture's file name: the location with every character other than
/// letters, digits, '.', '-' and '_' replaced by '_', made unique.
static std::string pictureName(StringRef location, llvm::StringSet<> &used) {
  std::string stem;
  for (char c : location.take_front(160))
    stem += llvm::isAlnum(c) || c == '.' || c == '-' || c == '_' ? c : '_';
  size_t start = stem.find_first_not_of('_');
  stem = start == std::string::npos ? "copy" : stem.substr(start);
  std::string name = stem + ".svg";
  for (unsigned n = 2; !used.insert(name).second; ++n)
    name = stem + "-" + std::to_string(n) + ".svg";
  return name;
}

namespace {
struct DrawCopyPlansPass
    : public mlir::tile::impl::TileDrawCopyPlansBase<DrawCopyPlansPass> {
  using Base::Base;
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerBuiltinCopyVariants(registry);
  }

  LogicalResult writeFile(StringRef name, StringRef text) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return getOperation()->emitError()
             << "cannot write picture file '" << path << "': " << ec.message();
    os << text;
    return success();
  }

  void runOnOperation() override {
    if (outputDir.empty()) {
      getOperation()->emitError()
          << "tile-draw-copy-plans needs an output directory (output-dir=DIR)";
      return signalPassFailure();
    }
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      getOperation()->emitError() << "cannot create picture directory '"
                                  << outputDir << "': " << ec.message();
      return signalPassFailure();
    }
    // The pictures show the decisions the lowering would take: the ones
    // tile-plan-copies records.
    OpPassManager plan(getOperation()->getName());
    plan.addPass(createTilePlanCopies());
    if (failed(runPipeline(plan, getOperation())))
      return signalPassFailure();

    std::string index;
    llvm::raw_string_ostream html(index);
    html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>tile copy plans</title></head>\n<body>\n"
            "<h1>tile copy plans</h1>\n";
    llvm::StringSet<> used;
    bool failedAny = false;
    getOperation()->walk<WalkOrder::PreOrder>([&](CopyAsyncOp op) {
      FailureOr<DispatchResult> result = recallCopyDecision(op);
      if (failed(result)) {
        failedAny = true;
        return;
      }
      std::string location = formatCopyLocation(op.getLoc());
      std::string name = pictureName(location, used);
      if (failed(writeFile(name, drawCopyDecision(op, *result)))) {
        failedAny = true;
        return;
      }
      std::string report;
      llvm::raw_string_ostream line(report);
      writeCopyPlanReport(op, *result, line);
      html << "<h2>" << ::tile::draw::escapeXml(location) << "</h2>\n<pre>"
           << ::tile::draw::escapeXml(report) << "</pre>\n<p><img src=\""
           << ::tile::draw::escapeXml(name) << "\" alt=\""
           << ::tile::draw::escapeXml(location) << "\"></p>\n";
    });
    html << "</body></html>\n";
    if (failed(writeFile("index.html", index)) || failedAny)
      signalPassFailure();
  }
};
} // namespace
