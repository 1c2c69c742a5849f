// A TMA store of a tile that an element-wise tile.copy wrote (dispatch =
// "collective": the generic proxy), with no proxy fence.
!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @copy(%A: memref<8x256xf16>, %B: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !smem
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta", dispatch = "collective"}
          : !smem, memref<8x256xf16>
      gpu.barrier
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
