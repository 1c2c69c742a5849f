// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s

// The facts the IR proves before planning, seen through the plan report:
// divisors of dynamic inner offsets, shared base alignments from arena
// offsets and stage strides, and regions against the shards of a
// multi-shard global layout. Each misaligned case declines TMA with its
// rule id and values; its aligned neighbour is planned.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!s = memref<8x64xf16, #tile.layout<(8, 64)>, #gpu.address_space<workgroup>>
!s16 = memref<8x16xf16, #tile.layout<(8, 16)>, #gpu.address_space<workgroup>>
!st = memref<3x1x96xf16, #tile.layout<(3, 1, 96)>, #gpu.address_space<workgroup>>
!st1 = memref<1x96xf16, #tile.layout<(1, 96)>, #gpu.address_space<workgroup>>
!gl = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1)>>
!gr = memref<8x64xf16, #tile.layout<(2, 4, 64) : (4096, 64, 1)>>
!s3 = memref<3x64xf16, #tile.layout<(3, 64)>, #gpu.address_space<workgroup>>

func.func @facts(%g: memref<8x256xf16>, %g96: memref<4x96xf16>, %gl: !gl, %gr: !gr,
                 %bar: !bars, %k: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %s = tile.arena_view [0] : !s
  %k8 = arith.muli %k, %c8 : index

  // 8k + 4 is a multiple of 4, not of 8: 8 B, not 16.
  %o1 = arith.addi %k8, %c4 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"inner-coord-align: inner coordinate s0 x 2 B is not provably a multiple of 16 B","rule":"inner-coord-align"}],"bytes":1024}
  tile.copy_async %s[0, 0] [8, 64], %g[0, %o1] [8, 64] barrier(%bar[%c0]) : !s, memref<8x256xf16>, !bars

  // 8k + 16 is a multiple of 8: 16 B.
  %o2 = arith.addi %k8, %c16 : index
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],{{.*}}"bytes":1024}
  tile.copy_async %s[0, 0] [8, 64], %g[0, %o2] [8, 64] barrier(%bar[%c0]) : !s, memref<8x256xf16>, !bars

  // 4 * 3^18 * k exceeds 2^30 as a divisor bound but is only a multiple of
  // 4 (8 B), not of 2^30.
  %c3p18 = arith.constant 387420489 : index
  %k3 = arith.muli %k, %c3p18 : index
  %o3 = arith.muli %k3, %c4 : index
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"inner-coord-align: inner coordinate s0 x 2 B is not provably a multiple of 16 B","rule":"inner-coord-align"}],"bytes":1024}
  tile.copy_async %s[0, 0] [8, 64], %g[0, %o3] [8, 64] barrier(%bar[%c0]) : !s, memref<8x256xf16>, !bars

  // An arena view at 1088 = 17 x 64 is 64-byte aligned.
  %a1088 = tile.arena_view [1088] : !s
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"smem-align: shared buffer alignment 64 B is not a multiple of 128","rule":"smem-align"}],"bytes":1024}
  tile.copy_async %a1088[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) : !s, memref<8x256xf16>, !bars
  %a1152 = tile.arena_view [1152] : !s
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],{{.*}}"bytes":1024}
  tile.copy_async %a1152[0, 0] [8, 64], %g[0, 0] [8, 64] barrier(%bar[%c0]) : !s, memref<8x256xf16>, !bars

  // Stages 192 B apart: a stage is only 64-byte aligned.
  %stages = tile.arena_view [0] : !st
  %stage = tile.stage %stages[%k] : !st -> !st1
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"smem-align: shared buffer alignment 64 B is not a multiple of 128","rule":"smem-align"}],"bytes":192}
  tile.copy_async %stage[0, 0] [1, 96], %g96[0, 0] [1, 96] barrier(%bar[%c0]) : !st1, memref<4x96xf16>, !bars
  // Its first stage, addressed directly, is 1024-byte aligned.
  %first = tile.arena_view [0] : !st1
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],{{.*}}"bytes":192}
  tile.copy_async %first[0, 0] [1, 96], %g96[0, 0] [1, 96] barrier(%bar[%c0]) : !st1, memref<4x96xf16>, !bars

  // Global columns as (4, 64) : (512, 1): [48, 64) ends on the shard
  // boundary, [56, 72) crosses it.
  %s16 = tile.arena_view [0] : !s16
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],{{.*}}"box_dim":[16,8,1]{{.*}}"issues":[{"smem_byte_offset":0,"coords":[48,0,0]}],"guards":[],"bytes":256}
  tile.copy_async %s16[0, 0] [8, 16], %gl[0, 48] [8, 16] barrier(%bar[%c0]) : !s16, !gl, !bars
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"region-split: global dimension 1 region [56, +16) crosses a boundary of a shard of extent 64","rule":"region-split"}],"bytes":256}
  tile.copy_async %s16[0, 0] [8, 16], %gl[0, 56] [8, 16] barrier(%bar[%c0]) : !s16, !gl, !bars

  // Global rows as (2, 4) : (4096, 64): rows [5, 8) end on the tensor's end
  // and a shard boundary (one box of 3 x 64 fused elements at 64 in the
  // second block), rows [2, 5) cross the boundary by one.
  %s3 = tile.arena_view [0] : !s3
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{{{.*}}"global_dim":[256,2],"global_strides":[8192],"box_dim":[192,1]{{.*}}"issues":[{"smem_byte_offset":0,"coords":[64,1]}],"guards":[],"bytes":384}
  tile.copy_async %s3[0, 0] [3, 64], %gr[5, 0] [3, 64] barrier(%bar[%c0]) : !s3, !gr, !bars
  // CHECK-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"simt","declined":[{"variant":"tma","reason":"region-split: global dimension 0 region [2, +3) crosses a boundary of a shard of extent 4","rule":"region-split"}],"bytes":384}
  tile.copy_async %s3[0, 0] [3, 64], %gr[2, 0] [3, 64] barrier(%bar[%c0]) : !s3, !gr, !bars
  return
}
