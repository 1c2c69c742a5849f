// Warpgroup-wide tile.copy through the TMA: a CTA of two warpgroups, each
// moving its own 32 rows of A per iteration through its own half of a shared
// tile. Per iteration, warpgroup g (threads 128g..128g+127):
//   loads A's rows 64i + 32g.. into rows 32g.. of S (one thread of the
//   warpgroup issues, the warpgroup waits on its own mbarrier);
//   every thread of the warpgroup reads its share of those rows from S
//   (generic loads, which the wait makes safe) into C;
//   stores the same rows of S to B (one thread issues, the warpgroup waits on
//   the bulk group and its named barrier).
// Two iterations: each load's mbarrier completes twice, so the phase counters
// are exercised. B and C must equal A.
!S = memref<64x64xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @warpgroup_tma_copy(%A: memref<128x64xf16>, %B: memref<128x64xf16>,
                                %C: memref<128x64xf16>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               workgroup(%s : !S) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %g = arith.divui %tx, %c128 : index
      %t = arith.remui %tx, %c128 : index
      %srow = arith.muli %g, %c32 : index
      scf.for %i = %c0 to %c2 step %c1 {
        %base = arith.muli %i, %c64 : index
        %row = arith.addi %base, %srow : index
        tile.copy %s[%srow, 0] [32, 64], %A[%row, 0] [32, 64] {scope = "warpgroup"}
            : !S, memref<128x64xf16>
        // Thread t of the warpgroup: row t/4 of the 32, columns 16(t%4)..
        // 16(t%4)+15.
        %r = arith.divui %t, %c4 : index
        %q = arith.remui %t, %c4 : index
        %col0 = arith.muli %q, %c16 : index
        scf.for %j = %c0 to %c16 step %c1 {
          %col = arith.addi %col0, %j : index
          %sr = arith.addi %srow, %r : index
          %gr = arith.addi %row, %r : index
          %v = memref.load %s[%sr, %col] : !S
          memref.store %v, %C[%gr, %col] : memref<128x64xf16>
        }
        tile.copy %B[%row, 0] [32, 64], %s[%srow, 0] [32, 64] {scope = "warpgroup"}
            : memref<128x64xf16>, !S
      }
      gpu.terminator
    }
    return
  }
}
