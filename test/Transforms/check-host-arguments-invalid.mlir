// RUN: tile-opt %s -verify-diagnostics --tile-check-host-arguments -o /dev/null

// The runtime entry point the checks call is reserved.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op reserved-symbol: '@tileRuntimeCheckArgument' is the runtime's argument check, which host functions that launch kernels call; rename this symbol}}
  func.func @tileRuntimeCheckArgument() {
    return
  }
  func.func @host(%A: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k8 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%A : memref<8xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k8(%A: memref<8xf32>) kernel {
      gpu.return
    }
  }
}
