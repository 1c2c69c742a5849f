// RUN: tile-opt %s -split-input-file --tile-plan-copies --tile-verify-async -verify-diagnostics -o /dev/null

// tile-verify-async applies the proxy-fence rule to a copy because its
// variant declares that it uses the asynchronous proxy
// (CopyVariantProperties::usesAsyncProxy), not because of the variant's
// name: two test variants (test/lib/TestCopyVariants.cpp) differ only in
// that property. A generic write, then a store through each.

!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @declares_async_proxy(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      // expected-note @+1 {{the generic write}}
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta"}
          : !smem, memref<8x256xf16>
      gpu.barrier
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        // expected-error @+1 {{async-proxy-fence: this TMA store reads shared bytes [0, 4096) that a generic write (tile.copy) stored at bytes [0, 4096) with no fence.proxy.async on the path between them}}
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256] {dispatch = "test-async-bulk"}
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
  }
}

// -----

!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @declares_generic_proxy(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %s = tile.arena_view [0] : !smem
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta"}
          : !smem, memref<8x256xf16>
      gpu.barrier
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256] {dispatch = "test-generic-copy"}
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
  }
}
