// Input the pipeline cannot lower fails with a located diagnostic and a
// non-zero exit, from tile-opt and from tile-compile alike.
// RUN: not tile-opt %S/Inputs/bulk-commit-kernel.mlir --tile-gpu-pipeline=chip=sm_80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tile-opt %S/Inputs/bulk-commit-kernel.mlir --tile-gpu-pipeline=chip=sm_89 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP89
// RUN: not tile-opt %S/Inputs/dynamic-marker-kernel.mlir --tile-gpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=MARKER
// RUN: not tile-opt %S/Inputs/user-func-mgpu.mlir --tile-gpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESERVED
// RUN: not tile-opt %tile_src_root/examples/copy_async_tma.mlir --tile-gpu-pipeline="format=bin toolkit=%t.no-toolkit" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not tile-compile %S/Inputs/bulk-commit-kernel.mlir --chip=sm_80 -o %t.so 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tile-compile %S/Inputs/user-func-mgpu.mlir --emit=llvm -o %t.ll 2>&1 | FileCheck %s --check-prefix=RESERVED

// CHIP: bulk-commit-kernel.mlir:1:1: error: chip: unsupported target chip 'sm_80'; the tile lowering supports sm_90, sm_90a, sm_100, sm_100a (TMA and bulk copies need sm_90 or newer)
// CHIP89: error: chip: unsupported target chip 'sm_89'
// MARKER: dynamic-marker-kernel.mlir:18:7: error: 'tile.copy_async' op offset-range: destination offsets have 1 dynamic entries but 0 offset operands; the literal -9223372036854775808 is reserved as the dynamic-offset marker
// RESERVED: user-func-mgpu.mlir:12:3: error: 'func.func' op reserved-symbol: '@mgpuLaunchKernel' is the name of a runtime entry point that the host lowering calls; rename the symbol
// TOOLKIT: copy_async_tma.mlir:{{[0-9]+}}:1: error: toolkit: CUDA toolkit directory '{{.*}}.no-toolkit' does not exist; format=bin needs ptxas from it
