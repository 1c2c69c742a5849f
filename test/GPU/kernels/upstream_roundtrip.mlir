// Upstream copies only, compiled with --convert-upstream-copies: each of 4
// CTAs stages its 32 rows of A through shared memory, in with memref.copy of
// a strided subview, out with linalg.copy into B's subview. Both become
// CTA-wide tile.copy; B must equal A (test/GPU/runner.cpp,
// "upstream_roundtrip").
module attributes {gpu.container_module} {
  func.func @upstream_roundtrip(%A: memref<128x72xf32>, %B: memref<128x72xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%S : memref<32x72xf32, #gpu.address_space<workgroup>>) {
      %c32 = arith.constant 32 : index
      %row = arith.muli %bx, %c32 : index
      %a = memref.subview %A[%row, 0] [32, 72] [1, 1]
          : memref<128x72xf32> to memref<32x72xf32, strided<[72, 1], offset: ?>>
      memref.copy %a, %S : memref<32x72xf32, strided<[72, 1], offset: ?>>
          to memref<32x72xf32, #gpu.address_space<workgroup>>
      %b = memref.subview %B[%row, 0] [32, 72] [1, 1]
          : memref<128x72xf32> to memref<32x72xf32, strided<[72, 1], offset: ?>>
      linalg.copy ins(%S : memref<32x72xf32, #gpu.address_space<workgroup>>)
                  outs(%b : memref<32x72xf32, strided<[72, 1], offset: ?>>)
      gpu.terminator
    }
    return
  }
}
