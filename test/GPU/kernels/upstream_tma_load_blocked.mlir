// What upstream's strided, unswizzled sm90 TMA-load test exercises: a
// 128x128 f16 matrix seen as its 2x2 grid of 64x64 blocks (an expand_shape and
// a transpose on the host: a rank-4 view with strides [8192, 64, 128, 1]),
// loaded into a shared 2x2x64x64 buffer where each block is contiguous. Here
// the load is a plain memref.copy of that view (--convert-upstream-copies makes
// it a CTA-wide tile.copy, which the pipeline carries through one rank-4 TMA
// load), the way back to O is a memref.copy into the same view of O (a TMA
// store), and every thread also reads the blocks back with memref.load into P.
// O = A and P = A.
!S = memref<2x2x64x64xf16, #gpu.address_space<workgroup>>
!V = memref<2x2x64x64xf16, strided<[8192, 64, 128, 1]>>
module attributes {gpu.container_module} {
  func.func @upstream_tma_load_blocked(%A: memref<128x128xf16>,
                                       %O: memref<128x128xf16>,
                                       %P: memref<128x128xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %ab = memref.expand_shape %A [[0, 1], [2, 3]] output_shape [2, 64, 2, 64]
        : memref<128x128xf16> into memref<2x64x2x64xf16>
    %av = memref.transpose %ab (d0, d1, d2, d3) -> (d0, d2, d1, d3)
        : memref<2x64x2x64xf16> to !V
    %ob = memref.expand_shape %O [[0, 1], [2, 3]] output_shape [2, 64, 2, 64]
        : memref<128x128xf16> into memref<2x64x2x64xf16>
    %ov = memref.transpose %ob (d0, d1, d2, d3) -> (d0, d2, d1, d3)
        : memref<2x64x2x64xf16> to !V
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%s : !S) {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      memref.copy %av, %s : !V to !S
      memref.copy %s, %ov : !S to !V
      // Thread t: row t of P, column block by column block.
      %rb = arith.divui %tx, %c64 : index
      %r = arith.remui %tx, %c64 : index
      scf.for %cb = %c0 to %c128 step %c64 {
        %blk = arith.divui %cb, %c64 : index
        scf.for %c = %c0 to %c64 step %c1 {
          %v = memref.load %s[%rb, %blk, %r, %c] : !S
          %col = arith.addi %cb, %c : index
          memref.store %v, %P[%tx, %col] : memref<128x128xf16>
        }
      }
      gpu.terminator
    }
    return
  }
}
