// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>

// CHECK-LABEL: func.func @grouped_store
// CHECK: %[[M:.*]] = tile.device_map %{{.*}} : memref<?x4096xbf16>
// CHECK: %{{.*}} = tile.device_map_update %[[M]] to %{{.*}} : !tile.device_map<memref<?x4096xbf16>>, memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
// CHECK: tile.device_map_release %[[M]] : !tile.device_map<memref<?x4096xbf16>>
// CHECK: tile.device_map_acquire %[[M]] : !tile.device_map<memref<?x4096xbf16>>
// CHECK: tile.copy_async %{{.*}}[%{{.*}}, 0] [64, 64], %{{.*}}[0, 0] [64, 64] through(%[[M]] : !tile.device_map<memref<?x4096xbf16>>) : memref<?x4096xbf16>, memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @grouped_store(%C: !C, %rows: index, %off: index, %r: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %m = tile.device_map %C : !C
    %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
    %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
    tile.device_map_release %m : !tile.device_map<!C>
    tile.device_map_acquire %m : !tile.device_map<!C>
    tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    gpu.terminator
  }
  return
}

// A map staged in shared memory: the stage follows `staged in`.
// CHECK-LABEL: func.func @staged_store
// CHECK: %[[S:.*]] = tile.arena_view [8192] : memref<128xi8, #gpu.address_space<workgroup>>
// CHECK: %{{.*}} = tile.device_map_update %[[M:.*]] to %{{.*}} staged in %[[S]] : !tile.device_map<memref<?x4096xbf16>>, memref<?x4096xbf16, strided<[4096, 1], offset: ?>>, memref<128xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.device_map_acquire %[[M]] : !tile.device_map<memref<?x4096xbf16>>
func.func @staged_store(%C: !C, %rows: index, %off: index, %r: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %stage = tile.arena_view [8192] : memref<128xi8, #gpu.address_space<workgroup>>
    %m = tile.device_map %C : !C
    %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
    %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, memref<128xi8, #gpu.address_space<workgroup>>
    tile.device_map_acquire %m : !tile.device_map<!C>
    tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    gpu.terminator
  }
  return
}
