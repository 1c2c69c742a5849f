// UNSUPPORTED: sanitized
// (An ASan-instrumented plugin cannot load into Debian's uninstrumented mlir-opt.)
// TilePlugin in Debian's mlir-opt: the dialect plugin registers the tile
// dialect (and what its pipeline needs), the pass plugin its passes, and the
// reference demo lowers to a gpu.binary.
// RUN: mlir-opt --load-dialect-plugin=%tile_plugin --load-pass-plugin=%tile_plugin --pass-pipeline='builtin.module(tile-gpu-pipeline)' %tile_src_root/examples/copy_async_tma.mlir | FileCheck %s
// CHECK: llvm.call @tileTensorMapGetCached
// CHECK: gpu.binary @copy_async_kernel [#gpu.object<#nvvm.target<{{.*}}assembly = "{{.*}}cp.async.bulk.tensor.3d

// The plan report through the plugin.
// RUN: mlir-opt --load-dialect-plugin=%tile_plugin --load-pass-plugin=%tile_plugin --pass-pipeline='builtin.module(tile-report-copy-plans)' %tile_src_root/examples/copy_async_tma.mlir -o /dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: "selected":"tma"

// Without the plugin mlir-opt does not know the dialect.
// RUN: not mlir-opt %tile_src_root/examples/copy_async_tma.mlir 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: error:

// The transform op through the plugin: a schedule converts two upstream copies.
// RUN: mlir-opt --load-dialect-plugin=%tile_plugin --load-pass-plugin=%tile_plugin --transform-interpreter -split-input-file -verify-diagnostics %tile_src_root/test/TransformOps/convert-upstream-copy.mlir | FileCheck %s --check-prefix=TRANSFORM
// TRANSFORM-COUNT-2: tile.copy %{{.*}} {converted, scope = "cta"}
