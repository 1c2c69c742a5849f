// RUN: tile-opt %s --tile-gpu-pipeline=format=none -split-input-file -verify-diagnostics

!C = memref<?x4096xbf16>
module attributes {gpu.container_module} {
  func.func @unused(%C: !C) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      // expected-error @+1 {{device-map-copy: no copy goes through the device map; its tensor map is the plan of the copies through it}}
      %m = tile.device_map %C : !C
      gpu.terminator
    }
    return
  }
}

// -----

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!V = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  func.func @not_an_argument(%C: !C, %off: index, %n: index) {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes {
      %smem = tile.arena_view [0] : !tile_t
      %v = memref.reinterpret_cast %C to offset: [%off], sizes: [%n, 4096], strides: [4096, 1] : !C to !V
      // expected-error @+1 {{device-map-place: the template must be an argument of its kernel, so the host can encode its tensor map}}
      %m = tile.device_map %v : !V
      %ok = tile.device_map_update %m to %v : !tile.device_map<!V>, !V
      tile.copy_async %v[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!V>) : !V, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.terminator
    }
    return
  }
}
