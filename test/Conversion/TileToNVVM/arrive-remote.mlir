// RUN: tile-opt %s --convert-tile-to-nvvm | FileCheck %s

// tile.arrive_remote: barrier 1 of the group, mapped into CTA 1's shared
// window (mapa), then the arrive (release at CTA scope, the default) on that
// address.
// CHECK-LABEL: gpu.func @release_to_peer
// CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i64
// CHECK: %[[CTA:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %[[GEP]], %[[CTA]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK-NOT: tile.arrive_remote
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
gpu.module @k {
  gpu.func @release_to_peer() kernel attributes {known_cluster_size = array<i32: 2, 1, 1>} {
    %c1 = arith.constant 1 : index
    %bars = nvgpu.mbarrier.create -> !bars
    tile.arrive_remote %bars[%c1] on(%c1) : !bars
    gpu.return
  }
}
