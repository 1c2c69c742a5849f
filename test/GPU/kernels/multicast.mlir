// GPU suite: a cluster of two CTAs; CTA 0 issues one TMA load multicast to
// both (mask 0b11). The data and the mbarrier signal land at the same shared
// offset in each CTA; each CTA waits on its own barrier and copies the tile
// to its half of B. Afterwards both halves of B equal A.

#swizzled = #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>
!smem = memref<8x256xf16, #swizzled, #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @multicast(%A: memref<8x256xf16>, %B: memref<16x256xf16>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 4096 : i32
    gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c2, %ncy = %c1, %ncz = %c1)
               blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %tx_bytes = arith.constant 4096 : index
      %ticks = arith.constant 10000000 : index
      %s = tile.arena_view [0] : !smem
      %bar = nvgpu.mbarrier.create -> !barriers
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !barriers
        nvvm.fence.mbarrier.init
      }
      // Every CTA's barrier is initialised before any multicast signals it.
      nvvm.cluster.arrive
      nvvm.cluster.wait
      scf.if %leader {
        nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !barriers
        %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
        %zero = arith.constant 0 : i32
        %first = arith.cmpi eq, %rank, %zero : i32
        scf.if %first {
          %mask = arith.constant 3 : i16
          tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256]
              barrier(%bar[%c0]) multicast(%mask)
              : !smem, memref<8x256xf16>, !barriers
        }
      }
      %phase = arith.constant false
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !barriers
      gpu.barrier
      %row = arith.muli %bx, %c8 : index
      tile.copy %B[%row, 0] [8, 256], %s[0, 0] [8, 256] {scope = "cta"}
          : memref<16x256xf16>, !smem
      // No CTA leaves while a peer may still receive its multicast.
      nvvm.cluster.arrive
      nvvm.cluster.wait
      gpu.terminator
    }
    return
  }
}
