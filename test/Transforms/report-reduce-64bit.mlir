// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s

// Bitwise reduces on 64-bit elements: on the H200 `and`/`or` through an
// INT64 tensor map trap (CUDA error 715), while UINT64 maps work. Signless
// and signed 64-bit and/or/xor are declined (the simt atomics take them);
// unsigned 64-bit keeps TMA. 32-bit maps of either sign work.

!s64 = memref<8x16xi64, #tile.layout<(8, 16)>, #gpu.address_space<workgroup>>
!u64 = memref<8x16xui64, #tile.layout<(8, 16)>, #gpu.address_space<workgroup>>
!s32 = memref<8x32xi32, #tile.layout<(8, 32)>, #gpu.address_space<workgroup>>

func.func @reduce_64bit(%g: memref<16x16xi64>, %u: memref<16x16xui64>,
                        %h: memref<16x32xi32>, %s: !s64, %su: !u64, %s3: !s32) {
  // CHECK: "selected":"simt","declined":[{"variant":"tma","reason":"reduce-type: reduce and does not support i64 (an INT64 tensor map traps on sm_90; ui64 works)","rule":"reduce-type"}]
  tile.copy_async %g[0, 0] [8, 16], %s[0, 0] [8, 16] {reduce = "and"} : memref<16x16xi64>, !s64
  // CHECK: "selected":"simt","declined":[{"variant":"tma","reason":"reduce-type: reduce or does not support i64 (an INT64 tensor map traps on sm_90; ui64 works)","rule":"reduce-type"}]
  tile.copy_async %g[0, 0] [8, 16], %s[0, 0] [8, 16] {reduce = "or"} : memref<16x16xi64>, !s64
  // CHECK: "selected":"simt","declined":[{"variant":"tma","reason":"reduce-type: reduce xor does not support i64 (an INT64 tensor map traps on sm_90; ui64 works)","rule":"reduce-type"}]
  tile.copy_async %g[0, 0] [8, 16], %s[0, 0] [8, 16] {reduce = "xor"} : memref<16x16xi64>, !s64
  // CHECK: "selected":"tma",{{.*}}"data_type":"u64"
  tile.copy_async %u[0, 0] [8, 16], %su[0, 0] [8, 16] {reduce = "and"} : memref<16x16xui64>, !u64
  // CHECK: "selected":"tma",{{.*}}"data_type":"u64"
  tile.copy_async %u[0, 0] [8, 16], %su[0, 0] [8, 16] {reduce = "xor"} : memref<16x16xui64>, !u64
  // CHECK: "selected":"tma",{{.*}}"data_type":"i32"
  tile.copy_async %h[0, 0] [8, 32], %s3[0, 0] [8, 32] {reduce = "or"} : memref<16x32xi32>, !s32
  // Min/max on signed 64-bit work through TMA.
  // CHECK: "selected":"tma",{{.*}}"data_type":"i64"
  tile.copy_async %g[0, 0] [8, 16], %s[0, 0] [8, 16] {reduce = "min"} : memref<16x16xi64>, !s64
  return
}
