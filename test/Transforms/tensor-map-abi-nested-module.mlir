// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi | FileCheck %s
// A host function in a nested module: the encoder's declaration and the
// constant arrays it reads go into that module's symbol table, where its
// calls and addressof ops resolve (a fuzzer finding: they went to the
// outermost module, and the IR did not verify).

!smem = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

// CHECK: module attributes {gpu.container_module} {
// CHECK-NEXT: module attributes {gpu.container_module} {
// CHECK: llvm.mlir.global private constant @__tile_tmap_i64_64_8_4(dense<[64, 8, 4]>
// CHECK: func.func private @tileTensorMapGetCached(
// CHECK: func.func @host(
// CHECK: llvm.mlir.addressof @__tile_tmap_i64_64_8_4
// CHECK: call @tileTensorMapGetCached(
module attributes {gpu.container_module} {
  module attributes {gpu.container_module} {
    func.func @host(%A: memref<8x256xf16>) {
      %c1 = arith.constant 1 : index
      %smem = arith.constant 4096 : i32
      gpu.launch_func @k::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
          dynamic_shared_memory_size %smem args(%A : memref<8x256xf16>)
      return
    }
    gpu.module @k {
      gpu.func @load(%A: memref<8x256xf16>) kernel {
        %c0 = arith.constant 0 : index
        %s = tile.arena_view [0] : !smem
        %bar = nvgpu.mbarrier.create -> !bars
        tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !smem, memref<8x256xf16>, !bars
        gpu.return
      }
    }
  }
}
