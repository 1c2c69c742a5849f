// The device-map rules of tile-verify-async, each on wrong kernels and their
// corrected twins (which verify clean): device-map-fence (a copy through a
// map needs an update, a release and an acquire before it on every path)
// device-map-in-flight (no update while a copy through the map may still
// read it) and device-map-stage (a staged update, a warp's collective,
// under no control that splits a warp).
// RUN: tile-opt %s -split-input-file --tile-verify-async -verify-diagnostics -o /dev/null

// device-map-fence: a copy before any update reads a slot that holds no map.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy_before_update(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 never updated; its slot holds a tensor map only after tile.device_map_update, tile.device_map_release and tile.device_map_acquire}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      gpu.return
    }
    gpu.func @copy_after_update(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-fence: an update, then the copy, with no release: the copy may
// read the map the slot held before. An acquire alone does not help. The
// maps are numbered in the order of the kernel's tile.device_map ops.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @no_release(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 updated but not released; its issuing thread needs tile.device_map_release, then tile.device_map_acquire, after the update (tile-fence-device-maps inserts them)}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @acquire_without_release(%C: !C, %D: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %n = tile.device_map %D : !C
      %ok = tile.device_map_update %n to %view : !tile.device_map<!C>, !view
      tile.device_map_acquire %n : !tile.device_map<!C>
      // expected-error @+1 {{device-map-fence: the copy reads device map #1 updated but not released; its issuing thread needs tile.device_map_release, then tile.device_map_acquire, after the update (tile-fence-device-maps inserts them)}}
      tile.copy_async %D[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%n : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @released_and_acquired(%C: !C, %D: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %n = tile.device_map %D : !C
      %ok = tile.device_map_update %n to %view : !tile.device_map<!C>, !view
      tile.device_map_release %n : !tile.device_map<!C>
      tile.device_map_acquire %n : !tile.device_map<!C>
      tile.copy_async %D[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%n : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-fence: released but not acquired.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @no_acquire(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 released but not acquired; its issuing thread needs tile.device_map_acquire after the release}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    // The acquire before the release does not count; a second release is
    // harmless.
    gpu.func @acquire_before_release(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.device_map_release %m : !tile.device_map<!C>
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 released but not acquired; its issuing thread needs tile.device_map_acquire after the release}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @acquired(%C: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      tile.device_map_release %m : !tile.device_map<!C>
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.device_map_release %m : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-fence through scf.if: the state after the branches is the
// worse of the two, so a branch that updates without the fences, or a map
// only one branch sets, breaks the copy after them.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @branch_updates(%C: !C, %view: !view, %next: !view, %c: i1) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      scf.if %c {
        %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      }
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 updated but not released; its issuing thread needs tile.device_map_release, then tile.device_map_acquire, after the update (tile-fence-device-maps inserts them)}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @one_branch_sets(%C: !C, %view: !view, %c: i1) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.if %c {
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 never updated; its slot holds a tensor map only after tile.device_map_update, tile.device_map_release and tile.device_map_acquire}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @branch_fences(%C: !C, %view: !view, %next: !view, %c: i1) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      scf.if %c {
        %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    // A condition the walk knows takes one branch only.
    gpu.func @known_branch(%C: !C, %view: !view) kernel {
      %true = arith.constant true
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.if %true {
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-fence in loops: the state at the loop head joins the entry and
// the back edge, so an update at the end of the body breaks the copy at the
// start of the next iteration (scf.for and scf.while alike).
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @loop_updates_at_end(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{device-map-fence: the copy reads device map #0 updated but not released; its issuing thread needs tile.device_map_release, then tile.device_map_acquire, after the update (tile-fence-device-maps inserts them)}}
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
        %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      }
      gpu.return
    }
    gpu.func @loop_fences_at_end(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      scf.for %i = %c0 to %n step %c1 {
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
        %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    // A loop that may not run leaves the map as it found it: unset here.
    gpu.func @loop_may_not_run(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.for %i = %c0 to %n step %c1 {
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 never updated; its slot holds a tensor map only after tile.device_map_update, tile.device_map_release and tile.device_map_acquire}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    // One that runs at least once (constant bounds) leaves it acquired.
    gpu.func @loop_runs(%C: !C, %view: !view) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.for %i = %c0 to %c4 step %c1 {
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @while_updates_at_end(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      %r = scf.while (%i = %c0) : (index) -> index {
        %more = arith.cmpi ult, %i, %n : index
        scf.condition(%more) %i : index
      } do {
      ^bb0(%j: index):
        // expected-error @+1 {{device-map-fence: the copy reads device map #0 released but not acquired; its issuing thread needs tile.device_map_acquire after the release}}
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
        %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        %k = arith.addi %j, %c1 : index
        scf.yield %k : index
      }
      gpu.return
    }
    gpu.func @while_fences_at_end(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      %r = scf.while (%i = %c0) : (index) -> index {
        %more = arith.cmpi ult, %i, %n : index
        scf.condition(%more) %i : index
      } do {
      ^bb0(%j: index):
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
        %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
        %k = arith.addi %j, %c1 : index
        scf.yield %k : index
      }
      gpu.return
    }
  }
}

// -----

// device-map-in-flight: a store through the map reads it until it has
// written global memory; an update before tile.bulk_wait_group 0 covers it
// may change the map under it. Uncommitted, or covered by a wait with
// `read` only (which returns once shared memory has been read), the store
// is still pending.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @store_then_update(%C: !C, %view: !view, %next: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      // expected-note @+1 {{the store through the map}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      // expected-error @+1 {{device-map-in-flight: device map #0 is updated while a store through it may be pending; wait for it with tile.bulk_wait_group 0 before the update}}
      %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @wait_read_only(%C: !C, %view: !view, %next: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      // expected-note @+1 {{the store through the map}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0 {read}
      // expected-error @+1 {{device-map-in-flight: device map #0 is updated while a store through it may be pending; wait for it with tile.bulk_wait_group 0 before the update}}
      %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @wait_all(%C: !C, %view: !view, %next: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0 {read}
      tile.bulk_wait_group 0
      %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-in-flight counts bulk groups: tile.bulk_wait_group 1 retires
// every group but the newest, so map #0's store (the older group) is done
// and map #1's (the newest) may not be.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @groups(%C: !C, %D: !C, %view: !view) kernel {
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      %n = tile.device_map %D : !C
      %ok0 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      %ok1 = tile.device_map_update %n to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.device_map_release %n : !tile.device_map<!C>
      tile.device_map_acquire %n : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      // expected-note @+1 {{the store through the map}}
      tile.copy_async %D[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%n : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 1
      %ok2 = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      // expected-error @+1 {{device-map-in-flight: device map #1 is updated while a store through it may be pending; wait for it with tile.bulk_wait_group 0 before the update}}
      %ok3 = tile.device_map_update %n to %view : !tile.device_map<!C>, !view
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-in-flight across iterations: the store of one iteration is
// pending at the next one's update unless the body waits for it.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @loop_no_wait(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{device-map-in-flight: device map #0 is updated while a store through it may be pending; wait for it with tile.bulk_wait_group 0 before the update}}
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
        // expected-note @+1 {{the store through the map}}
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0 {read}
      }
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @loop_wait(%C: !C, %view: !view, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %smem = tile.arena_view [0] : !tile_t
      %m = tile.device_map %C : !C
      scf.for %i = %c0 to %n step %c1 {
        %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
        tile.device_map_release %m : !tile.device_map<!C>
        tile.device_map_acquire %m : !tile.device_map<!C>
        tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }
  }
}

// -----

// device-map-in-flight for loads: a load through the map reads it until its
// mbarrier phase completes, so the update waits on the barrier first.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @load_then_update(%C: !C, %view: !view, %next: !view) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %smem = tile.arena_view [0] : !tile_t
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      // expected-note @+1 {{the load through the map}}
      tile.copy_async %smem[0, 0] [64, 64], %C[0, 0] [64, 64] barrier(%bar[%c0]) through(%m : !tile.device_map<!C>) : !tile_t, !C, !bars
      tile.arrive_expect_tx %bar[%c0] : !bars
      // expected-error @+1 {{device-map-in-flight: device map #0 is updated while a load through it may be pending; wait on barrier 0 of %1, which completes the load, before the update}}
      %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      gpu.return
    }
    gpu.func @wait_then_update(%C: !C, %view: !view, %next: !view) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %phase = arith.constant false
      %ticks = arith.constant 10000000 : index
      %smem = tile.arena_view [0] : !tile_t
      %bar = nvgpu.mbarrier.create -> !bars
      nvgpu.mbarrier.init %bar[%c0], %c1 : !bars
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
      tile.device_map_release %m : !tile.device_map<!C>
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %smem[0, 0] [64, 64], %C[0, 0] [64, 64] barrier(%bar[%c0]) through(%m : !tile.device_map<!C>) : !tile_t, !C, !bars
      tile.arrive_expect_tx %bar[%c0] : !bars
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %phase, %ticks : !bars
      %ok2 = tile.device_map_update %m to %next : !tile.device_map<!C>, !view
      gpu.return
    }
  }
}

// -----

// The same rules in a gpu.launch body; there the fences tile-fence-device-maps
// inserts make the copy after the update clean
// (test/Transforms/fence-device-maps.mlir).
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
func.func @launch(%C: !C, %view: !view) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %smem = tile.arena_view [0] : !tile_t
    %m = tile.device_map %C : !C
    %ok = tile.device_map_update %m to %view : !tile.device_map<!C>, !view
    // expected-error @+1 {{device-map-fence: the copy reads device map #0 updated but not released; its issuing thread needs tile.device_map_release, then tile.device_map_acquire, after the update (tile-fence-device-maps inserts them)}}
    tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
    tile.bulk_commit_group
    tile.bulk_wait_group 0
    gpu.terminator
  }
  return
}

// -----

// A staged update (built in shared memory, copied to the slot by the warp's
// tensormap.cp_fenceproxy) releases the map: a copy needs the acquire only.
!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @staged_no_acquire(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %smem = tile.arena_view [0] : !tile_t
      %stage = tile.arena_view [8192] : !stage
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
      // expected-error @+1 {{device-map-fence: the copy reads device map #0 released but not acquired}}
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
    gpu.func @staged_acquired(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %smem = tile.arena_view [0] : !tile_t
      %stage = tile.arena_view [8192] : !stage
      %m = tile.device_map %C : !C
      %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
      tile.device_map_acquire %m : !tile.device_map<!C>
      tile.copy_async %C[0, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}

// -----

// device-map-stage: every lane of a warp reaches a staged update. One
// thread's branch splits the warp; a branch on the warp (thread x against a
// multiple of 32, or thread x divided by 32) does not, where the block's
// warps are runs of thread x.
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @one_thread(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %leader = arith.cmpi eq, %tx, %c0 : index
      // expected-note @+1 {{the control that splits the warp}}
      scf.if %leader {
        // expected-error @+1 {{device-map-stage: the staged update sits under 'scf.if' whose control differs between the lanes of a warp; every lane of the warp executes tensormap.cp_fenceproxy}}
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    gpu.func @first_warp(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c32 = arith.constant 32 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %warp0 = arith.cmpi ult, %tx, %c32 : index
      scf.if %warp0 {
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    // The CTA's position is the same in every lane: a branch on the block
    // and a persistent loop over block-indexed tiles keep warps whole.
    gpu.func @per_block(%C: !C, %view: !view, %tiles: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.cmpi eq, %bx, %c0 : index
      scf.if %first {
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      scf.for %t = %bx to %tiles step %gx {
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    gpu.func @warp_index(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c63 = arith.constant 63 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %warp = arith.divui %tx, %c32 : index
      %is1 = arith.cmpi eq, %warp, %c1 : index
      %low = arith.cmpi sge, %c63, %tx : index
      %both = arith.andi %is1, %low : i1
      scf.if %both {
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
  }
}

// -----

// Where the block is not known to keep its warps in runs of thread x (no
// stated size, or x not a multiple of 32 in a 2-D block), x < 32 may split
// a warp.
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @unstated_block(%C: !C, %view: !view) kernel {
      %c32 = arith.constant 32 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %warp0 = arith.cmpi ult, %tx, %c32 : index
      // expected-note @+1 {{the control that splits the warp}}
      scf.if %warp0 {
        // expected-error @+1 {{device-map-stage: the staged update sits under 'scf.if'}}
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    gpu.func @short_rows(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 48, 2, 1>} {
      %c32 = arith.constant 32 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %warp0 = arith.cmpi ult, %tx, %c32 : index
      // expected-note @+1 {{the control that splits the warp}}
      scf.if %warp0 {
        // expected-error @+1 {{device-map-stage: the staged update sits under 'scf.if'}}
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
  }
}

// -----

// Not a warp boundary: thread x divided by 16, or compared with 16, splits
// a warp in two.
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @half_warp_index(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %half = arith.divui %tx, %c16 : index
      %first = arith.cmpi eq, %half, %c0 : index
      // expected-note @+1 {{the control that splits the warp}}
      scf.if %first {
        // expected-error @+1 {{device-map-stage: the staged update sits under 'scf.if'}}
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
    gpu.func @half_warp_bound(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c15 = arith.constant 15 : index
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      %tx = gpu.thread_id x
      %low = arith.cmpi ule, %tx, %c15 : index
      // expected-note @+1 {{the control that splits the warp}}
      scf.if %low {
        // expected-error @+1 {{device-map-stage: the staged update sits under 'scf.if'}}
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        tile.device_map_acquire %m : !tile.device_map<!C>
      }
      gpu.return
    }
  }
}

// -----

// A block of 48 threads has a partial last warp: no staged update in it.
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @partial_warp(%C: !C, %view: !view) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
      %stage = tile.arena_view [0] : !stage
      %m = tile.device_map %C : !C
      // expected-error @+1 {{device-map-stage: the staged update runs in a block of 48 threads, not a multiple of 32: its last warp is partial, and tensormap.cp_fenceproxy needs a whole warp}}
      %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
      tile.device_map_acquire %m : !tile.device_map<!C>
      gpu.return
    }
  }
}
