// --tile-gpu-pipeline counts the bytes of tile.arrive_expect_tx (6 x 256
// f16, two rows past the tensor: 3072) and checks the asynchronous protocol;
// verify-async=false skips the check, insert-proxy-fences repairs the fence.
// RUN: tile-opt %s --tile-gpu-pipeline="format=none device-only=true" | FileCheck %s
// RUN: not tile-opt %S/Inputs/async-fence-wrong.mlir --tile-gpu-pipeline=format=none -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: tile-opt %S/Inputs/async-fence-wrong.mlir --tile-gpu-pipeline="format=none verify-async=false" -o /dev/null
// RUN: tile-opt %S/Inputs/async-fence-wrong.mlir --tile-gpu-pipeline="format=none device-only=true insert-proxy-fences=true" | FileCheck %s --check-prefix=FENCE

// ERR: async-fence-wrong.mlir:17:9: error: async-proxy-fence: this TMA store reads shared bytes [0, 4096) that a generic write (tile.copy) stored at bytes [0, 4096) with no fence.proxy.async on the path between them
// ERR: async-fence-wrong.mlir:12:7: note: the generic write

// The fence sits between the copy's loop and the barrier, before the store.
// FENCE: llvm.func @copy_kernel(
// FENCE: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// FENCE-NEXT: nvvm.barrier0
// FENCE: nvvm.cp.async.bulk.tensor.global.shared.cta

// CHECK-LABEL: llvm.func @tx(
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(3072 : index) : i64
// CHECK: %[[TX:.*]] = llvm.trunc %[[BYTES]] : i64 to i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[TX]] : !llvm.ptr<3>, i32
!smem = memref<6x256xf16, #tile.layout<(6, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @tx(%A: memref<4x256xf16>, %B: memref<4x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ticks = arith.constant 10000000 : index
      %phase = arith.constant false
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      tile.copy_async %s[0, 0] [6, 256], %A[0, 0] [6, 256] barrier(%bar[%c0])
          : !smem, memref<4x256xf16>, !bars
      tile.arrive_expect_tx %bar[%c0] : !bars
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      tile.copy %B[0, 0] [4, 256], %s[0, 0] [4, 256] {scope = "thread"}
          : memref<4x256xf16>, !smem
      gpu.return
    }
  }
}
