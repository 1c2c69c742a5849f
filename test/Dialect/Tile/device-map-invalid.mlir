// RUN: tile-opt %s -split-input-file -verify-diagnostics

!C = memref<?x4096xbf16>
func.func @in_loop(%C: !C, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{device-map-place: tile.device_map sits inside 'scf.for'; a device map is made once per CTA, in its kernel's body}}
      %m = tile.device_map %C : !C
    }
    gpu.terminator
  }
  return
}

// -----

func.func @on_host(%C: memref<?x64xf32>) {
  // expected-error @+1 {{device-map-place: tile.device_map sits inside 'func.func'; a device map is made once per CTA, in its kernel's body}}
  %m = tile.device_map %C : memref<?x64xf32>
  return
}

// -----

!S = memref<64x64xf32, #gpu.address_space<workgroup>>
func.func @shared_template(%S: !S) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{device-map-place: the template 'memref<64x64xf32, #gpu.address_space<workgroup>>' is not in global memory; a tensor map describes a global tensor}}
    %m = tile.device_map %S : !S
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x4096xbf16>
func.func @view_size(%C: !C, %V: memref<?x2048xbf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-view: the view's size 1 is 2048; the template fixes it at 4096, and the plan of the copies through the map was made for that}}
    %ok = tile.device_map_update %m to %V : !tile.device_map<!C>, memref<?x2048xbf16>
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x64xbf16>
!V = memref<?x64xbf16, strided<[128, 2]>>
func.func @view_stride(%C: !C, %V: !V) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-view: the view's stride 0 is 128; the template fixes it at 64, and the plan of the copies through the map was made for that}}
    %ok = tile.device_map_update %m to %V : !tile.device_map<!C>, !V
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x64xbf16>
func.func @view_element(%C: !C, %V: memref<?x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-view: the view's element type is 'f16'; the template's is 'bf16'}}
    %ok = tile.device_map_update %m to %V : !tile.device_map<!C>, memref<?x64xf16>
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x64xbf16>
func.func @view_rank(%C: !C, %V: memref<?x?x64xbf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-view: the view has rank 3; the template has rank 2}}
    %ok = tile.device_map_update %m to %V : !tile.device_map<!C>, memref<?x?x64xbf16>
    gpu.terminator
  }
  return
}

// -----

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x64xbf16>
func.func @other_buffer(%C: !C, %D: !C) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-copy: the copy's global operand is not the template of its device map (tile.device_map of another buffer)}}
    tile.copy_async %D[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x64xbf16>
// expected-note @+1 {{prior use here}}
func.func @map_type(%C: !C, %m: !tile.device_map<memref<?x32xbf16>>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: '!tile.device_map<memref<?x64xbf16>>' vs '!tile.device_map<memref<?x32xbf16>>'}}
  tile.device_map_release %m : !tile.device_map<!C>
  return
}

// -----

// The stage of a staged update (device-map-stage): shared memory, 128
// contiguous bytes, on a 128-byte boundary where the op sees its address.
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
func.func @stage_in_global(%C: !C, %view: !view, %g: memref<128xi8>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-stage: the stage 'memref<128xi8>' is in global memory; a map is staged in shared memory}}
    %ok = tile.device_map_update %m to %view staged in %g : !tile.device_map<!C>, !view, memref<128xi8>
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
func.func @stage_size(%C: !C, %view: !view) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = tile.arena_view [0] : memref<16xi32, #gpu.address_space<workgroup>>
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-stage: the stage holds 64 bytes; a tensor map is 128}}
    %ok = tile.device_map_update %m to %view staged in %s : !tile.device_map<!C>, !view, memref<16xi32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!strided = memref<64xi8, strided<[2]>, #gpu.address_space<workgroup>>
func.func @stage_strided(%C: !C, %view: !view, %s: !strided) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-stage: the stage 'memref<64xi8, strided<[2]>, #gpu.address_space<workgroup>>' is not a static, contiguous buffer of whole-byte elements}}
    %ok = tile.device_map_update %m to %view staged in %s : !tile.device_map<!C>, !view, !strided
    gpu.terminator
  }
  return
}

// -----

!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
func.func @stage_boundary(%C: !C, %view: !view) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = tile.arena_view [64] : memref<128xi8, #gpu.address_space<workgroup>>
    %m = tile.device_map %C : !C
    // expected-error @+1 {{device-map-stage: the stage starts 64 bytes into the arena, not on a 128-byte boundary}}
    %ok = tile.device_map_update %m to %view staged in %s : !tile.device_map<!C>, !view, memref<128xi8, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
