// RUN: tile-opt %s --tile-plan-copies --convert-tile-to-nvvm | FileCheck %s

// The collective variant: `tile.copy` with a scope spreads the elements over
// the scope's threads and ends with the scope's barrier.

!swz = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

// tile.copy across a CTA: thread t moves elements t, t + n, ...; swizzled
// shared addresses XOR bits [4,7) with bits [7,10); a barrier ends it.
// CHECK-LABEL: func.func @collective_cta
func.func @collective_cta(%g: memref<8x64xf16>, %s: !swz) {
  // The linear thread id tx + bx * (ty + by * tz) and the CTA size.
  // CHECK: %[[TX:.*]] = gpu.thread_id x
  // CHECK: %[[TY:.*]] = gpu.thread_id y
  // CHECK: %[[TZ:.*]] = gpu.thread_id z
  // CHECK: %[[BX:.*]] = gpu.block_dim x
  // CHECK: %[[BY:.*]] = gpu.block_dim y
  // CHECK: %[[TZBY:.*]] = arith.muli %[[TZ]], %[[BY]] : index
  // CHECK: %[[ZY:.*]] = arith.addi %[[TY]], %[[TZBY]] : index
  // CHECK: %[[HI:.*]] = arith.muli %[[ZY]], %[[BX]] : index
  // CHECK: %[[TID:.*]] = arith.addi %[[TX]], %[[HI]] : index
  // CHECK: %[[BX2:.*]] = gpu.block_dim x
  // CHECK: %[[BY2:.*]] = gpu.block_dim y
  // CHECK: %[[BXY:.*]] = arith.muli %[[BX2]], %[[BY2]] : index
  // CHECK: %[[BZ:.*]] = gpu.block_dim z
  // CHECK: %[[N:.*]] = arith.muli %[[BXY]], %[[BZ]] : index
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
  // A warpgroup is 128 threads: the lane and the loop step are both 128.
  // CHECK: %[[WG:.*]] = arith.constant 128 : index
  // CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %[[WG]] : index
  // CHECK: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %[[WG]] {
  // CHECK: scf.for %{{.*}} = %[[LANE]] to %{{.*}} step %[[WG]] {
  // Warpgroup w syncs on named barrier w + 1 (barrier 0 is the CTA's
  // __syncthreads) with its 128 threads.
  // CHECK: %[[GROUP:.*]] = arith.divui %{{.*}}, %{{.*}} : index
  // CHECK: %[[ONE:.*]] = arith.constant 1 : index
  // CHECK: %[[IDX:.*]] = arith.addi %[[GROUP]], %[[ONE]] : index
  // CHECK: %[[ID:.*]] = arith.index_cast %[[IDX]] : index to i32
  // CHECK: %[[COUNT:.*]] = arith.constant 128 : i32
  // CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
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
