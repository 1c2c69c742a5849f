// GPU suite, async-store-reuse (docs/async-protocol.md): A (128x256 f16)
// to B through one 64x256 stage: fill, TMA store, refill, TMA store.
// Wrong: the stage is refilled while the first store may still read it:
// the refill comes from a second stage (no global latency) and writes the
// stage's back half first, which the store reads last, so B's first half
// gets rows of A's second half.
!tile = memref<64x256xf16, #tile.layout<(64, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  func.func @async_store_reuse_wrong(%A: memref<128x256xf16>, %B: memref<128x256xf16>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 65536 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      %c0 = arith.constant 0 : index
      %leader = arith.cmpi eq, %tx, %c0 : index
      %s = tile.arena_view [0] : !tile
      %t = tile.arena_view [32768] : !tile
      tile.copy %s[0, 0] [64, 256], %A[0, 0] [64, 256] {scope = "cta"}
          : !tile, memref<128x256xf16>
      tile.copy %t[0, 0] [64, 256], %A[64, 0] [64, 256] {scope = "cta"}
          : !tile, memref<128x256xf16>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      scf.if %leader {
        tile.copy_async %B[0, 0] [64, 256], %s[0, 0] [64, 256]
            : memref<128x256xf16>, !tile
        tile.bulk_commit_group
      }
      gpu.barrier
      tile.copy %s[32, 0] [32, 256], %t[32, 0] [32, 256] {scope = "cta"}
          : !tile, !tile
      tile.copy %s[0, 0] [32, 256], %t[0, 0] [32, 256] {scope = "cta"}
          : !tile, !tile
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      gpu.barrier
      scf.if %leader {
        tile.copy_async %B[64, 0] [64, 256], %s[0, 0] [64, 256]
            : memref<128x256xf16>, !tile
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.terminator
    }
    return
  }
}
