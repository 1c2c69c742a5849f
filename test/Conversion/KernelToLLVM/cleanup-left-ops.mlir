// An op the kernel lowering leaves (affine has no conversion to LLVM here)
// is still canonicalized with cleanup: over a kernel of only LLVM and NVVM
// ops the pass uses their patterns alone, over any other the full set, as
// the canonicalize pass would. The two affine.apply compose into one.
// RUN: tile-opt %s --pass-pipeline='builtin.module(gpu.module(convert-tile-kernel-to-llvm{cleanup=true}))' | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(gpu.module(convert-tile-kernel-to-llvm{cleanup=true}))' > %t.fused
// RUN: tile-opt %s --pass-pipeline='builtin.module(gpu.module(cse,convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-gpu-to-nvvm,tile-finalize-kernel-abi,convert-nvvm-to-llvm,reconcile-unrealized-casts,canonicalize,cse))' > %t.separate
// RUN: diff %t.fused %t.separate

// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 * 2 + 2)>
// CHECK: llvm.func @keeps_affine(%[[N:[a-z0-9]+]]: i64,
// CHECK: %[[IDX:.*]] = builtin.unrealized_conversion_cast %[[N]] : i64 to index
// CHECK-NEXT: %[[V:.*]] = affine.apply #[[MAP]]()[%[[IDX]]]
// CHECK-NOT: affine.apply
// CHECK: llvm.return
gpu.module @left {
  gpu.func @keeps_affine(%n: index, %out: memref<1xindex>) kernel {
    %c0 = arith.constant 0 : index
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%n)
    %b = affine.apply affine_map<(d0) -> (d0 * 2)>(%a)
    memref.store %b, %out[%c0] : memref<1xindex>
    gpu.return
  }
}
