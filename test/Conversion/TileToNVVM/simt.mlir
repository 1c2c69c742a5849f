// RUN: tile-opt %s --convert-tile-to-nvvm | FileCheck %s

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!t = memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>
!swz = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

// A transposed shared layout: TMA declines, simt copies element by element
// with bounds checks and zero fill, then completes the caller's transaction
// count after fencing.
// CHECK-LABEL: func.func @transposed_load
func.func @transposed_load(%g: memref<32x64xf16>, %t: !t, %bar: !bars, %c0: index) {
  // CHECK: scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK: %[[V:.*]] = scf.if %{{.*}} -> (f16) {
  // CHECK: llvm.load %{{.*}} : !llvm.ptr -> f16
  // CHECK: } else {
  // CHECK: llvm.mlir.zero : f16
  // CHECK: llvm.store %[[V]], %{{.*}} : f16, !llvm.ptr<3>
  // CHECK: }
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  // CHECK: nvvm.memory.barrier <cta>
  // CHECK: %[[TX:.*]] = arith.constant 4096 : i32
  // CHECK: nvvm.mbarrier.complete_tx %{{.*}}, %[[TX]] : !llvm.ptr<3>, i32
  tile.copy_async %t[0, 0] [64, 32], %g[0, 0] [64, 32] barrier(%bar[%c0])
      : !t, memref<32x64xf16>, !bars
  return
}

// NaN fill on the simt path.
// CHECK-LABEL: func.func @nan_fill
func.func @nan_fill(%g: memref<32x64xf16>, %t: !t, %bar: !bars, %c0: index) {
  // CHECK: arith.constant 0x7E00 : f16
  tile.copy_async %t[0, 0] [64, 32], %g[-8, 0] [64, 32] barrier(%bar[%c0]) {dispatch = "simt", oob = "nan"}
      : !t, memref<32x64xf16>, !bars
  return
}

// A simt reduce store uses atomics.
// CHECK-LABEL: func.func @reduce_store
func.func @reduce_store(%g: memref<8x64xi32>, %s: memref<8x64xi32, #gpu.address_space<workgroup>>) {
  // CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %g[0, 0] [8, 64], %s[0, 0] [8, 64] {dispatch = "simt", reduce = "max"}
      : memref<8x64xi32>, memref<8x64xi32, #gpu.address_space<workgroup>>
  return
}

// tile.copy across a CTA: thread t moves elements t, t + n, ...; swizzled
// shared addresses XOR bits [4,7) with bits [7,10); a barrier ends it.
// CHECK-LABEL: func.func @collective_cta
func.func @collective_cta(%g: memref<8x64xf16>, %s: !swz) {
  // CHECK: %[[TX:.*]] = gpu.thread_id x
  // CHECK: %[[TID:.*]] = arith.addi %[[TX]], %{{.*}} : index
  // CHECK: %[[N:.*]] = arith.muli %{{.*}}, %{{.*}} : index
  // CHECK: scf.for %{{.*}} = %[[TID]] to %{{.*}} step %[[N]] {
  // CHECK: arith.shrui %{{.*}}, %{{.*}} : i64
  // CHECK: arith.andi %{{.*}}, %{{.*}} : i64
  // CHECK: arith.shli
  // CHECK: arith.xori
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr
  // CHECK: }
  // CHECK: gpu.barrier
  tile.copy %g[0, 0] [8, 64], %s[0, 0] [8, 64] {scope = "cta"} : memref<8x64xf16>, !swz
  return
}

// CHECK-LABEL: func.func @collective_warp
func.func @collective_warp(%g: memref<8x64xf16>, %s: !swz) {
  // CHECK: %[[W:.*]] = arith.constant 32 : index
  // CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %[[W]] : index
  // CHECK: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %[[W]] {
  // CHECK: nvvm.bar.warp.sync
  tile.copy %s[0, 0] [8, 64], %g[0, 0] [8, 64] {scope = "warp"} : !swz, memref<8x64xf16>
  return
}

// CHECK-LABEL: func.func @collective_warpgroup
func.func @collective_warpgroup(%g: memref<8x64xf16>, %s: !swz) {
  // CHECK: arith.constant 128 : index
  // CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
  tile.copy %s[0, 0] [8, 64], %g[0, 0] [8, 64] {scope = "warpgroup"} : !swz, memref<8x64xf16>
  return
}

// CHECK-LABEL: func.func @collective_thread
func.func @collective_thread(%g: memref<8x64xf16>, %s: !swz) {
  // CHECK: scf.for
  // CHECK-NOT: gpu.barrier
  // CHECK: return
  tile.copy %s[0, 0] [8, 64], %g[0, 0] [8, 64] {scope = "thread"} : !swz, memref<8x64xf16>
  return
}

// Contiguous, aligned runs move as 16-byte vectors. A strided global buffer's
// pointer alignment is checked at run time, with the scalar loop as the
// fallback; shared-to-shared copies of known alignment need no check.
// CHECK-LABEL: func.func @vectors_with_check
func.func @vectors_with_check(%g: memref<8x64xf16>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : !swz
  // CHECK: %[[P:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
  // CHECK: %[[LOW:.*]] = arith.andi %[[P]], %{{.*}} : i64
  // CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i64
  // CHECK: scf.if %[[OK]] {
  // CHECK:   scf.for {{.*}} to %c64 step
  // CHECK:     scf.if %{{.*}} -> (vector<8xf16>) {
  // CHECK:       llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xf16>
  // CHECK:     } else {
  // CHECK:       arith.constant dense<0x7E00> : vector<8xf16>
  // CHECK:     llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: } else {
  // CHECK:   scf.for {{.*}} to %c512 step
  // CHECK:     llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  tile.copy_async %s[0, 0] [8, 64], %g[-2, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt", oob = "nan"}
      : !swz, memref<8x64xf16>, !bars
  return
}

// CHECK-LABEL: func.func @vectors_shared
func.func @vectors_shared() {
  %a = tile.arena_view [0] : !swz
  %b = tile.arena_view [1024] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  // CHECK-NOT: llvm.ptrtoint
  // CHECK: scf.for
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: gpu.barrier
  tile.copy %b[0, 0] [8, 64], %a[0, 0] [8, 64] {scope = "cta"}
      : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>, !swz
  return
}

// Unaligned inner offsets stay scalar: 8-element vectors would straddle.
// CHECK-LABEL: func.func @scalar_unaligned
func.func @scalar_unaligned() {
  %a = tile.arena_view [0] : !swz
  // CHECK-NOT: vector<
  // CHECK: return
  tile.copy %a[0, 0] [8, 60], %a[0, 3] [8, 60] {scope = "cta"} : !swz, !swz
  return
}
