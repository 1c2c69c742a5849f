// The GPU suite's rank-5 dynamic copy: B = A for any P x Q x R x M x N bf16
// arrays. One launch; the grid's z dimension enumerates the outer three
// dimensions (P * Q * R CTAs, split back into three indices in the kernel),
// x and y the 32x32 boxes of the inner two. Each box goes through a
// 64B-swizzled shared buffer with a TMA load (zeros past the end) and a TMA
// store (clipped at the end).
//
//   tile-opt test/GPU/kernels/dyn_rank5.mlir --tile-report-copy-plans -o /dev/null

!g = memref<?x?x?x?x?xbf16>
!tile = memref<1x1x1x32x32xbf16,
               #tile.layout<(1, 1, 1, 32, 32) : (1024, 1024, 1024, 32, 1), swizzle = 64B>,
               #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @dyn_rank5(%A: !g, %B: !g) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %p = memref.dim %A, %c0 : !g
    %q = memref.dim %A, %c1 : !g
    %r = memref.dim %A, %c2 : !g
    %m = memref.dim %A, %c3 : !g
    %n = memref.dim %A, %c4 : !g
    %pq = arith.muli %p, %q : index
    %pqr = arith.muli %pq, %r : index
    %m31 = arith.addi %m, %c31 : index
    %tiles_m = arith.divui %m31, %c32 : index
    %n31 = arith.addi %n, %c31 : index
    %tiles_n = arith.divui %n31, %c32 : index
    %smem_bytes = arith.constant 2048 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %tiles_n, %gy = %tiles_m, %gz = %pqr)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %tile_size = arith.constant 32 : index
      %tile_bytes = arith.constant 2048 : index
      %s = tile.arena_view [0] : !tile
      %bar = nvgpu.mbarrier.create -> !barriers
      // bz = (i0 * Q + i1) * R + i2
      %i2 = arith.remui %bz, %r : index
      %qi = arith.divui %bz, %r : index
      %i1 = arith.remui %qi, %q : index
      %i0 = arith.divui %qi, %q : index
      // Tile starts are multiples of 32 elements (64 bytes).
      %i = arith.muli %by, %tile_size : index
      %j = arith.muli %bx, %tile_size : index
      %leader = arith.cmpi eq, %tx, %zero : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%zero], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %s[0, 0, 0, 0, 0] [1, 1, 1, 32, 32],
            %A[%i0, %i1, %i2, %i, %j] [1, 1, 1, 32, 32]
            barrier(%bar[%zero]) : !tile, !g, !barriers
        nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %tile_bytes : !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks : !barriers
      gpu.barrier
      scf.if %leader {
        tile.copy_async %B[%i0, %i1, %i2, %i, %j] [1, 1, 1, 32, 32],
            %s[0, 0, 0, 0, 0] [1, 1, 1, 32, 32] : !g, !tile
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
