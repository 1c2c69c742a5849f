// The nine filter taps of a 3x3 convolution (padding 1, stride 1) for one
// block of 64 output pixels, loaded through the TMA's im2col mode: CTA b
// takes output pixels 64b .. 64b + 63 of an NHWC f16 input whose batch size
// is known only at run time, loads each tap's [64 pixels, 32 channels] tile
// (one stage and one barrier per tap) and copies the nine tiles out to
// Cols[tap, pixel, channel], the implicit GEMM's A operand. Positions in the
// padding read zeros.
//
//   tile-opt examples/im2col.mlir --tile-report-copy-plans -o /dev/null
//   tile-opt examples/im2col.mlir --tile-gpu-pipeline="chip=sm_90a format=isa"

#tiles = #tile.layout<(9, 64, 32) : (2048, 32, 1), swizzle = 64B>
#tile = #tile.layout<(64, 32), swizzle = 64B>
!stages = memref<9x64x32xf16, #tiles, #gpu.address_space<workgroup>>
!tap = memref<64x32xf16, #tile, #gpu.address_space<workgroup>>
!input = memref<?x16x16x32xf16>
!cols = memref<9x?x32xf16>
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 9>

module attributes {gpu.container_module} {
  func.func @conv_taps(%X: !input, %Cols: !cols, %blocks: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 36864 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c9 = arith.constant 9 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %cm1 = arith.constant -1 : index
      %one = arith.constant 1 : index
      %tx_bytes = arith.constant 4096 : index
      %stages = tile.arena_view [0] : !stages
      %bar = nvgpu.mbarrier.create -> !barriers
      %leader = arith.cmpi eq, %tx, %c0 : index
      // The block's first output pixel as (n, h, w) of the 16x16 output grid,
      // and the window's corner in the input: one pixel up and left.
      %q = arith.muli %bx, %c64 : index
      %n = arith.divui %q, %c256 : index
      %r = arith.remui %q, %c256 : index
      %oh = arith.divui %r, %c16 : index
      %ow = arith.remui %r, %c16 : index
      %h = arith.addi %oh, %cm1 : index
      %w = arith.addi %ow, %cm1 : index
      scf.if %leader {
        scf.for %t = %c0 to %c9 step %c1 {
          nvgpu.mbarrier.init %bar[%t], %one : !barriers
        }
      }
      gpu.barrier
      scf.if %leader {
        scf.for %t = %c0 to %c9 step %c1 {
          %kh = arith.divui %t, %c3 : index
          %kw = arith.remui %t, %c3 : index
          %tile = tile.stage %stages[%t] : !stages -> !tap
          tile.copy_im2col %tile, %X[%n, %h, %w, %c0] offsets [%kh, %kw]
              barrier(%bar[%t])
              {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}
              : !tap, !input, !barriers
          nvgpu.mbarrier.arrive.expect_tx %bar[%t], %tx_bytes : !barriers
        }
      }
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      scf.for %t = %c0 to %c9 step %c1 {
        nvgpu.mbarrier.try_wait.parity %bar[%t], %phase, %ticks : !barriers
        %tile = tile.stage %stages[%t] : !stages -> !tap
        tile.copy %Cols[%t, %q, 0] [1, 64, 32], %tile[0, 0] [64, 32] {scope = "cta"}
            : !cols, !tap
      }
      gpu.terminator
    }
    return
  }
}
