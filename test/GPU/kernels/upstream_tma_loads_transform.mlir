// The transform-dialect form of upstream's sm90 TMA-load test: a kernel
// loads a 64x8 and an 8x128 f32 tile into shared memref.globals with plain
// linalg.copy, and a transform schedule
// (schedules/convert_upstream_copies.mlir, applied before the pipeline)
// turns those copies into tile.copy ops with
// transform.tile.convert_upstream_copy, where upstream's schedule uses
// transform.nvgpu.rewrite_copy_as_tma. The pipeline then issues each load
// from one thread through the TMA and every thread waits for it. Every thread
// reads the tiles back with memref.load and writes them out: OA = A, OB = B.
!SA = memref<64x8xf32, #gpu.address_space<workgroup>>
!SB = memref<8x128xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  memref.global "private" @tileA : !SA {alignment = 128}
  memref.global "private" @tileB : !SB {alignment = 128}

  func.func @upstream_tma_loads_transform(%A: memref<64x8xf32>,
                                          %B: memref<8x128xf32>,
                                          %OA: memref<64x8xf32>,
                                          %OB: memref<8x128xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %sa = memref.get_global @tileA : !SA
      %sb = memref.get_global @tileB : !SB
      linalg.copy ins(%A : memref<64x8xf32>) outs(%sa : !SA)
      linalg.copy ins(%B : memref<8x128xf32>) outs(%sb : !SB)
      // Thread t: row t of A (t < 64), column t of B.
      %in_a = arith.cmpi ult, %tx, %c64 : index
      scf.if %in_a {
        scf.for %j = %c0 to %c8 step %c1 {
          %v = memref.load %sa[%tx, %j] : !SA
          memref.store %v, %OA[%tx, %j] : memref<64x8xf32>
        }
      }
      scf.for %i = %c0 to %c8 step %c1 {
        %v = memref.load %sb[%i, %tx] : !SB
        memref.store %v, %OB[%i, %tx] : memref<8x128xf32>
      }
      gpu.terminator
    }
    return
  }
}
