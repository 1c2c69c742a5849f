// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

#swz = #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>
!smem = memref<8x256xf16, #swz, #gpu.address_space<workgroup>>
!stages = memref<3x64x64xf16, #tile.layout<(3, 64, 64) : (4096, 64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!stage = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
!rows4 = memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @load_store
func.func @load_store(%g: memref<8x256xf16>, %bar: !bars, %i: index, %mask: i16) {
  %c0 = arith.constant 0 : index
  // CHECK: %[[S:.*]] = tile.arena_view [0] : memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
  %s = tile.arena_view [0] : !smem
  // CHECK: tile.copy_async %[[S]][0, 0] [8, 256], %{{.*}}[0, 0] [8, 256] barrier(%{{.*}}[%{{.*}}]) {dispatch = "tma"} : memref<8x256xf16, {{.*}}>, memref<8x256xf16>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {dispatch = "tma"} : !smem, memref<8x256xf16>, !bars
  // CHECK: tile.copy_async %[[S]][0, 128] [8, 64], %{{.*}}[%{{.*}}, -32] [8, 64] barrier(%{{.*}}[%{{.*}}]) multicast(%{{.*}}) {cache_hint = "evict_last", oob = "nan"}
  tile.copy_async %s[0, 128] [8, 64], %g[%i, -32] [8, 64] barrier(%bar[%i]) multicast(%mask) {cache_hint = "evict_last", oob = "nan"} : !smem, memref<8x256xf16>, !bars
  // CHECK: tile.copy_async %{{.*}}[0, 0] [8, 256], %[[S]][0, 0] [8, 256] {reduce = "add"} : memref<8x256xf16>, memref<8x256xf16, {{.*}}>
  tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {reduce = "add"} : memref<8x256xf16>, !smem
  // The prefetch form: no barrier.
  // CHECK: tile.copy_async %[[S]][0, 0] [8, 256], %{{.*}}[%{{.*}}, 0] [8, 256] {cache_hint = "evict_last", prefetch} : memref<8x256xf16, {{.*}}>, memref<8x256xf16>{{$}}
  tile.copy_async %s[0, 0] [8, 256], %g[%i, 0] [8, 256] {cache_hint = "evict_last", prefetch} : !smem, memref<8x256xf16>
  // The sm_100a forms: a pair-CTA load, a four-row gather and scatter.
  // CHECK: tile.copy_async %[[S]][0, 0] [8, 256], %{{.*}}[0, 0] [8, 256] barrier(%{{.*}}[%{{.*}}]) {cta_group = 2 : i32} : memref<8x256xf16, {{.*}}>, memref<8x256xf16>, !nvgpu
  tile.copy_async %s[0, 0] [8, 256], %g[0, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 2 : i32} : !smem, memref<8x256xf16>, !bars
  %rows = tile.arena_view [4096] : !rows4
  // CHECK: tile.copy_async %[[R:.*]][0, 0] [4, 64], %{{.*}}[0, 64] [4, 64] rows(%[[I:.*]], %[[C0:.*]], %[[I]], %[[C0]]) barrier(%{{.*}}[%{{.*}}]) : memref<4x64xf16, {{.*}}>, memref<8x256xf16>, !nvgpu
  tile.copy_async %rows[0, 0] [4, 64], %g[0, 64] [4, 64] rows(%i, %c0, %i, %c0) barrier(%bar[%c0]) : !rows4, memref<8x256xf16>, !bars
  // CHECK: tile.copy_async %{{.*}}[0, 128] [4, 64], %[[R]][0, 0] [4, 64] rows(%[[C0]], %[[I]], %[[C0]], %[[I]]) : memref<8x256xf16>, memref<4x64xf16, {{.*}}>{{$}}
  tile.copy_async %g[0, 128] [4, 64], %rows[0, 0] [4, 64] rows(%c0, %i, %c0, %i) : memref<8x256xf16>, !rows4
  // CHECK: tile.bulk_commit_group
  tile.bulk_commit_group
  // CHECK: tile.bulk_wait_group 0 {read}
  tile.bulk_wait_group 0 {read}
  // CHECK: tile.bulk_wait_group 2{{$}}
  tile.bulk_wait_group 2
  return
}

// A reshape: global [1, 32, 4, 64] into shared [128, 64].
// CHECK-LABEL: func.func @reshape
func.func @reshape(%g: memref<2x32x4x64xbf16, strided<[8192, 256, 64, 1], offset: 64>>, %bar: !bars) {
  %c0 = arith.constant 0 : index
  %s = tile.arena_view [4096] : memref<128x64xbf16, #tile.layout<(128, 64)>, #gpu.address_space<workgroup>>
  // CHECK: tile.copy_async %{{.*}}[0, 0] [128, 64], %{{.*}}[1, 0, 0, 0] [1, 32, 4, 64]
  tile.copy_async %s[0, 0] [128, 64], %g[1, 0, 0, 0] [1, 32, 4, 64] barrier(%bar[%c0])
      : memref<128x64xbf16, #tile.layout<(128, 64)>, #gpu.address_space<workgroup>>,
        memref<2x32x4x64xbf16, strided<[8192, 256, 64, 1], offset: 64>>, !bars
  return
}

// CHECK-LABEL: func.func @stages
func.func @stages(%g: memref<1024x64xf16>, %bar: !bars, %k: index) {
  %c0 = arith.constant 0 : index
  %buf = tile.arena_view [1024] : !stages
  // CHECK: %[[ST:.*]] = tile.stage %{{.*}}[%{{.*}}] : memref<3x64x64xf16, {{.*}}> -> memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
  %st = tile.stage %buf[%k] : !stages -> !stage
  // CHECK: tile.copy_async %[[ST]][0, 0] [64, 64], %{{.*}}[%{{.*}}, 0] [64, 64]
  tile.copy_async %st[0, 0] [64, 64], %g[%k, 0] [64, 64] barrier(%bar[%k]) : !stage, memref<1024x64xf16>, !bars
  return
}

// CHECK-LABEL: func.func @sync_copy
func.func @sync_copy(%g: memref<8x256xf16>, %s: !smem) {
  // CHECK: tile.copy %{{.*}}[0, 0] [8, 256], %{{.*}}[0, 0] [8, 256] {scope = "cta"}
  tile.copy %g[0, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"} : memref<8x256xf16>, !smem
  // CHECK: tile.copy %{{.*}}[0, 0] [8, 64], %{{.*}}[0, 64] [8, 64] {scope = "warp"}
  tile.copy %s[0, 0] [8, 64], %s[0, 64] [8, 64] {scope = "warp"} : !smem, !smem
  // CHECK: tile.copy %{{.*}}[0, 0] [1, 256], %{{.*}}[7, 0] [1, 256] :
  tile.copy %g[0, 0] [1, 256], %g[7, 0] [1, 256] : memref<8x256xf16>, memref<8x256xf16>
  return
}

// CHECK-LABEL: gpu.func @held_stage
gpu.module @held {
  gpu.func @held_stage(%A: memref<?x?xf32>, %n: index, %out: memref<?xf32>) kernel {
    %s = tile.arena_view [0] : memref<3x8x64xf32, #gpu.address_space<workgroup>>
    tile.pipeline (%n) stages(%s : memref<3x8x64xf32, #gpu.address_space<workgroup>>)
        attributes {consumers = 1, reads = #tile.consumer_reads<wgmma>, in_flight = 2} produce {
    ^bb0(%k: index, %t: memref<8x64xf32, #gpu.address_space<workgroup>>):
      tile.copy_async %t[0, 0] [8, 64], %A[0, 0] [8, 64] : memref<8x64xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
      tile.yield
    } consume {
    ^bb0(%k: index, %t: memref<8x64xf32, #gpu.address_space<workgroup>>, %c: index):
      tile.yield
    } epilogue {
    ^bb0(%c: index):
      %c0 = arith.constant 0 : index
      // CHECK: %{{.*}} = tile.held_stage 1{{$}}
      %held = tile.held_stage 1
      %v = tile.stage %s[%held] : memref<3x8x64xf32, #gpu.address_space<workgroup>> -> memref<8x64xf32, #gpu.address_space<workgroup>>
      %x = memref.load %v[%c0, %c0] : memref<8x64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%c] : memref<?xf32>
      tile.yield
    }
    gpu.return
  }
}
