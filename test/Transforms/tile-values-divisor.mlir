// A tile value divides as what the iterations region yields for it: a store
// in the epilogue at column %n0 = 64 x (a value read from memory) plans as
// TMA before the pipeline is expanded (the report) and after (the whole
// pipeline); the same store at an unscaled value is declined for TMA with
// the rule it breaks (an element-wise copy takes it).
// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s
// RUN: tile-opt %s --tile-gpu-pipeline=format=none -o /dev/null
// CHECK: "op":"tile.copy_async","direction":"s2g","selected":"tma"
// CHECK: "op":"tile.copy_async","direction":"s2g","selected":"simt","declined":[{"variant":"tma","reason":"inner-coord-align: inner coordinate s0 x 4 B is not provably a multiple of 16 B"
!A = memref<?x?xf32>
!C = memref<?x?xf32>
!S = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!T = memref<8x64xf32, #gpu.address_space<workgroup>>
gpu.module @k {
  gpu.func @f(%A: !A, %C: !C, %cols: memref<?xindex>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %s = tile.arena_view [0] : !S
    %o = tile.arena_view [4096] : !T
    tile.pipeline tiles(%n) stages(%s : !S) attributes {consumers = 1}
    iterations {
    ^bb0(%t: index):
      %col = memref.load %cols[%t] : memref<?xindex>
      %n0 = arith.muli %col, %c64 : index
      tile.yield %c0, %c1, %n0, %col : index, index, index, index
    } produce {
    ^bb0(%t: index, %n0: index, %col: index, %k: index, %x: !T):
      tile.copy_async %x[0, 0] [8, 64], %A[0, 0] [8, 64] : !T, !A
      tile.yield
    } consume {
    ^bb0(%t: index, %n0: index, %col: index, %k: index, %x: !T, %wg: index):
      tile.yield
    } epilogue {
    ^bb0(%t: index, %n0: index, %col: index, %wg: index):
      tile.copy_async %C[%c0, %n0] [8, 64], %o[0, 0] [8, 64] : !C, !T
      tile.copy_async %C[%c0, %col] [8, 64], %o[0, 0] [8, 64] : !C, !T
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      tile.yield
    }
    gpu.return
  }
}
