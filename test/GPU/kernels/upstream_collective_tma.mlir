// Collective copies through the tensor memory accelerator, compiled with
// --convert-upstream-copies: one CTA of 128 threads moves A (128x72 f32) into
// B through a 32x72 workgroup buffer. Rows 0-95 go in a loop of hand-written
// CTA-wide tile.copy ops with a run-time row offset (the same mbarrier
// completes three loads, so the threads' phase counters are exercised); rows
// 96-127 go through upstream copies of static subviews (a memref.copy in, a
// linalg.copy out). Every copy is planned for the TMA (collective_tma) and
// expanded into one thread's tile.copy_async: B equals A.
!S = memref<32x72xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @upstream_collective_tma(%A: memref<128x72xf32>,
                                     %B: memref<128x72xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%S : !S) {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c32 = arith.constant 32 : index
      scf.for %i = %c0 to %c3 step %c1 {
        %row = arith.muli %i, %c32 : index
        tile.copy %S[0, 0] [32, 72], %A[%row, 0] [32, 72] {scope = "cta"}
            : !S, memref<128x72xf32>
        tile.copy %B[%row, 0] [32, 72], %S[0, 0] [32, 72] {scope = "cta"}
            : memref<128x72xf32>, !S
      }
      %a = memref.subview %A[96, 0] [32, 72] [1, 1]
          : memref<128x72xf32> to memref<32x72xf32, strided<[72, 1], offset: 6912>>
      memref.copy %a, %S
          : memref<32x72xf32, strided<[72, 1], offset: 6912>> to !S
      %b = memref.subview %B[96, 0] [32, 72] [1, 1]
          : memref<128x72xf32> to memref<32x72xf32, strided<[72, 1], offset: 6912>>
      linalg.copy ins(%S : !S)
                  outs(%b : memref<32x72xf32, strided<[72, 1], offset: 6912>>)
      gpu.terminator
    }
    return
  }
}
