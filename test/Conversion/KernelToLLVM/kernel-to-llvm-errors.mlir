// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-tile-kernel-to-llvm))' -o /dev/null

// A tagged tensor-map address that is not a kernel argument is an error at
// the cast, as in tile-finalize-kernel-abi.
gpu.module @bad {
  gpu.func @not_an_argument(%p: !llvm.ptr) kernel {
    %v = llvm.load %p : !llvm.ptr -> !llvm.array<16 x i64>
    // expected-error @+1 {{tensor-map address does not come from a kernel argument}}
    %a = builtin.unrealized_conversion_cast %v : !llvm.array<16 x i64> to !llvm.ptr {tile.tensor_map_address}
    nvvm.prefetch tensormap, %a : !llvm.ptr
    gpu.return
  }
}
