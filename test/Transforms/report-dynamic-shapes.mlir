// RUN: tile-opt %s --tile-report-copy-plans -o /dev/null | FileCheck %s

// Global buffers whose types leave sizes, strides or the offset to run time:
// the plan's run-time fields are null, and every fact the plan needs about
// them is a guard.

!s64 = memref<64x64xf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!sb64 = memref<64x64xbf16, #tile.layout<(64, 64) : (64, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

func.func @dynamic(%A: memref<?x?xf16>, %s: !s64, %bar: !bars, %ti: index, %tj: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %i = arith.muli %ti, %c64 : index
  %j = arith.muli %tj, %c64 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3","op":"tile.copy_async","direction":"g2s","selected":"tma","declined":[],"tensor_map":{"data_type":"f16","rank":2,"global_dim":[null,null],"global_strides":[null],"box_dim":[64,64],"element_strides":[1,1],"interleave":0,"swizzle":3,"l2_promotion":2,"oob_fill":0,"base_offset_bytes":0},"issues":[{"smem_byte_offset":0,"coords":[null,null]}],"guards":[{"rule":"global-dim","expr":"1 <= size[1] <= 4294967296"},{"rule":"global-dim","expr":"1 <= size[0] <= 4294967296"},{"rule":"global-stride","expr":"stride[0]*2 % 16 == 0"},{"rule":"global-stride","expr":"0 <= stride[0] <= 549755813887"},{"rule":"global-align","expr":"address % 16 == 0"}],"bytes":8192}
  tile.copy_async %s[0, 0] [64, 64], %A[%i, %j] [64, 64] barrier(%bar[%c0]) : !s64, memref<?x?xf16>, !bars
  // A store whose rows may end inside a 16-byte chunk would clip there.
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3",{{.*}}"direction":"s2g","selected":"tma",{{.*}}{"rule":"global-align","expr":"address % 16 == 0"},{"rule":"store-bounds","expr":"size[1]*2 % 16 == 0"}],"bytes":8192}
  tile.copy_async %A[%i, %j] [64, 64], %s[0, 0] [64, 64] : memref<?x?xf16>, !s64
  return
}

// A static extent stays static; a run-time offset joins the base address.
func.func @strided(%A: memref<64x?xbf16, strided<[?, 1], offset: ?>>, %s: !sb64, %bar: !bars, %tj: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %j = arith.muli %tj, %c64 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3",{{.*}}"selected":"tma",{{.*}}"global_dim":[null,64],"global_strides":[null],{{.*}}"base_offset_bytes":null},"issues":[{"smem_byte_offset":0,"coords":[null,0]}],"guards":[{"rule":"global-dim","expr":"1 <= size[1] <= 4294967296"},{"rule":"global-stride","expr":"stride[0]*2 % 16 == 0"},{"rule":"global-stride","expr":"0 <= stride[0] <= 549755813887"},{"rule":"global-align","expr":"(address + offset*2) % 16 == 0"}],"bytes":8192}
  tile.copy_async %s[0, 0] [64, 64], %A[0, %j] [64, 64] barrier(%bar[%c0]) : !sb64, memref<64x?xbf16, strided<[?, 1], offset: ?>>, !bars
  return
}

// A row of 512 f32 is cut into two box rows of 256: the run-time extent of
// the cut dimension must divide by the cut.
!s512 = memref<2x512xf32, #tile.layout<(2, 512) : (512, 1)>, #gpu.address_space<workgroup>>
func.func @cut(%A: memref<?x?xf32>, %s: !s512, %bar: !bars) {
  %c0 = arith.constant 0 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3",{{.*}}"selected":"tma",{{.*}}"rank":3,"global_dim":[256,null,null],"global_strides":[1024,null],"box_dim":[256,2,2]{{.*}}"guards":[{"rule":"global-dim","expr":"256 <= size[1] <= 1099511627776"},{"rule":"region-split","expr":"size[1] % 256 == 0"},{"rule":"global-dim","expr":"1 <= size[0] <= 4294967296"},{"rule":"global-stride","expr":"stride[0]*4 % 16 == 0"},{"rule":"global-stride","expr":"0 <= stride[0] <= 274877906943"},{"rule":"global-align","expr":"address % 16 == 0"}],"bytes":4096}
  tile.copy_async %s[0, 0] [2, 512], %A[0, 0] [2, 512] barrier(%bar[%c0]) : !s512, memref<?x?xf32>, !bars
  return
}

// TMA needs the innermost stride to be 1 in the type.
func.func @inner_stride(%A: memref<?x?xf16, strided<[?, ?]>>, %s: !s64, %bar: !bars) {
  %c0 = arith.constant 0 : index
  // CHECK: {"loc":"{{.*}}:[[@LINE+1]]:3",{{.*}}"selected":"simt","declined":[{"variant":"tma","reason":"elementwise: the shared stride-1 run of 64 elements has a run-time global stride; TMA needs the innermost stride to be 1 in the buffer's type","rule":"elementwise"}],"bytes":8192}
  tile.copy_async %s[0, 0] [64, 64], %A[0, 0] [64, 64] barrier(%bar[%c0]) : !s64, memref<?x?xf16, strided<[?, ?]>>, !bars
  return
}
