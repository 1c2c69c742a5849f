// A CTA pair (a cluster of two) where each CTA loads its half of A with the
// .cta_group::2 form and completes on its own barrier (input of
// sm100-ptxas.test and of the GPU suite's sm_100a PTX; assembled only).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @cta_pair(%a: memref<16x256xf16>, %b: memref<16x256xf16>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 4096 : i32
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %one = arith.constant 1 : index
      %t = tile.arena_view [0] : !tile
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      %row = arith.muli %bx, %c8 : index
      scf.if %leader {
        %bytes = arith.constant 4096 : index
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
        tile.copy_async %t[0, 0] [8, 256], %a[%row, 0] [8, 256] barrier(%bar[%c0]) {cta_group = 2 : i32}
            : !tile, memref<16x256xf16>, !bars
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      tile.copy %b[%row, 0] [8, 256], %t[0, 0] [8, 256] {scope = "cta", dispatch = "collective"}
          : memref<16x256xf16>, !tile
      gpu.terminator
    }
    return
  }
}
