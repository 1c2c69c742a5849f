// A device map staged in shared memory, end to end: the warp decides once
// (vote.sync all) whether the view passes the template plan's guards and
// the stage sits on a 128-byte boundary; lane 0 copies the template into the
// stage and replaces the fields there (tensormap.replace .shared::cta); after
// bar.warp.sync the warp copies the stage to the CTA's slot with
// tensormap.cp_fenceproxy, which releases it; the acquire follows (inserted
// by the pipeline), then the copy through the slot.
// RUN: tile-opt %s --tile-gpu-pipeline=format=none | FileCheck %s
// RUN: tile-opt %s --tile-gpu-pipeline=format=isa -o %t.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>
!stage = memref<128xi8, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  func.func @staged_store(%C: !C, %rows: index, %off: index, %r: index) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 8320 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem_bytes {
      // Constants in the body: outlining would pass outer ones as arguments,
      // and the lane analysis reads them as constants only here.
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %smem = tile.arena_view [0] : !tile_t
      %stage = tile.arena_view [8192] : !stage
      %m = tile.device_map %C : !C
      %view = memref.reinterpret_cast %C to offset: [%off], sizes: [%rows, 4096], strides: [4096, 1] : !C to !view
      %warp0 = arith.cmpi ult, %tx, %c32 : index
      scf.if %warp0 {
        %ok = tile.device_map_update %m to %view staged in %stage : !tile.device_map<!C>, !view, !stage
        %leader = arith.cmpi eq, %tx, %c0 : index
        %go = arith.andi %ok, %leader : i1
        scf.if %go {
          tile.copy_async %C[%r, 0] [64, 64], %smem[0, 0] [64, 64] through(%m : !tile.device_map<!C>) : !C, !tile_t
          tile.bulk_commit_group
          tile.bulk_wait_group 0
        }
      }
      gpu.terminator
    }
    return
  }
}

// CHECK-LABEL: llvm.func @staged_store(
// CHECK: llvm.call @tileRuntimeDeviceMapArray(
// CHECK: gpu.module @staged_store_kernel
// CHECK: llvm.func @staged_store_kernel({{.*}}%[[TEMPLATE:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant}, %[[SLOTS:.*]]: !llvm.ptr)
// CHECK-DAG: %[[STAGE:.*]] = llvm.getelementptr %{{.*}}[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-DAG: %[[GLOBAL:.*]] = llvm.addrspacecast %[[SLOTS]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[GLOBAL]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[STAGE_INT:.*]] = llvm.ptrtoint %[[STAGE]] : !llvm.ptr<3> to i64
// CHECK: %[[STAGE_REM:.*]] = llvm.urem %[[STAGE_INT]], %{{.*}} : i64
// CHECK-NEXT: llvm.icmp "eq" %[[STAGE_REM]], %{{.*}} : i64
// CHECK: %[[OK:.*]] = nvvm.vote.sync all %{{.*}}, %{{.*}} -> i1
// CHECK: llvm.cond_br %[[OK]]
// CHECK: nvvm.read.ptx.sreg.laneid
// CHECK: llvm.load %[[TEMPLATE]] {alignment = 16 : i64} : !llvm.ptr -> vector<2xi64>
// CHECK: llvm.store %{{.*}}, %[[STAGE]] {alignment = 16 : i64} : vector<2xi64>, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}} {alignment = 16 : i64} : vector<2xi64>, !llvm.ptr<3>
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address"(%[[STAGE]], %{{.*}}) : (!llvm.ptr<3>, i64) -> ()
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.dim"(%[[STAGE]], %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32, i32) -> ()
// CHECK: nvvm.bar.warp.sync %{{.*}} : i32
// CHECK: %[[SLOT_INT:.*]] = llvm.ptrtoint %[[SLOT]] : !llvm.ptr<1> to i64
// CHECK: %[[STAGE_I32:.*]] = llvm.ptrtoint %[[STAGE]] : !llvm.ptr<3> to i32
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$0], [$1], 128;", "l,r" %[[SLOT_INT]], %[[STAGE_I32]] : (i64, i32) -> ()
// CHECK-NOT: nvvm.fence.proxy.release
// CHECK: %[[GENERIC:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.fence.proxy.acquire <gpu> %[[GENERIC]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[GENERIC]]

// PTX: vote.sync.all.pred
// PTX: tensormap.replace.tile.global_address.shared::cta.b1024.b64
// PTX: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 {{.*}}, 1, %r{{[0-9]+}};
// PTX: bar.warp.sync -1;
// PTX: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd{{[0-9]+}}], [%r{{[0-9]+}}], 128;
// PTX-NOT: fence.proxy.tensormap::generic.release
// PTX: fence.proxy.tensormap::generic.acquire.gpu [%rd{{[0-9]+}}], 128;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
