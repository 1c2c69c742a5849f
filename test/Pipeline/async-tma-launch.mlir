// The TMA kernel of an async launch lowers through the whole pipeline; the
// host synchronises on the launch stream (not an event), and no branch
// carries the token.
// RUN: tile-opt %s --tile-gpu-pipeline=format=isa | FileCheck %s
// CHECK-LABEL: llvm.func @async_host
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK: %[[MAP:.*]] = llvm.call @tileTensorMapGetCached(
// CHECK: %[[OK:.*]] = llvm.icmp "ne" %[[MAP]], %{{.*}} : !llvm.ptr
// CHECK: %[[PTR:.*]] = llvm.select %[[OK]], %[[MAP]], %{{.*}} : i1, !llvm.ptr
// CHECK: %[[GX:.*]] = llvm.select %[[OK]], %{{.*}}, %{{.*}} : i1, i64
// CHECK: %[[V:.*]] = llvm.load %[[PTR]] : !llvm.ptr -> !llvm.array<16 x i64>
// CHECK-NOT: llvm.cond_br
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @k2::@load blocks in (%[[GX]], {{.*}}, %[[V]] : !llvm.array<16 x i64>)
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// CHECK-NOT: mgpuEventSynchronize
// CHECK: gpu.binary @k2
// CHECK-SAME: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
!ref2 = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @async_host(%A: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 4096 : i32
    %dep = gpu.wait async
    %t = gpu.launch_func async [%dep] @k2::@load blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem args(%A : memref<8x256xf16>)
    gpu.wait [%t]
    return
  }
  gpu.module @k2 {
    gpu.func @load(%A: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !ref2
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref2, memref<8x256xf16>, !bars
      gpu.return
    }
  }
}
