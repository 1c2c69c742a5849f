// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-plan-copies --tile-tensor-map-abi
//
// The encoder's name belongs to the runtime: a user function with that name
// is an error instead of a call into user code with the wrong signature.

module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileTensorMapGetCached' is the runtime's tensor-map encoder, which the host calls before each TMA launch; rename this symbol}}
  func.func @tileTensorMapGetCached(%a: i64) -> i64 { return %a : i64 }
  func.func @host(%A: memref<8x64xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8x64xf16>)
    return
  }
  gpu.module @k {
    gpu.func @store(%A: memref<8x64xf16>) kernel {
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// A launch that passes fewer operands than the kernel takes cannot provide
// the buffer its tensor map is encoded from.
module attributes {gpu.container_module} {
  func.func @host(%A: memref<8x64xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      // expected-error @+1 {{'gpu.launch_func' op kernel-arg: the launch passes 0 operand(s); the kernel's tensor map needs its argument #0}}
      gpu.launch_func @k::@store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    }
    return
  }
  gpu.module @k {
    gpu.func @store(%A: memref<8x64xf16>) kernel {
      %s = tile.arena_view [0] : memref<8x64xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[0, 0] [8, 64], %s[0, 0] [8, 64] : memref<8x64xf16>, memref<8x64xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
