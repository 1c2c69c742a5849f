/*===- tile-c/Compile.h - C API: compile a module to a library ----*- C -*-===*\
|*                                                                            *|
|* Runs what tile-compile runs, in process: parse a module of host functions  *|
|* that launch tile-dialect kernels, lower it with the tile GPU pipeline and  *|
|* link the host code into a shared library, handing back the plans, the      *|
|* entries' signatures, the PTX and the IR at chosen stages on the way.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TILE_C_COMPILE_H
#define TILE_C_COMPILE_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An empty string takes the default.
struct MlirTileCompileOptions {
  /// GPU chip (default sm_90a).
  MlirStringRef chip;
  /// CUDA toolkit whose ptxas builds the cubin (default /usr/local/cuda).
  MlirStringRef toolkit;
  /// Folder of libtile_runtime.so the shared library links against.
  MlirStringRef runtimeDir;
  /// Path of the shared library to write; empty: stop after lowering.
  MlirStringRef output;
  /// Comma-separated stages whose IR to hand back: "input" (as parsed),
  /// a pass argument such as "tile-plan-copies" (after each run of that
  /// pass), "all" (after every pass) and "lowered" (the final module).
  MlirStringRef stages;
  /// Hand back each kernel module's PTX.
  bool emitPTX;
  /// Turn the memref.copy and linalg.copy ops between global and shared
  /// memory that every thread of a kernel runs into CTA-wide tile.copy ops
  /// first (tile-convert-upstream-copies; docs/embedding.md, "Bringing
  /// upstream copies").
  bool convertUpstreamCopies;
};
typedef struct MlirTileCompileOptions MlirTileCompileOptions;

/// Receives one product of the compile: `kind` is
///   "rule":       `name` the rule id (docs/rules.md) of the diagnostic that
///                 comes next, for a diagnostic about a broken rule;
///   "diagnostic": `name` the location ("file:line:col", or empty), `text`
///                 "<severity>: <message>", then a line per note;
///   "plan":       `text` one plan report line (JSON) per tile.copy_async
///                 and tile.copy_im2col the pipeline issues, in order,
///                 including the TMA copy each CTA- or warpgroup-wide
///                 tile.copy (a converted upstream copy too) becomes
///                 (docs/plan-report.md);
///   "entry":      `name` a host function with a C entry point, `text` its
///                 signature as JSON (docs/python.md);
///   "ptx":        `name` a kernel module, `text` its PTX;
///   "mlir":       `name` a stage, `text` the IR after it.
typedef void (*MlirTileCompileCallback)(MlirStringRef kind, MlirStringRef name,
                                        MlirStringRef text, void *userData);

/// Compiles `source` (its diagnostics name it `sourceName`). Returns failure
/// when parsing, the pipeline or the host output failed; the reasons came
/// through the callback as diagnostics.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirTileCompile(MlirStringRef source, MlirStringRef sourceName,
                const MlirTileCompileOptions *options,
                MlirTileCompileCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // TILE_C_COMPILE_H
