// The GPU suite's load-only dynamic copy: each CTA TMA-loads one 64x64 f16
// tile of a strided matrix A (run-time sizes, row stride and offset) into a
// 128B-swizzled shared buffer, and the whole CTA writes the tile to C with
// per-thread stores. C is allocated as whole tiles (64 * tiles_m rows, 64 *
// tiles_n columns), so it receives A inside the matrix and the TMA's zero
// fill outside it. A load has no store-bounds guard: a matrix of 33 columns
// (66-byte rows) in a 16-byte-aligned row pitch still takes the TMA.
//
//   tile-opt test/GPU/kernels/dyn_strided_load.mlir --tile-report-copy-plans -o /dev/null

!g = memref<?x?xf16, strided<[?, 1], offset: ?>>
!tile = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>,
               #gpu.address_space<workgroup>>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @dyn_strided_load(%A: !g, %C: memref<?x?xf16>) {
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
      tile.copy %C[%i, %j] [64, 64], %s[0, 0] [64, 64] {scope = "cta"}
          : memref<?x?xf16>, !tile
      gpu.terminator
    }
    return
  }
}
