// RUN: tile-opt %s --tile-plan-copies --convert-tile-to-nvvm | FileCheck %s

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

// A multicast load per thread: for each CTA the mask names (a loop over the
// 16 bits), the elements are stored through that CTA's window in the
// cluster's shared memory (mapa); then one proxy fence and a fence at
// cluster scope, and each named CTA's barrier completed by this copy's bytes
// at cluster scope, as the TMA's multicast completes them.
// CHECK-LABEL: func.func @multicast_load
func.func @multicast_load(%g: memref<32x64xf16>, %t: !t, %bar: !bars, %c0: index, %m: i16) {
  // CHECK: %[[BITS:.*]] = arith.extui %{{.*}} : i16 to i32
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: scf.for %[[CTA:.*]] = %{{.*}} to %[[C16]] step %{{.*}} : i32 {
  // CHECK:   %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[CTA]] : i32
  // CHECK:   %[[BIT:.*]] = arith.andi %[[SHIFTED]], %{{.*}} : i32
  // CHECK:   %[[SET:.*]] = arith.cmpi ne, %[[BIT]], %{{.*}} : i32
  // CHECK:   scf.if %[[SET]] {
  // CHECK:     scf.for
  // CHECK:       %[[PEER:.*]] = nvvm.mapa %{{.*}}, %[[CTA]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK:       llvm.store %{{.*}}, %[[PEER]] : f16, !llvm.ptr<7>
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  // CHECK-NEXT: nvvm.memory.barrier <cluster>
  // CHECK: %[[TX:.*]] = arith.constant 4096 : i32
  // CHECK: scf.for %[[TO:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
  // CHECK:   scf.if
  // CHECK:     %[[BAR:.*]] = nvvm.mapa %{{.*}}, %[[TO]] : !llvm.ptr<3> -> !llvm.ptr<7>
  // CHECK:     nvvm.mbarrier.complete_tx %[[BAR]], %[[TX]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
  tile.copy_async %t[0, 0] [64, 32], %g[0, 0] [64, 32] barrier(%bar[%c0]) multicast(%m)
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

// Contiguous, aligned runs move as 16-byte vectors. A strided global buffer's
// pointer alignment is checked at run time, with the scalar loop as the
// fallback; shared-to-shared copies of known alignment need no check.
// CHECK-LABEL: func.func @vectors_with_check
func.func @vectors_with_check(%g: memref<8x64xf16>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : !swz
  // The 16-byte vectors need the pointer's low 4 bits clear.
  // CHECK: %[[P:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
  // CHECK-NEXT: %[[C15:.*]] = arith.constant 15 : i64
  // CHECK-NEXT: %[[LOW:.*]] = arith.andi %[[P]], %[[C15]] : i64
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %[[ZERO]] : i64
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

// Exact address and bounds arithmetic: the swizzle XORs bits [4, 7) of the
// byte offset with bits [7, 10); the bounds test is 0 <= i < size on the
// row (start -3, 16 rows) and the column (40 columns), signed.
// The transaction completes on the barrier the op names, with the region's
// 8 x 64 x 2 bytes.
// CHECK-LABEL: func.func @exact_bounds_and_swizzle
// CHECK-SAME: (%{{.*}}: memref<16x40xf16>, %[[BAR:.*]]: !nvgpu.mbarrier.group<{{.*}}>, %[[BI:.*]]: index)
func.func @exact_bounds_and_swizzle(%g: memref<16x40xf16>, %bar: !bars, %c0: index) {
  // CHECK: %[[BARS:.*]] = builtin.unrealized_conversion_cast %[[BAR]]
  %s = tile.arena_view [0] : !swz
  // CHECK: %[[ARENA:.*]] = llvm.mlir.addressof @__tile_arena : !llvm.ptr<3>
  // CHECK: scf.for %[[IV:.*]] = %{{.*}} to %c64 step %{{.*}} {
  // CHECK: %[[I:.*]] = arith.index_cast %[[IV]] : index to i64
  // CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i64
  // CHECK-NEXT: %[[E:.*]] = arith.muli %[[I]], %[[C8]] : i64
  // CHECK-NEXT: %[[C64A:.*]] = arith.constant 64 : i64
  // CHECK-NEXT: %[[COLD:.*]] = arith.remsi %[[E]], %[[C64A]] : i64
  // CHECK-NEXT: %[[C0A:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[COL:.*]] = arith.addi %[[COLD]], %[[C0A]] : i64
  // CHECK-NEXT: %[[C64B:.*]] = arith.constant 64 : i64
  // CHECK-NEXT: %[[ROWD:.*]] = arith.divsi %[[E]], %[[C64B]] : i64
  // CHECK-NEXT: %[[CM3:.*]] = arith.constant -3 : i64
  // CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[ROWD]], %[[CM3]] : i64
  // CHECK: %[[C2:.*]] = arith.constant 2 : i64
  // CHECK-NEXT: %[[BYTES:.*]] = arith.muli %{{.*}}, %[[C2]] : i64
  // CHECK-NEXT: %[[C7:.*]] = arith.constant 7 : i64
  // CHECK-NEXT: %[[LINE:.*]] = arith.shrui %[[BYTES]], %[[C7]] : i64
  // CHECK-NEXT: %[[C7M:.*]] = arith.constant 7 : i64
  // CHECK-NEXT: %[[SEL:.*]] = arith.andi %[[LINE]], %[[C7M]] : i64
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i64
  // CHECK-NEXT: %[[MASK:.*]] = arith.shli %[[SEL]], %[[C4]] : i64
  // CHECK-NEXT: %[[SWZ:.*]] = arith.xori %[[BYTES]], %[[MASK]] : i64
  // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[ARENA]][%[[SWZ]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : i64
  // CHECK-NEXT: %[[Z0:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[RLO:.*]] = arith.cmpi sge, %[[ROW]], %[[Z0]] : i64
  // CHECK-NEXT: %[[RHI:.*]] = arith.cmpi slt, %[[ROW]], %[[C16]] : i64
  // CHECK-NEXT: %[[RIN:.*]] = arith.andi %[[RLO]], %[[RHI]] : i1
  // CHECK-NEXT: %[[C40:.*]] = arith.constant 40 : i64
  // CHECK-NEXT: %[[Z1:.*]] = arith.constant 0 : i64
  // CHECK-NEXT: %[[CLO:.*]] = arith.cmpi sge, %[[COL]], %[[Z1]] : i64
  // CHECK-NEXT: %[[CHI:.*]] = arith.cmpi slt, %[[COL]], %[[C40]] : i64
  // CHECK-NEXT: %[[CIN:.*]] = arith.andi %[[CLO]], %[[CHI]] : i1
  // CHECK-NEXT: %[[IN:.*]] = arith.andi %[[RIN]], %[[CIN]] : i1
  // CHECK-NEXT: %[[V:.*]] = scf.if %[[IN]] -> (vector<8xf16>) {
  // CHECK: llvm.store %[[V]], %[[DST]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: nvvm.memory.barrier <cta>
  // CHECK-NEXT: %[[BP:.*]] = llvm.extractvalue %[[BARS]][1]
  // CHECK-NEXT: %[[BIDX:.*]] = arith.index_cast %[[BI]] : index to i64
  // CHECK-NEXT: %[[MBAR:.*]] = llvm.getelementptr %[[BP]][%[[BIDX]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
  // CHECK-NEXT: %[[TX:.*]] = arith.constant 1024 : i32
  // CHECK-NEXT: nvvm.mbarrier.complete_tx %[[MBAR]], %[[TX]] : !llvm.ptr<3>, i32
  tile.copy_async %s[0, 0] [8, 64], %g[-3, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : !swz, memref<16x40xf16>, !bars
  return
}

// 60 columns: 8-element vectors would straddle the tensor's edge under
// out-of-bounds fill, 4-element vectors do not.
// CHECK-LABEL: func.func @vectors_at_the_edge
func.func @vectors_at_the_edge(%g: memref<16x60xf16, strided<[64, 1]>>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [0] : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  // CHECK-NOT: vector<8xf16>
  // CHECK: scf.for {{.*}} to %c128 step
  // CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> vector<4xf16>
  // CHECK-NOT: vector<8xf16>
  // CHECK: return
  tile.copy_async %s[0, 0] [8, 64], %g[4, 8] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>, memref<16x60xf16, strided<[64, 1]>>, !bars
  return
}

// Per-element reduces pick the atomic by signedness.
// CHECK-LABEL: func.func @reduce_signedness
func.func @reduce_signedness(%u: memref<8x64xui32>, %su: memref<8x64xui32, #gpu.address_space<workgroup>>,
                             %i: memref<8x64xi32>, %si: memref<8x64xi32, #gpu.address_space<workgroup>>) {
  // CHECK: llvm.atomicrmw umin %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %u[0, 0] [8, 64], %su[0, 0] [8, 64] {dispatch = "simt", reduce = "min"}
      : memref<8x64xui32>, memref<8x64xui32, #gpu.address_space<workgroup>>
  // CHECK: llvm.atomicrmw umax %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %u[0, 0] [8, 64], %su[0, 0] [8, 64] {dispatch = "simt", reduce = "max"}
      : memref<8x64xui32>, memref<8x64xui32, #gpu.address_space<workgroup>>
  // CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %i[0, 0] [8, 64], %si[0, 0] [8, 64] {dispatch = "simt", reduce = "min"}
      : memref<8x64xi32>, memref<8x64xi32, #gpu.address_space<workgroup>>
  // CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %i[0, 0] [8, 64], %si[0, 0] [8, 64] {dispatch = "simt", reduce = "max"}
      : memref<8x64xi32>, memref<8x64xi32, #gpu.address_space<workgroup>>
  // CHECK: llvm.atomicrmw uinc_wrap %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %u[0, 0] [8, 64], %su[0, 0] [8, 64] {dispatch = "simt", reduce = "inc"}
      : memref<8x64xui32>, memref<8x64xui32, #gpu.address_space<workgroup>>
  // CHECK: llvm.atomicrmw udec_wrap %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
  tile.copy_async %u[0, 0] [8, 64], %su[0, 0] [8, 64] {dispatch = "simt", reduce = "dec"}
      : memref<8x64xui32>, memref<8x64xui32, #gpu.address_space<workgroup>>
  return
}

// Vectors need a 16-byte aligned shared base: 8 bytes into the arena the copy
// stays scalar, 16 bytes in it moves 4-element vectors.
// CHECK-LABEL: func.func @vector_base_misaligned
// CHECK-NOT: vector<4xf32>
// CHECK-LABEL: func.func @vector_base_aligned
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
func.func @vector_base_misaligned(%g: memref<8x64xf32>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [8] : memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  return
}
func.func @vector_base_aligned(%g: memref<8x64xf32>, %bar: !bars, %c0: index) {
  %s = tile.arena_view [16] : memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
  tile.copy_async %s[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) {dispatch = "simt"}
      : memref<8x64xf32, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>, memref<8x64xf32>, !bars
  return
}

// A store into a global buffer of run-time size may reach past its edge (the
// fallback version of a guarded tiled copy): each element is written only
// inside the tensor, as the TMA would clip it, and element by element.
// CHECK-LABEL: func.func @clipped_store
func.func @clipped_store(%g: memref<?x?xf16, strided<[?, ?]>>, %t: !t, %i: index) {
  // CHECK: scf.for
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f16
  // CHECK: %[[R:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
  // CHECK: %[[C:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr
  tile.copy_async %g[%i, 0] [64, 32], %t[0, 0] [64, 32] : memref<?x?xf16, strided<[?, ?]>>, !t
  return
}
