// RUN: tile-opt %s --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi | FileCheck %s
// RUN: tile-opt %s --tile-gpu-pipeline=format=isa | FileCheck %s --check-prefix=LLVM

// An async launch on the caller's stream picks its version in a branch; its
// token is that stream, so later users take the stream and nothing flows out
// of the branch.

!s64 = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host(
  // CHECK-SAME: %[[A:.*]]: memref<?x?xf16>, %[[STREAM:.*]]: !gpu.async.token) -> !gpu.async.token
  // CHECK: scf.if %{{.*}} {
  // CHECK: func.call @tileRuntimeNoteLaunchVersion(%{{.*}}, %c0_i32, %{{.*}})
  // CHECK: scf.if
  // CHECK: gpu.launch_func async [%[[STREAM]]] @m::@k {{.*}}args(%[[A]] : memref<?x?xf16>, %{{.*}} : !llvm.array<16 x i64>)
  // CHECK: } else {
  // CHECK: func.call @tileRuntimeNoteLaunchVersion(%{{.*}}, %c1_i32, %{{.*}})
  // CHECK: gpu.launch_func async [%[[STREAM]]] @m::@k_fallback {{.*}}args(%[[A]] : memref<?x?xf16>)
  // CHECK: } {tile.version_choice}
  // CHECK: return %[[STREAM]] : !gpu.async.token
  // LLVM-LABEL: llvm.func @host(
  // LLVM-SAME: %[[S:arg[0-9]+]]: !llvm.ptr) -> !llvm.ptr
  // LLVM: gpu.launch_func <%[[S]] : !llvm.ptr> @m::@k blocks
  // LLVM: gpu.launch_func <%[[S]] : !llvm.ptr> @m::@k_fallback blocks
  // LLVM: llvm.return %[[S]] : !llvm.ptr
  func.func @host(%A: memref<?x?xf16>, %stream: !gpu.async.token) -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %smem = arith.constant 8192 : i32
    %t = gpu.launch_func async [%stream] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %smem args(%A : memref<?x?xf16>)
    return %t : !gpu.async.token
  }
  gpu.module @m {
    gpu.func @k(%A: memref<?x?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !s64
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [64, 64], %A[0, 0] [64, 64] barrier(%bar[%c0]) : !s64, memref<?x?xf16>, !bars
      gpu.return
    }
  }
}
