// A tile.pipeline across a cluster of 2 CTAs over a run-time-sized tensor:
// each CTA issues half of every 8 x 64 stage, multicast to both, and sums
// the stage's first column into out[cta]. The multicast load's plan guards
// the tensor's rows (1 <= rows <= 2^32) and base; where a guard fails the
// entry launches the fallback version, in which the multicast is one
// thread's stores into both CTAs' stages through the cluster's window.
!A = memref<?x64xf32>
!stages = memref<2x8x64xf32, #gpu.address_space<workgroup>>
!stage = memref<8x64xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shared_rows(%A: !A, %n: index, %out: memref<2xf32>) kernel {
      %buf = tile.arena_view [0] : !stages
      %zero = arith.constant 0.0 : f32
      %cta = gpu.block_id x
      tile.pipeline (%n) stages(%buf : !stages) iter_args(%zero : f32)
          attributes {cluster_size = 2} produce {
      ^bb0(%k: index, %s: !stage):
        %c8 = arith.constant 8 : index
        %all = arith.constant 3 : i16
        %row = arith.muli %k, %c8 : index
        tile.copy_async %s[0, 0] [8, 64], %A[%row, 0] [8, 64] multicast(%all)
            : !stage, !A
        tile.yield
      } consume {
      ^bb0(%k: index, %s: !stage, %wg: index, %acc: f32):
        %c0 = arith.constant 0 : index
        %x = memref.load %s[%c0, %c0] : !stage
        %next = arith.addf %acc, %x : f32
        tile.yield %next : f32
      } epilogue {
      ^bb0(%wg: index, %acc: f32):
        memref.store %acc, %out[%cta] : memref<2xf32>
        tile.yield
      }
      gpu.return
    }
  }
  func.func @shared_rows(%A: !A, %n: index, %out: memref<2xf32>)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %smem = arith.constant 4096 : i32
    gpu.launch_func @kernels::@shared_rows clusters in (%c2, %c1, %c1)
        blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)
        dynamic_shared_memory_size %smem
        args(%A : !A, %n : index, %out : memref<2xf32>)
    return
  }
}
