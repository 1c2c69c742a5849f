//===- Compiler.h - A module of host functions to a shared library -*- C++
//-*-===//
//
// The steps of `tile-compile` as a library, so that the tool, the C API and
// through it Python compile the same way: parse a module of host functions
// that launch tile-dialect kernels, lower it with the tile GPU pipeline
// (kernels to an embedded cubin, optionally their PTX too), translate the host
// to LLVM IR and compile and link it into a shared library against
// libtile_runtime.so. See docs/tile-compile.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILER_COMPILER_H
#define TILE_COMPILER_COMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace tile {

/// What the compiler writes past the lowered MLIR.
enum class HostOutputKind { LLVM, Object, SharedLibrary };

struct CompilerOptions {
  /// GPU chip of the kernels.
  std::string chip = "sm_90a";
  /// CUDA toolkit whose ptxas builds the cubin.
  std::string toolkit = "/usr/local/cuda";
  /// Folder of libtile_runtime.so, which the shared library links against.
  std::string runtimeDir;
  /// Compiler driver that links the shared library.
  std::string linker = "/usr/lib/llvm-22/bin/clang";
  /// Verify the IR after every pass (else once, after the pipeline).
  bool verifyEach = false;
  /// Check the asynchronous protocol around the copies (tile-verify-async).
  bool verifyAsync = true;
  /// Convert global <-> shared memref.copy and linalg.copy inside kernels
  /// into CTA-wide tile.copy first (tile-convert-upstream-copies).
  bool convertUpstreamCopies = false;
  /// Prefetch each kernel's tensor maps at its entry (prefetch.tensormap),
  /// so that a CTA's first TMA copy does not wait for its descriptor.
  bool prefetchTensorMaps = false;
  /// Keep the temporary object of a shared library.
  bool keepTemps = false;
  /// Also keep the PTX of every kernel module (`CompileProducts::ptx`).
  bool emitPTX = false;
};

/// The PTX of one kernel module, by the gpu.module's symbol name.
struct KernelPTX {
  std::string module;
  std::string ptx;
};

/// Registers everything the compiler parses and translates: MLIR's dialects,
/// their extensions and LLVM IR translations, and the tile dialects.
void registerCompilerDialects(DialectRegistry &registry);

/// Parses the last buffer of `sourceMgr` as a module and marks it a
/// gpu.container_module; null on failure (reported to the context).
OwningOpRef<ModuleOp> parseCompilerInput(llvm::SourceMgr &sourceMgr,
                                         MLIRContext &context);

/// Gives every public host function with a body a C interface
/// (`_mlir_ciface_<name>`), as the compiled library exports.
void markCInterfaces(ModuleOp module);

/// Runs the tile GPU pipeline on `module` (kernels to an embedded cubin, host
/// to the LLVM dialect). With `options.emitPTX`, `ptx` receives each kernel
/// module's PTX. `instrument` may add instrumentation to the pass manager
/// before it runs. Failures are diagnostics on the module's context.
LogicalResult
lowerModule(ModuleOp module, const CompilerOptions &options,
            std::vector<KernelPTX> *ptx = nullptr,
            llvm::function_ref<void(PassManager &)> instrument = {});

/// Translates a lowered module to host LLVM IR and writes `kind` to
/// `outputPath` (a shared library also needs `options.runtimeDir`).
llvm::Error writeHostOutput(ModuleOp module, const CompilerOptions &options,
                            HostOutputKind kind, llvm::StringRef outputPath);

} // namespace tile
} // namespace mlir

#endif // TILE_COMPILER_COMPILER_H
