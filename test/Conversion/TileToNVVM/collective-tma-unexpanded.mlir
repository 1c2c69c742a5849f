// RUN: tile-opt %s -verify-diagnostics --tile-plan-copies --convert-tile-to-nvvm -o /dev/null

// A tile.copy the dispatch planned for the TMA is lowered only through the
// expansion into one thread's tile.copy_async; without it the lowering stops
// at the copy and names the pass.
gpu.module @kernels {
  gpu.func @f(%A: memref<64x64xf32>)
      workgroup(%S : memref<64x64xf32, #gpu.address_space<workgroup>>) kernel {
    // expected-error @+1 {{tma: a tile.copy decided for the tensor memory accelerator is lowered through one thread's tile.copy_async; run --tile-expand-collective-copies after --tile-plan-copies (--tile-gpu-pipeline does)}}
    tile.copy %S[0, 0] [64, 64], %A[0, 0] [64, 64] {scope = "cta"}
        : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}
