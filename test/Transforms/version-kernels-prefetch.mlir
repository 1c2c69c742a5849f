// RUN: tile-opt %s --tile-plan-copies --tile-version-kernels | FileCheck %s
// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s --check-prefix=REPORT

// A prefetch over a buffer with run-time strides has guards like the load it
// warms; the kernel's fallback version, launched when a guard fails, drops
// the prefetch (only TMA prefetches) and loads with `simt`.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @warm(
    // CHECK-SAME: tile.fallback = @warm_fallback
    // CHECK: tile.copy_async {{.*}}{cache_hint = "evict_last", prefetch, tile.plan_input = {{.*}}tile.variant = "tma"}
    // CHECK: tile.copy_async {{.*}}barrier({{.*}}tile.variant = "tma"}
    // CHECK-LABEL: gpu.func @warm_fallback(
    // CHECK-NOT: prefetch
    // CHECK: tile.copy_async {{.*}}barrier({{.*}}tile.variant = "simt"}
    // CHECK-NOT: tile.copy_async
    // CHECK: gpu.return
    gpu.func @warm(%g: memref<?x?xf16>, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %bar = nvgpu.mbarrier.create -> !bars
      %s = tile.arena_view [0] : !tile
      %row = arith.muli %k, %c64 : index
      %next = arith.addi %row, %c64 : index
      // REPORT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"prefetch","selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":2,"global_dim":[null,null],"global_strides":[null],"box_dim":[64,64],"element_strides":[1,1],"interleave":0,"swizzle":3,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[0,null]}],"guards":[{"rule":"global-dim","expr":"1 <= size[1] <= 4294967296"},{"rule":"global-dim","expr":"1 <= size[0] <= 4294967296"},{"rule":"global-stride","expr":"stride[0]*2 % 16 == 0"},{"rule":"global-stride","expr":"0 <= stride[0] <= 549755813887"},{"rule":"global-align","expr":"address % 16 == 0"}],"bytes":8192}
      tile.copy_async %s[0, 0] [64, 64], %g[%next, 0] [64, 64] {cache_hint = "evict_last", prefetch}
          : !tile, memref<?x?xf16>
      // REPORT-NEXT: {"loc":"{{.*}}:[[@LINE+1]]:7","op":"tile.copy_async","direction":"g2s","selected":"tma"
      tile.copy_async %s[0, 0] [64, 64], %g[%row, 0] [64, 64] barrier(%bar[%c0])
          : !tile, memref<?x?xf16>, !bars
      gpu.return
    }
  }
}
