// The slot array of a launch with device maps is fetched per stream: a
// launch with an async dependency passes that token, which the host
// lowering turns into the stream the launch runs on, to
// tileRuntimeDeviceMapArrayOnStream, so launches of one site on two streams
// (which may run at the same time) write different arrays; a launch without
// one keeps tileRuntimeDeviceMapArray (the NULL stream's array).
// RUN: tile-opt %s --tile-gpu-pipeline=format=none | FileCheck %s

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>

module attributes {gpu.container_module} {
  func.func @store_async(%C: !C, %rows: index, %off: index, %r: index,
                         %stream: !gpu.async.token) -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 8192 : i32
    %done = gpu.launch async [%stream]
               blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.terminator
    }
    return %done : !gpu.async.token
  }

  func.func @store(%C: !C, %rows: index, %off: index, %r: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.terminator
    }
    return
  }
}

// CHECK-DAG: llvm.func @tileRuntimeDeviceMapArrayOnStream(!llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @tileRuntimeDeviceMapArray(!llvm.ptr, i64) -> !llvm.ptr
// The async launch: its stream (the function's token argument, a pointer
// once lowered) is the array's key and the launch's stream.
// CHECK-LABEL: llvm.func @store_async(
// CHECK-SAME: %[[STREAM:arg[0-9]+]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(384 : i64) : i64
// CHECK: %[[ARRAY:.*]] = llvm.call @tileRuntimeDeviceMapArrayOnStream(%{{.*}}, %[[BYTES]], %[[STREAM]]) : (!llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @store_async_kernel::@store_async_kernel {{.*}}, %[[ARRAY]] : !llvm.ptr)
// The synchronous launch keeps the stream-less array.
// CHECK-LABEL: llvm.func @store(
// CHECK: %[[SBYTES:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK: %[[SARRAY:.*]] = llvm.call @tileRuntimeDeviceMapArray(%{{.*}}, %[[SBYTES]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: gpu.launch_func @store_kernel::@store_kernel {{.*}}, %[[SARRAY]] : !llvm.ptr)
