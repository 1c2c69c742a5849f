// out[0:8, :] = max(out[0:8, :], X) for a tensor `out` of run-time rows: X's
// tile is loaded into shared memory and stored back with reduce = "max". The
// store's plan guards out's rows (1 <= rows <= 2^32) and a 16-byte aligned
// base, and no other variant has a floating-point max (per-element atomics
// lack it), so the kernel has no fallback version: the entry launches only
// where the guards hold and otherwise records which one failed.
!X = memref<8x64xbf16>
!Out = memref<?x64xbf16>
!tile_t = memref<8x64xbf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @max_rows(%X: !X, %out: !Out) kernel {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %bytes = arith.constant 1024 : index
      %s = tile.arena_view [0] : !tile_t
      %bar = nvgpu.mbarrier.create -> !barriers
      %tx = gpu.thread_id x
      %leader = arith.cmpi eq, %tx, %zero : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%zero], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %s[0, 0] [8, 64], %X[0, 0] [8, 64]
            barrier(%bar[%zero]) : !tile_t, !X, !barriers
        nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %bytes : !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks : !barriers
      scf.if %leader {
        tile.copy_async %out[0, 0] [8, 64], %s[0, 0] [8, 64] {reduce = "max"}
            : !Out, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
  }
  func.func @max_rows(%X: !X, %out: !Out)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %smem = arith.constant 1024 : i32
    gpu.launch_func @kernels::@max_rows blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) dynamic_shared_memory_size %smem
        args(%X : !X, %out : !Out)
    return
  }
}
