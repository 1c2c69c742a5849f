// A pipeline step that prefetches the next tile into L2 and loads this one
// (input of prefetch-ptxas.test).
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @prefetch(%a: memref<256x64xf16>, %k: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1 : index
      %t = tile.arena_view [0] : !tile
      %bar = nvgpu.mbarrier.create -> !bars
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      %row = arith.muli %k, %c64 : index
      %next = arith.addi %row, %c64 : index
      scf.if %leader {
        tile.copy_async %t[0, 0] [64, 64], %a[%next, 0] [64, 64] {cache_hint = "evict_last", prefetch}
            : !tile, memref<256x64xf16>
        tile.copy_async %t[0, 0] [64, 64], %a[%row, 0] [64, 64] barrier(%bar[%c0])
            : !tile, memref<256x64xf16>, !bars
        %bytes = arith.constant 8192 : index
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.terminator
    }
    return
  }
}
