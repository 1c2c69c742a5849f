// Device maps (test/GPU/device_map_check.cpp checks it). CTA g loads group
// g's rows of A (8 groups of up to 64 rows x 64 bf16, packed at 64-row
// pitch) through a device map pointed at them -- rows [64 g, 64 g + count_g)
// -- and stores the 64 x 64 tile into C through a second device map pointed
// at rows [start_g, start_g + count_g + 4) of C, 64 columns, row pitch
// `pitch` elements. count_g and start_g are read from device memory. The
// maps' dimensions clip both boxes: the load fills the tile's rows past
// count_g with zeros, which land in C's rows count_g .. count_g + 3; C's later
// rows and its columns past 64 keep what they held. A group of 0 rows fails
// the load map's guard and copies nothing.
// @device_map_groups_on launches on the caller's stream and returns it: the
// check runs it on a stream of its own and captures it into a CUDA graph.
// @device_map_groups_staged_on does the same with the maps staged in shared
// memory: warp 0 updates both (tensormap.cp_fenceproxy copies each to its
// slot), then thread 0 copies through them.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!A = memref<?x64xbf16>
!C = memref<?x?xbf16>
!viewA = memref<?x64xbf16, strided<[64, 1], offset: ?>>
!viewC = memref<?x64xbf16, strided<[?, 1], offset: ?>>
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
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c4096 = arith.constant 4096 : index
      %tx_bytes = arith.constant 8192 : index
      %smem = tile.arena_view [0] : !tile_t
      %bar = nvgpu.mbarrier.create -> !bars
      %mc = tile.device_map %C : !C
      %ma = tile.device_map %A : !A
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
        %offA = arith.muli %bx, %c4096 : index
        %viewA = memref.reinterpret_cast %A to offset: [%offA],
            sizes: [%count, 64], strides: [64, 1] : !A to !viewA
        %pitch = memref.dim %C, %one : !C
        %offC = arith.muli %start, %pitch : index
        %rowsC = arith.addi %count, %c4 : index
        %viewC = memref.reinterpret_cast %C to offset: [%offC],
            sizes: [%rowsC, 64], strides: [%pitch, 1] : !C to !viewC
        %okA = tile.device_map_update %ma to %viewA : !tile.device_map<!A>, !viewA
        %okC = tile.device_map_update %mc to %viewC : !tile.device_map<!C>, !viewC
        // tile-fence-device-maps puts the releases and acquires here.
        %ok = arith.andi %okA, %okC : i1
        scf.if %ok {
          tile.copy_async %smem[0, 0] [64, 64], %A[0, 0] [64, 64]
              barrier(%bar[%c0]) through(%ma : !tile.device_map<!A>)
              : !tile_t, !A, !bars
          nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !bars
          %phase = arith.constant false
          %ticks = arith.constant 10000000 : index
          nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
          tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64]
              through(%mc : !tile.device_map<!C>) : !C, !tile_t
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
      }
      gpu.terminator
    }
    return %done : !gpu.async.token
  }

  func.func @device_map_groups_staged_on(%A: !A, %C: !C, %counts: memref<8xi32>,
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
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tx_bytes = arith.constant 8192 : index
      %smem = tile.arena_view [0] : !tile_t
      %stageC = tile.arena_view [8192] : memref<128xi8, #gpu.address_space<workgroup>>
      %stageA = tile.arena_view [8320] : memref<128xi8, #gpu.address_space<workgroup>>
      %bar = nvgpu.mbarrier.create -> !bars
      %mc = tile.device_map %C : !C
      %ma = tile.device_map %A : !A
      %leader = arith.cmpi eq, %tx, %c0 : index
      %warp0 = arith.cmpi ult, %tx, %c32 : index
      scf.if %leader {
        nvgpu.mbarrier.init %bar[%c0], %one : !bars
      }
      gpu.barrier
      scf.if %warp0 {
        %count32 = memref.load %counts[%bx] : memref<8xi32>
        %start32 = memref.load %starts[%bx] : memref<8xi32>
        %count = arith.index_cast %count32 : i32 to index
        %start = arith.index_cast %start32 : i32 to index
        %offA = arith.muli %bx, %c4096 : index
        %viewA = memref.reinterpret_cast %A to offset: [%offA],
            sizes: [%count, 64], strides: [64, 1] : !A to !viewA
        %pitch = memref.dim %C, %one : !C
        %offC = arith.muli %start, %pitch : index
        %rowsC = arith.addi %count, %c4 : index
        %viewC = memref.reinterpret_cast %C to offset: [%offC],
            sizes: [%rowsC, 64], strides: [%pitch, 1] : !C to !viewC
        // The whole warp: lane 0 builds each map in its stage, the warp's
        // tensormap.cp_fenceproxy copies it to the slot and releases it.
        %okA = tile.device_map_update %ma to %viewA staged in %stageA
            : !tile.device_map<!A>, !viewA, memref<128xi8, #gpu.address_space<workgroup>>
        %okC = tile.device_map_update %mc to %viewC staged in %stageC
            : !tile.device_map<!C>, !viewC, memref<128xi8, #gpu.address_space<workgroup>>
        // tile-fence-device-maps puts the acquires here.
        %ok = arith.andi %okA, %okC : i1
        %go = arith.andi %ok, %leader : i1
        scf.if %go {
          tile.copy_async %smem[0, 0] [64, 64], %A[0, 0] [64, 64]
              barrier(%bar[%c0]) through(%ma : !tile.device_map<!A>)
              : !tile_t, !A, !bars
          nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx_bytes : !bars
          %phase = arith.constant false
          %ticks = arith.constant 10000000 : index
          nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
          tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64]
              through(%mc : !tile.device_map<!C>) : !C, !tile_t
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
      }
      gpu.terminator
    }
    return %done : !gpu.async.token
  }
}
