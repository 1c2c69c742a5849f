// With insert-fences, a missing proxy fence is inserted after the generic
// writes (before the next barrier of their block) instead of reported, and
// the result verifies clean.
// RUN: tile-opt %s --tile-verify-async=insert-fences | FileCheck %s
// RUN: tile-opt %s --tile-verify-async=insert-fences | tile-opt --tile-verify-async -o /dev/null

!smem = memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
!plain = memref<8x256xf16, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @copy_then_store
    // CHECK: %[[S:.*]] = tile.arena_view [0]
    // CHECK-NEXT: tile.copy %[[S]][0, 0] [8, 256], %{{.*}}[0, 0] [8, 256]
    // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
    // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    // CHECK-NEXT: gpu.barrier
    // CHECK: tile.copy_async %{{.*}}[0, 0] [8, 256], %[[S]][0, 0] [8, 256]
    gpu.func @copy_then_store(%A: memref<8x256xf16>, %B: memref<8x256xf16>) kernel {
      %s = tile.arena_view [0] : !smem
      tile.copy %s[0, 0] [8, 256], %A[0, 0] [8, 256] {scope = "cta"}
          : !smem, memref<8x256xf16>
      %c0 = arith.constant 0 : index
      gpu.barrier
      %tx = gpu.thread_id x
      %leader = arith.cmpi eq, %tx, %c0 : index
      scf.if %leader {
        tile.copy_async %B[0, 0] [8, 256], %s[0, 0] [8, 256]
            : memref<8x256xf16>, !smem
        tile.bulk_commit_group
        tile.bulk_wait_group 0
      }
      gpu.return
    }

    // One fence after the last of several stores of a block, inside the
    // branch that writes.
    // CHECK-LABEL: gpu.func @stores_in_branch
    // CHECK: scf.if
    // CHECK-NEXT: memref.store %[[V:.*]], %[[T:.*]][%{{.*}}, %{{.*}}]
    // CHECK-NEXT: memref.store %[[V]], %[[T]][%{{.*}}, %{{.*}}]
    // CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    // CHECK-NEXT: }
    // CHECK-NEXT: gpu.barrier
    // CHECK-NOT: nvvm.fence.proxy
    // CHECK: gpu.return
    gpu.func @stores_in_branch(%B: memref<8x256xf16>, %v: f16, %c: i1) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = tile.arena_view [0] : !plain
      scf.if %c {
        memref.store %v, %t[%c0, %c0] : !plain
        memref.store %v, %t[%c0, %c1] : !plain
      }
      gpu.barrier
      tile.copy_async %B[0, 0] [8, 256], %t[0, 0] [8, 256]
          : memref<8x256xf16>, !plain
      tile.bulk_commit_group
      tile.bulk_wait_group 0
      gpu.return
    }
  }
}
