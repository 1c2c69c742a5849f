// RUN: tile-opt %s --split-input-file --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi -verify-diagnostics

!s64 = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

// A copy forced onto TMA leaves its kernel's fallback version no variant.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: memref<?x?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !s64
      %bar = nvgpu.mbarrier.create -> !bars
      // expected-error @below {{guard: this copy forces dispatch = "tma", but its plan relies on run-time guards (the first: global-dim: 1 <= size[1] <= 4294967296); the kernel's fallback version needs another variant: drop the dispatch attribute or give the buffer a static type}}
      tile.copy_async %s[0, 0] [64, 64], %A[0, 0] [64, 64] barrier(%bar[%c0]) {dispatch = "tma"} : !s64, memref<?x?xf16>, !bars
      gpu.return
    }
  }
}

// -----

!s64 = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

// An async launch picks its version on the one stream it is queued on; with
// several dependencies its token is not that stream.
module attributes {gpu.container_module} {
  func.func @host(%A: memref<?x?xf16>) {
    %c1 = arith.constant 1 : index
    %t = gpu.wait async
    %u = gpu.wait async
    // expected-error @below {{'gpu.launch_func' op guard: the kernel has a fallback version for run-time guards; an async launch of it must name exactly one stream to launch on (it names 2 dependencies), or give its buffers static types}}
    %t2 = gpu.launch_func async [%t, %u] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<?x?xf16>)
    gpu.wait [%t2]
    return
  }
  gpu.module @m {
    gpu.func @k(%A: memref<?x?xf16>) kernel {
      %c0 = arith.constant 0 : index
      %s = tile.arena_view [0] : !s64
      %bar = nvgpu.mbarrier.create -> !bars
      tile.copy_async %s[0, 0] [64, 64], %A[0, 0] [64, 64] barrier(%bar[%c0]) : !s64, memref<?x?xf16>, !bars
      gpu.return
    }
  }
}
