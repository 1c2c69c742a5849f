// tile-fence-device-maps: the release and acquire of the map right after
// each update that lacks them, in gpu.launch bodies and gpu.func kernels;
// a second run changes nothing, and the result verifies.
// RUN: tile-opt %s --tile-fence-device-maps | FileCheck %s
// RUN: tile-opt %s --tile-fence-device-maps --tile-fence-device-maps | FileCheck %s
// RUN: tile-opt %s --tile-fence-device-maps > %t.once.mlir
// RUN: tile-opt %t.once.mlir --tile-fence-device-maps > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: tile-opt %s --tile-fence-device-maps --tile-verify-async -o /dev/null 2>&1 | count 0

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>

// CHECK-LABEL: func.func @launch_body
// CHECK: %[[M:.*]] = tile.device_map
// CHECK-NEXT: %[[N:.*]] = tile.device_map
// CHECK-NEXT: memref.reinterpret_cast
// CHECK-NEXT: tile.device_map_update %[[M]] to
// CHECK-NEXT: tile.device_map_release %[[M]] : !tile.device_map<memref<?x4096xbf16>>
// CHECK-NEXT: tile.device_map_acquire %[[M]] : !tile.device_map<memref<?x4096xbf16>>
// CHECK-NEXT: tile.device_map_update %[[N]] to
// CHECK-NEXT: tile.device_map_release %[[N]] :
// CHECK-NEXT: tile.device_map_acquire %[[N]] :
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[M]] :
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[N]] :
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// Already fenced: left as it is.
// CHECK-NEXT: tile.device_map_update %[[M]] to
// CHECK-NEXT: tile.device_map_release %[[M]] :
// CHECK-NEXT: tile.device_map_acquire %[[M]] :
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[M]] :
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// A release alone is not the pair: the pair goes right after the update.
// CHECK-NEXT: tile.device_map_update %[[M]] to
// CHECK-NEXT: tile.device_map_release %[[M]] :
// CHECK-NEXT: tile.device_map_acquire %[[M]] :
// CHECK-NEXT: tile.device_map_release %[[M]] :
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[M]] :
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// CHECK-NEXT: gpu.terminator
func.func @launch_body(%C: !C, %D: !C, %rows: index, %off: index, %r: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %m = tile.device_map %C : !C
    %n = tile.device_map %D : !C
    %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
    %ok0 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
    %ok1 = tile.device_map_update %n to %view : !tile.device_map<!C>, !view
    tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    tile.copy_async %D[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%n : !tile.device_map<!C>) : !C, !tile_t
    tile.bulk_commit_group
    tile.bulk_wait_group 0
    %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
    tile.device_map_release %m : !tile.device_map<!C>
    tile.device_map_acquire %m : !tile.device_map<!C>
    tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    tile.bulk_commit_group
    tile.bulk_wait_group 0
    %ok3 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
    tile.device_map_release %m : !tile.device_map<!C>
    tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    tile.bulk_commit_group
    tile.bulk_wait_group 0
    gpu.terminator
  }
  return
}

// An outlined kernel, the update under a branch and in a loop.
// CHECK-LABEL: gpu.func @kernel
// CHECK: %[[M:.*]] = tile.device_map
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: tile.device_map_update %[[M]] to
// CHECK-NEXT: tile.device_map_release %[[M]] :
// CHECK-NEXT: tile.device_map_acquire %[[M]] :
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[M]] :
// CHECK-NEXT: tile.bulk_commit_group
// CHECK-NEXT: tile.bulk_wait_group 0
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kernel(%C: !C, %rows: index, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4096 = arith.constant 4096 : index
      %tx = gpu.thread_id x
      %leader = arith.cmpi eq, %tx, %c0 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.for %g = %c0 to %n step %c1 {
        %off = arith.muli %g, %c4096 : index
        %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
        scf.if %leader {
          %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
          tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
      }
      gpu.return
    }
  }
}

// A staged update releases the map itself: the acquire alone follows it,
// and an update already followed by its acquire is left as it is.
// CHECK-LABEL: func.func @staged
// CHECK: %[[M:.*]] = tile.device_map
// CHECK: tile.device_map_update %[[M]] to %{{.*}} staged in
// CHECK-NEXT: tile.device_map_acquire %[[M]] :
// CHECK-NEXT: scf.if
// CHECK-NEXT: tile.copy_async {{.*}} through(%[[M]] :
// CHECK: tile.bulk_wait_group 0
// CHECK: tile.device_map_update %[[M]] to %{{.*}} staged in
// CHECK-NEXT: tile.device_map_acquire %[[M]] :
// CHECK-NEXT: scf.if
func.func @staged(%C: !C, %rows: index, %off: index, %r: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %stage = tile.arena_view [8192] : memref<128xi8, #gpu.address_space<workgroup>>
    %leader = arith.cmpi eq, %tx, %c0 : index
    %m = tile.device_map %C : !C
    %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
    %ok0 = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, memref<128xi8, #gpu.address_space<workgroup>>
    scf.if %leader {
      tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
    }
    %ok1 = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, memref<128xi8, #gpu.address_space<workgroup>>
    tile.device_map_acquire %m : !tile.device_map<!C>
    scf.if %leader {
      tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
    }
    gpu.terminator
  }
  return
}
