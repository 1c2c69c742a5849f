// The GPU suite's rank-3 dynamic copy: B = A for any D x M x N f32 arrays.
// The host launches the kernel once per index of the outer dimension (a loop
// of launches, each with its own guard check); each CTA moves one 1x32x32
// box of the inner two dimensions through a 128B-swizzled shared buffer with
// a TMA load (zeros past the end) and a TMA store (clipped at the end).
//
//   tile-opt test/GPU/kernels/dyn_rank3.mlir --tile-report-copy-plans -o /dev/null

!g = memref<?x?x?xf32>
!tile = memref<1x32x32xf32, #tile.layout<(1, 32, 32) : (1024, 32, 1), swizzle = 128B>,
               #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @dyn_rank3(%A: !g, %B: !g) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c31 = arith.constant 31 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %d = memref.dim %A, %c0 : !g
    %m = memref.dim %A, %c1 : !g
    %n = memref.dim %A, %c2 : !g
    %m31 = arith.addi %m, %c31 : index
    %tiles_m = arith.divui %m31, %c32 : index
    %n31 = arith.addi %n, %c31 : index
    %tiles_n = arith.divui %n31, %c32 : index
    %smem_bytes = arith.constant 4096 : i32
    scf.for %b = %c0 to %d step %c1 {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %tiles_n, %gy = %tiles_m, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
                 dynamic_shared_memory_size %smem_bytes {
        %zero = arith.constant 0 : index
        %one = arith.constant 1 : index
        %tile_size = arith.constant 32 : index
        %tile_bytes = arith.constant 4096 : index
        %s = tile.arena_view [0] : !tile
        %bar = nvgpu.mbarrier.create -> !barriers
        // Tile starts are multiples of 32 elements (128 bytes).
        %i = arith.muli %by, %tile_size : index
        %j = arith.muli %bx, %tile_size : index
        %leader = arith.cmpi eq, %tx, %zero : index
        scf.if %leader {
          nvgpu.mbarrier.init %bar[%zero], %one : !barriers
        }
        gpu.barrier
        scf.if %leader {
          tile.copy_async %s[0, 0, 0] [1, 32, 32], %A[%b, %i, %j] [1, 32, 32]
              barrier(%bar[%zero]) : !tile, !g, !barriers
          nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %tile_bytes : !barriers
        }
        %phase = arith.constant false
        %ticks = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks : !barriers
        gpu.barrier
        scf.if %leader {
          tile.copy_async %B[%b, %i, %j] [1, 32, 32], %s[0, 0, 0] [1, 32, 32]
              : !g, !tile
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
        gpu.terminator
      }
    }
    return
  }
}
