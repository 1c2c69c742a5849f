// A tiled copy over a matrix whose size is known only at run time: B = A for
// any M x N f16 matrices. Each CTA moves one 64x64 tile through a 128B-
// swizzled shared buffer: a TMA load (edge tiles read zeros past the matrix
// end: the hardware's out-of-bounds fill) and a TMA store (the hardware
// clips it at the matrix end).
//
// The plans depend on values only the host knows (the row pitch, the sizes,
// the base address), so each carries guards; the host checks them before
// each launch and runs the kernel's fallback version (per-thread copies) when
// one fails, e.g. for a row of 33 f16 = 66 bytes, which is not a multiple of
// the 16 bytes a tensor map's stride needs.
//
//   tile-opt examples/dynamic_tiled_copy.mlir --tile-report-copy-plans -o /dev/null
//   tile-compile examples/dynamic_tiled_copy.mlir -o tiled_copy.so

!tile = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>,
               #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @tiled_copy(%A: memref<?x?xf16>, %B: memref<?x?xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %m = memref.dim %A, %c0 : memref<?x?xf16>
    %n = memref.dim %A, %c1 : memref<?x?xf16>
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
      // Tile starts are multiples of 64 elements: the planner proves the
      // inner coordinate 16-byte aligned from that.
      %i = arith.muli %by, %tile_size : index
      %j = arith.muli %bx, %tile_size : index
      %leader = arith.cmpi eq, %tx, %zero : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%zero], %one : !barriers
      }
      gpu.barrier
      scf.if %leader {
        tile.copy_async %s[0, 0] [64, 64], %A[%i, %j] [64, 64]
            barrier(%bar[%zero]) : !tile, memref<?x?xf16>, !barriers
        nvgpu.mbarrier.arrive.expect_tx %bar[%zero], %tile_bytes : !barriers
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      nvgpu.mbarrier.try_wait.parity %bar[%zero], %phase, %ticks : !barriers
      gpu.barrier
      scf.if %leader {
        tile.copy_async %B[%i, %j] [64, 64], %s[0, 0] [64, 64]
            : memref<?x?xf16>, !tile
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
