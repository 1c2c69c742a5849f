// A kernel written with upstream copies only: every thread of the CTA runs
// the memref.copy into shared memory and the linalg.copy back, as upstream
// ops do. `tile-opt --tile-convert-upstream-copies` (or
// `--tile-gpu-pipeline=convert-upstream-copies=true`, or tile-compile
// --convert-upstream-copies) makes each one CTA-wide tile.copy, planned and
// lowered like any other (docs/embedding.md, "Bringing upstream copies").
module attributes {gpu.container_module} {
  func.func @double_tile(%A: memref<64x64xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%S : memref<64x64xf32, #gpu.address_space<workgroup>>) {
      memref.copy %A, %S
          : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
      // Each thread doubles the elements of its rows (two rows per thread
      // pair: row = tx / 2, columns 32 x (tx % 2) .. + 31).
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %row = arith.divui %tx, %c2 : index
      %half = arith.remui %tx, %c2 : index
      %first = arith.muli %half, %c32 : index
      %last = arith.addi %first, %c32 : index
      scf.for %col = %first to %last step %c1 {
        %x = memref.load %S[%row, %col]
            : memref<64x64xf32, #gpu.address_space<workgroup>>
        %y = arith.addf %x, %x : f32
        memref.store %y, %S[%row, %col]
            : memref<64x64xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      linalg.copy ins(%S : memref<64x64xf32, #gpu.address_space<workgroup>>)
                  outs(%A : memref<64x64xf32>)
      gpu.terminator
    }
    return
  }
}
