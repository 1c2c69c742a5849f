// Four rows of a 1024 x 64 f16 table gathered with one tile::gather4 load
// into a 128B-swizzled 4 x 64 tile, then written to out (input of
// sm100-ptxas.test and of the GPU suite's sm_100a PTX; assembled only).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!rows = memref<4x64xf16, #tile.layout<(4, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @gather4(%table: memref<1024x64xf16>, %out: memref<4x64xf16>,
                     %r0: index, %r1: index, %r2: index, %r3: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 1024 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %t = tile.arena_view [0] : !rows
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      scf.if %leader {
        %bytes = arith.constant 512 : index
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
        tile.copy_async %t[0, 0] [4, 64], %table[0, 0] [4, 64] rows(%r0, %r1, %r2, %r3) barrier(%bar[%c0])
            : !rows, memref<1024x64xf16>, !bars
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      tile.copy %out[0, 0] [4, 64], %t[0, 0] [4, 64] {scope = "cta", dispatch = "collective"}
          : memref<4x64xf16>, !rows
      gpu.terminator
    }
    return
  }
}
