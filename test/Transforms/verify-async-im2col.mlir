// RUN: tile-opt %s --tile-verify-async -verify-diagnostics -o /dev/null
// RUN: tile-opt %s --tile-materialize-expect-tx | FileCheck %s

// tile.copy_im2col is a TMA load to the protocol checks: its tile's bytes
// count on its barrier (async-tx-bytes, and what tile.arrive_expect_tx
// materializes) and its tile must not be read before a wait on that
// barrier (async-load-wait).

// CHECK-LABEL: gpu.func @read_early
// CHECK: %[[BYTES:.*]] = arith.constant 4096 : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
// CHECK-NOT: tile.arrive_expect_tx

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x32xf16, #tile.layout<(64, 32), swizzle = 64B>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tx_wrong(%x: memref<2x8x8x32xf16>, %out: memref<64x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %cm1 = arith.constant -1 : index
      %bytes = arith.constant 2048 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      nvgpu.mbarrier.init %bar[%c0], %one : !bars
      // expected-note @+1 {{this load delivers 4096 bytes}}
      tile.copy_im2col %s, %x[%c0, %cm1, %cm1, %c0] offsets [%c0, %c0] barrier(%bar[%c0])
          {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>} : !tile, memref<2x8x8x32xf16>, !bars
      // expected-error @+1 {{async-tx-bytes: arrive.expect_tx announces 2048 bytes on barrier 0 of %0, but the 1 load(s) signalling it in this phase deliver 4096 bytes (4096)}}
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : !bars
      %phase = arith.constant false
      %ticks = arith.constant 100 : index
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.return
    }
    gpu.func @read_early(%x: memref<2x8x8x32xf16>, %out: memref<64x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %cm1 = arith.constant -1 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      nvgpu.mbarrier.init %bar[%c0], %one : !bars
      // expected-note @+1 {{the TMA load}}
      tile.copy_im2col %s, %x[%c0, %cm1, %cm1, %c0] offsets [%c0, %c0] barrier(%bar[%c0])
          {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>} : !tile, memref<2x8x8x32xf16>, !bars
      tile.arrive_expect_tx %bar[%c0] : !bars
      // expected-error @+1 {{async-load-wait: this read of shared bytes [0, 4096) comes before any wait on barrier 0 of %0, which completes the TMA load writing bytes [0, 4096)}}
      tile.copy %out[0, 0] [64, 32], %s[0, 0] [64, 32] {scope = "cta"} : memref<64x32xf16>, !tile
      gpu.return
    }
  }
}
