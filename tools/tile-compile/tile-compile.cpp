//===- tile-compile.cpp - Ahead-of-time compiler: .mlir -> shared library -===//
//
// Compiles a module of host functions that launch tile-dialect kernels into a
// shared library: every public host `func.func` gets a C interface
// (`_mlir_ciface_<name>(descriptor *...)` next to the expanded `<name>(...)`),
// the tile GPU pipeline lowers the kernels to an embedded cubin, and the host
// LLVM IR is compiled for x86-64 and linked against libtile_runtime.so. See
// docs/tile-compile.md.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "tile/Compiler/Compiler.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class EmitKind { MLIR, LLVM, Obj, SO };

/// `--help` lists these only; LLVM's and MLIR's own options stay accepted.
cl::OptionCategory toolCategory("tile-compile options");

cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input .mlir>"),
                                   cl::init("-"), cl::cat(toolCategory));
cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                    cl::value_desc("filename"), cl::init(""),
                                    cl::cat(toolCategory));
cl::opt<std::string> chip("chip", cl::desc("GPU chip (default sm_90a)"),
                          cl::init("sm_90a"), cl::cat(toolCategory));
cl::opt<std::string>
    toolkit("toolkit", cl::desc("CUDA toolkit path (ptxas for the cubin)"),
            cl::init("/usr/local/cuda"), cl::cat(toolCategory));
cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce"), cl::init(EmitKind::SO),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir",
                          "lowered MLIR (LLVM dialect)"),
               clEnumValN(EmitKind::LLVM, "llvm", "host LLVM IR"),
               clEnumValN(EmitKind::Obj, "obj", "x86-64 object file"),
               clEnumValN(EmitKind::SO, "so", "shared library (default)")),
    cl::cat(toolCategory));
cl::opt<std::string>
    runtimeDir("runtime-dir",
               cl::desc("Folder holding libtile_runtime.so (default: ../lib or "
                        "../lib/Runtime next to this tool)"),
               cl::init(""), cl::cat(toolCategory));
cl::opt<std::string> linker("linker-driver",
                            cl::desc("Compiler driver used to link the .so"),
                            cl::init("/usr/lib/llvm-22/bin/clang"),
                            cl::cat(toolCategory));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (slower; by default the module "
             "is verified once, after the pipeline)"),
    cl::init(false), cl::cat(toolCategory));
cl::opt<bool>
    verifyAsync("verify-async",
                cl::desc("Check the asynchronous protocol around the copies "
                         "(tile-verify-async; default true, =false to skip)"),
                cl::init(true), cl::cat(toolCategory));
cl::opt<bool> convertUpstreamCopies(
    "convert-upstream-copies",
    cl::desc("Turn global <-> shared memref.copy and linalg.copy inside "
             "kernels into CTA-wide tile.copy (tile-convert-upstream-copies)"),
    cl::init(false), cl::cat(toolCategory));
cl::opt<bool> prefetchTensorMaps(
    "prefetch-tensor-maps",
    cl::desc("Prefetch each kernel's tensor maps at its entry "
             "(prefetch.tensormap)"),
    cl::init(false), cl::cat(toolCategory));
cl::opt<bool> keepTemps("keep-temps", cl::desc("Keep the temporary object"),
                        cl::init(false), cl::cat(toolCategory));
} // namespace

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tile-compile") << message << "\n";
  return 1;
}

static int fail(llvm::Error error) {
  return fail(llvm::toString(std::move(error)));
}

static std::string defaultOutput(StringRef suffix) {
  if (inputFilename == "-")
    return suffix == ".so" ? "a.so" : "-";
  SmallString<128> path(llvm::sys::path::filename(inputFilename));
  llvm::sys::path::replace_extension(path, suffix);
  return std::string(path);
}

static std::string findRuntimeDir(const char *argv0) {
  if (!runtimeDir.empty())
    return runtimeDir;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findRuntimeDir));
  SmallString<256> lib(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(lib, "..", "lib");
  // An install tree has lib/libtile_runtime.so; a build tree lib/Runtime/.
  SmallString<256> build(lib);
  llvm::sys::path::append(build, "Runtime");
  SmallString<256> probe(build);
  llvm::sys::path::append(probe, "libtile_runtime.so");
  return std::string(llvm::sys::fs::exists(probe) ? build : lib);
}

static void parseCommandLine(int argc, char **argv) {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-compile: tile-dialect .mlir to a shared library with C entry "
      "points and the embedded cubin\n");
}

static std::string outputPath() {
  return outputFilename.empty()
             ? defaultOutput(emitKind == EmitKind::MLIR   ? ".llvm.mlir"
                             : emitKind == EmitKind::LLVM ? ".ll"
                             : emitKind == EmitKind::Obj  ? ".o"
                                                          : ".so")
             : std::string(outputFilename);
}

static int writeMLIR(ModuleOp module, StringRef output) {
  std::string error;
  auto file = openOutputFile(output, &error);
  if (!file)
    return fail(error);
  module->print(file->os());
  file->os() << "\n";
  file->keep();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  parseCommandLine(argc, argv);

  DialectRegistry registry;
  tile::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  tile::CompilerOptions options;
  options.chip = chip;
  options.toolkit = toolkit;
  options.runtimeDir = findRuntimeDir(argv[0]);
  options.linker = linker;
  options.verifyEach = verifyEach;
  options.verifyAsync = verifyAsync;
  options.convertUpstreamCopies = convertUpstreamCopies;
  options.prefetchTensorMaps = prefetchTensorMaps;
  options.keepTemps = keepTemps;

  // The handler reports the parser's and the passes' diagnostics with their
  // source lines, so it lives until the pipeline has run.
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = tile::parseCompilerInput(sourceMgr, context);
  if (!module)
    return 1;
  if (failed(tile::lowerModule(
          *module, options, /*ptx=*/nullptr,
          [](PassManager &pm) { (void)applyPassManagerCLOptions(pm); })))
    return 1;

  std::string output = outputPath();
  if (emitKind == EmitKind::MLIR)
    return writeMLIR(*module, output);
  tile::HostOutputKind kind =
      emitKind == EmitKind::LLVM  ? tile::HostOutputKind::LLVM
      : emitKind == EmitKind::Obj ? tile::HostOutputKind::Object
                                  : tile::HostOutputKind::SharedLibrary;
  if (llvm::Error error = tile::writeHostOutput(*module, options, kind, output))
    return fail(std::move(error));
  return 0;
}
