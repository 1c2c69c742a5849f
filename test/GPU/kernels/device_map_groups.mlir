// Device maps (test/GPU/device_map_check.cpp checks it): CTA g copies group
// g's rows of A (8 groups of up to 64 rows x 64 bf16, one TMA box each)
// into C through a device map pointed at the group's view of C: rows
// [start_g, start_g + count_g), 64 columns, row pitch `pitch` elements, with
// count_g and start_g read from device memory. The map's dimensions clip
// the box: C's rows past the group and its columns past 64 keep what they
// held. A group of 0 rows fails the update's guard and copies nothing.
// @device_map_groups_on launches on the caller's stream and returns it: the
// check runs it on a stream of its own and captures it into a CUDA graph.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!A = memref<8x64x64xbf16>
!C = memref<?x?xbf16>
!view = memref<?x64xbf16, strided<[?, 1], offset: ?>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @device_map_groups_on(%A: !A, %C: !C, %counts: memref<8xi32>,
                                  %starts: memref<8xi32>,
                                  %stream: !gpu.async.token)
      -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 9216 : i32
    %done = gpu.launch async [%stream]
               blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : index
      %tx_bytes = arith.constant 8192 : index
      %smem = tile.arena_view [0] : !tile_t
      %bar = nvgpu.mbarrier.create -> !bars
      %m = tile.device_map %C : !C
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      scf.if %leader {
        %count32 = memref.load %counts[%bx] : memref<8xi32>
        %start32 = memref.load %starts[%bx] : memref<8xi32>
        %count = arith.index_cast %count32 : i32 to index
        %start = arith.index_cast %start32 : i32 to index
        %pitch = memref.dim %C, %one : !C
        %offset = arith.muli %start, %pitch : index
        %view = memref.reinterpret_cast %C to offset: [%offset],
            sizes: [%count, 64], strides: [%pitch, 1] : !C to !view
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        // tile-fence-device-maps puts the release and acquire here.
        scf.if %ok {
          tile.copy_async %smem[0, 0] [64, 64], %A[%bx, 0, 0] [1, 64, 64]
              barrier(%bar[%c0]) : !tile_t, !A, !bars
          nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !bars
          %phase = arith.constant false
          %ticks = arith.constant 10000000 : index
          nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
          tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64]
              through(%m : !tile.device_map<!C>) : !C, !tile_t
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
      }
      gpu.terminator
    }
    return %done : !gpu.async.token
  }
}
