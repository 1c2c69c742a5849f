//===- CompileBench.cpp - Compile time of --tile-gpu-pipeline -------------===//
//
// Times parsing and the lowering pipeline to NVVM (`--tile-gpu-pipeline=
// format=none`: outlining, tensor-map ABI, tile-to-nvvm, host lowering; no
// PTX serialisation) in process, on modules written by gen_copies.py.
//
//   bench-compile [--reps=N] [--timing] [--no-verify] [--to-nvvm] [--threads]
//                 [--pipeline=TEXTFILE] FILE...
//
// Prints, per file, the number of tile.copy_async ops and the median over N
// repetitions (fresh context each time, threading off) of parse and pipeline
// wall time, and of the pipeline's CPU time.
// --timing prints MLIR's per-pass timing report of the last repetition;
// --no-verify turns off the verifier between passes (on by default, as in
// tile-opt and tile-compile) to show its share.
// --pipeline=TEXTFILE runs the textual pass pipeline in TEXTFILE (as
// `tile-opt --pass-pipeline` takes it) instead, so an earlier form of the
// pipeline can be timed by the same binary in the same run.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "tile/InitAllTile.h"
#include "tile/Pipelines/Pipelines.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <time.h>
#include <vector>

using namespace mlir;
using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

/// CPU seconds of the process (the context is single-threaded, so this is the
/// pipeline's own work, less sensitive to other load on the machine).
static double cpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
  int reps = 3;
  bool timing = false, verify = true, deviceOnly = false, threads = false;
  std::vector<std::string> files;
  std::string pipelineText;
  for (int i = 1; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--reps=", 7))
      reps = std::max(1, std::atoi(argv[i] + 7));
    else if (!std::strcmp(argv[i], "--timing"))
      timing = true;
    else if (!std::strcmp(argv[i], "--no-verify"))
      verify = false;
    else if (!std::strcmp(argv[i], "--to-nvvm"))
      deviceOnly = true;
    else if (!std::strcmp(argv[i], "--threads"))
      threads = true;
    else if (!std::strncmp(argv[i], "--pipeline=", 11)) {
      auto text = llvm::MemoryBuffer::getFile(argv[i] + 11);
      if (!text) {
        llvm::errs() << argv[i] + 11 << ": cannot read\n";
        return 2;
      }
      pipelineText = (*text)->getBuffer().trim().str();
    } else
      files.push_back(argv[i]);
  }
  if (files.empty()) {
    llvm::errs() << "usage: bench-compile [--reps=N] [--timing] [--no-verify] "
                    "[--to-nvvm] [--threads] [--pipeline=TEXTFILE] FILE...\n";
    return 2;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  tile::registerAllTileDialects(registry);
  registerAllPasses();
  tile::registerAllTilePasses();

  llvm::outs()
      << "file\tcopies\tparse_s\tpipeline_s\ttotal_s\tpipeline_cpu_s\n";
  for (const std::string &file : files) {
    std::vector<double> parse, pipeline, total, pipelineCpu;
    size_t copies = 0;
    for (int r = 0; r < reps; ++r) {
      MLIRContext ctx(registry, threads ? MLIRContext::Threading::ENABLED
                                        : MLIRContext::Threading::DISABLED);
      ctx.loadAllAvailableDialects();
      llvm::SourceMgr sm;
      auto t0 = Clock::now();
      OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, sm, &ctx);
      auto t1 = Clock::now();
      if (!module) {
        llvm::errs() << file << ": parse failed\n";
        return 1;
      }
      copies = 0;
      module->walk([&](Operation *op) {
        if (op->getName().getStringRef() == "tile.copy_async")
          ++copies;
      });
      PassManager pm(&ctx, ModuleOp::getOperationName());
      pm.enableVerifier(verify);
      tile::TileGPUPipelineOptions options;
      options.format = "none";
      options.deviceOnly = deviceOnly;
      if (pipelineText.empty()) {
        tile::buildTileGPUPipeline(pm, options);
      } else if (FailureOr<OpPassManager> anchored =
                     parsePassPipeline(pipelineText, llvm::nulls());
                 succeeded(anchored) &&
                 anchored->getOpAnchorName() == pm.getOpAnchorName()) {
        // The pipeline as `--dump-pass-pipeline` prints it: the module's
        // passes (parsed into `pm`, the anchor would nest a second module,
        // which runs nothing).
        static_cast<OpPassManager &>(pm) = std::move(*anchored);
      } else if (failed(parsePassPipeline(pipelineText, pm, llvm::errs()))) {
        llvm::errs() << "bench-compile: the pipeline does not parse\n";
        return 2;
      }
      if (timing && r == reps - 1) {
        auto tm = std::make_unique<DefaultTimingManager>();
        tm->setEnabled(true);
        pm.enableTiming(std::move(tm));
      }
      auto t2 = Clock::now();
      double c2 = cpuSeconds();
      if (failed(pm.run(*module))) {
        llvm::errs() << file << ": pipeline failed\n";
        return 1;
      }
      auto t3 = Clock::now();
      pipelineCpu.push_back(cpuSeconds() - c2);
      parse.push_back(seconds(t0, t1));
      pipeline.push_back(seconds(t2, t3));
      total.push_back(seconds(t0, t1) + seconds(t2, t3));
    }
    llvm::outs() << file << "\t" << copies << "\t"
                 << llvm::format("%.3f", median(parse)) << "\t"
                 << llvm::format("%.3f", median(pipeline)) << "\t"
                 << llvm::format("%.3f", median(total)) << "\t"
                 << llvm::format("%.3f", median(pipelineCpu)) << "\n";
    llvm::outs().flush();
  }
  return 0;
}
