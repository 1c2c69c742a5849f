// GPU suite, async-load-wait (docs/async-protocol.md): a stage filled with
// C's bytes, then a 64x256 f16 TMA load of A into it, copied out to B.
// Right: every thread waits for the load, then reads; B equals A.
!tile = memref<64x256xf16, #tile.layout<(64, 256)>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @async_load_wait_right(%A: memref<64x256xf16>, %B: memref<64x256xf16>, %C: memref<64x256xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 32768 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %ticks = arith.constant 10000000 : index
      %leader = arith.cmpi eq, %tx, %c0 : index
      %s = tile.arena_view [0] : !tile
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy %s[0, 0] [64, 256], %C[0, 0] [64, 256] {scope = "cta"}
          : !tile, memref<64x256xf16>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      scf.if %leader {
        %bytes = arith.constant 32768 : index
        tile.copy_async %s[0, 0] [64, 256], %A[0, 0] [64, 256] barrier(%bar[%c0])
            : !tile, memref<64x256xf16>, !bars
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      tile.copy %B[0, 0] [64, 256], %s[0, 0] [64, 256] {scope = "cta"}
          : memref<64x256xf16>, !tile
      gpu.terminator
    }
    return
  }
}
