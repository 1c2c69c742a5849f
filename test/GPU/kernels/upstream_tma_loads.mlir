// What upstream's sm90 TMA-load integration tests exercise (a 64x8 and an
// 8x128 f32 tile without swizzle; a 128x64 f16 tile with the 128-byte
// swizzle), written with upstream copies instead of nvgpu.tma ops and
// compiled with --convert-upstream-copies: each memref.copy into a shared
// buffer becomes a CTA-wide tile.copy that the pipeline carries through the
// TMA (one thread issues, every thread waits). The unswizzled tiles are
// workgroup attributions; the swizzled one (upstream types cannot say
// "swizzled") is a #tile.layout view of the arena. Every thread then reads
// the tiles back with plain memref.load (the swizzled buffer's loads go
// through its layout) and writes them out: OA = A, OB = B, OC = C.
!SA = memref<64x8xf32, #gpu.address_space<workgroup>>
!SB = memref<8x128xf32, #gpu.address_space<workgroup>>
!SC = memref<128x64xf16, #tile.layout<(128, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @upstream_tma_loads(%A: memref<64x8xf32>, %B: memref<8x128xf32>,
                                %C: memref<128x64xf16>,
                                %OA: memref<64x8xf32>, %OB: memref<8x128xf32>,
                                %OC: memref<128x64xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               workgroup(%sa : !SA, %sb : !SB) {
      %c0 = arith.constant 0 : index
      %sc = tile.arena_view [0] : !SC
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      memref.copy %A, %sa : memref<64x8xf32> to !SA
      memref.copy %B, %sb : memref<8x128xf32> to !SB
      memref.copy %C, %sc : memref<128x64xf16> to !SC
      // Thread t: row t of A (t < 64), column t of B, row t of C.
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
      scf.for %j = %c0 to %c64 step %c1 {
        %v = memref.load %sc[%tx, %j] : !SC
        memref.store %v, %OC[%tx, %j] : memref<128x64xf16>
      }
      gpu.terminator
    }
    return
  }
}
