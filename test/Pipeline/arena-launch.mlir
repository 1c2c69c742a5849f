// RUN: tile-opt %s --tile-gpu-pipeline=format=none | FileCheck %s

// A launch that states no dynamic shared memory gets the arena its kernel
// carves (two 4 KiB views: 8192 bytes): the pipeline runs tile-arena-size.

!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: llvm.func @launch
// CHECK: %[[SMEM:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: gpu.launch_func @launch_kernel::@launch_kernel {{.*}} dynamic_shared_memory_size %[[SMEM]]
module attributes {gpu.container_module} {
  func.func @launch() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %a = tile.arena_view [0] : !ref
      %b = tile.arena_view [4096] : !ref
      gpu.terminator
    }
    return
  }
}
