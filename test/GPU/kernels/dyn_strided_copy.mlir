// The GPU suite's strided dynamic copy: examples/dynamic_tiled_copy.mlir with
// both buffers strided views (run-time row stride and element offset), so a
// matrix can live inside a padded allocation. B = A, one 64x64 f16 tile per
// CTA through a 128B-swizzled shared buffer: a TMA load (zeros past the
// matrix end) and a TMA store (clipped at the matrix end). The host checks the
// plans' guards (row pitch and base 16-byte aligned; for the store, also a
// row of a multiple of 16 bytes) and launches the fallback version when one
// fails.
//
//   tile-opt test/GPU/kernels/dyn_strided_copy.mlir --tile-report-copy-plans -o /dev/null

!g = memref<?x?xf16, strided<[?, 1], offset: ?>>
!tile = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>,
               #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @dyn_strided_copy(%A: !g, %B: !g) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %m = memref.dim %A, %c0 : !g
    %n = memref.dim %A, %c1 : !g
    %m63 = arith.addi %m, %c63 : index
    %tiles_m = arith.divui %m63, %c64 : index
    %n63 = arith.addi %n, %c63 : index
    %tiles_n = arith.divui %n63, %c64 : index
    %smem_bytes = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %tiles_n, %gy = %tiles_m, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %tile_size = arith.constant 64 : index
      %tile_bytes = arith.constant 8192 : index
      %s = tile.arena_view [0] : !tile
      %bar = nvgpu.mbarrier.create -> !barriers
      // Tile starts are multiples of 64 elements (128 bytes).
      %i = arith.muli %by, %tile_size : index
      %j = arith.muli %bx, %tile_size : index
      %leader = arith.cmpi eq, %tx, %zero : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%zero], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %s[0, 0] [64, 64], %A[%i, %j] [64, 64]
            barrier(%bar[%zero]) : !tile, !g, !barriers
        nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %tile_bytes : !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks : !barriers
      gpu.barrier
      scf.if %leader {
        tile.copy_async %B[%i, %j] [64, 64], %s[0, 0] [64, 64] : !g, !tile
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
