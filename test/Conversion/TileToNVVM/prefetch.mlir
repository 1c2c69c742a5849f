// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi '--convert-tile-to-nvvm=prefetch-tensor-maps=true' | FileCheck %s
// RUN: tile-opt %s --tile-plan-copies --tile-tensor-map-abi --convert-tile-to-nvvm | FileCheck %s --check-prefix=NOPREFETCH

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @k {
    // One prefetch per map at kernel entry, however many copies use it.
    // CHECK-LABEL: gpu.func @twice
    // CHECK-SAME: (%{{.*}}: memref<8x256xf16>, %[[MAP:.*]]: !llvm.array<16 x i64>)
    // CHECK-NEXT: %[[ADDR:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
    // CHECK-NEXT: nvvm.prefetch tensormap, %[[ADDR]] : !llvm.ptr
    // CHECK-NOT: nvvm.prefetch
    // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
    // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
    // NOPREFETCH-NOT: nvvm.prefetch
    gpu.func @twice(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
      gpu.return
    }
  }
}
