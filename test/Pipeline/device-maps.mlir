// A store through a device map, end to end. Host: the template's map is
// encoded as every map is, and the runtime's slot array (grid CTAs x 1 slot x
// 128 bytes) is fetched per launch and checked like the maps before the
// launch takes it as its last argument. Kernel: the CTA's slot, the
// template copied in, the view's address and run-time size replaced, the
// fences, and the copy issued through the slot.
// RUN: tile-opt %s --tile-gpu-pipeline=format=none | FileCheck %s
// RUN: tile-opt %s --tile-gpu-pipeline=format=isa -o %t.mlir
// RUN: python3 %tile_src_root/scripts/extract-ptx.py %t.mlir -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

!tile_t = memref<64x64xbf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
!C = memref<?x4096xbf16>
!view = memref<?x4096xbf16, strided<[4096, 1], offset: ?>>

module attributes {gpu.container_module} {
  func.func @grouped_store(%C: !C, %rows: index, %off: index, %r: index) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %smem_bytes = arith.constant 8192 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
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

// CHECK-LABEL: llvm.func @grouped_store(
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(384 : i64) : i64
// CHECK: llvm.call @tileTensorMapGetCached(
// CHECK: %[[ARRAY:.*]] = llvm.call @tileRuntimeDeviceMapArray(%{{.*}}, %[[BYTES]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[HAS_ARRAY:.*]] = llvm.icmp "ne" %[[ARRAY]], %{{.*}} : !llvm.ptr
// CHECK: gpu.launch_func @grouped_store_kernel::@grouped_store_kernel {{.*}} %{{.*}} : !llvm.array<16 x i64>, %[[ARRAY]] : !llvm.ptr)
// CHECK: gpu.module @grouped_store_kernel [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">]
// CHECK: llvm.func @grouped_store_kernel({{.*}}%[[TEMPLATE:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant}, %[[SLOTS:.*]]: !llvm.ptr)
// CHECK: %[[GLOBAL:.*]] = llvm.addrspacecast %[[SLOTS]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.nctaid.x
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[GLOBAL]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: llvm.cond_br
// CHECK: llvm.load %[[TEMPLATE]] {alignment = 16 : i64} : !llvm.ptr -> vector<2xi64>
// CHECK: llvm.store %{{.*}}, %[[SLOT]] {alignment = 16 : i64} : vector<2xi64>, !llvm.ptr<1>
// CHECK-COUNT-7: llvm.store %{{.*}} {alignment = 16 : i64} : vector<2xi64>, !llvm.ptr<1>
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address"(%[[SLOT]], %{{.*}}) : (!llvm.ptr<1>, i64) -> ()
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.dim"(%[[SLOT]], %{{.*}}, %{{.*}}) : (!llvm.ptr<1>, i32, i32) -> ()
// CHECK-NOT: tensormap.replace
// CHECK: nvvm.fence.proxy.release <gpu>
// CHECK: %[[GENERIC:.*]] = llvm.addrspacecast %[[SLOT]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.fence.proxy.acquire <gpu> %[[GENERIC]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[GENERIC]]

// PTX: .version 8.3
// PTX: tensormap.replace.tile.global_address.global.b1024.b64
// PTX: tensormap.replace.tile.global_dim.global.b1024.b32 {{.*}}, 1, %r{{[0-9]+}};
// PTX: fence.proxy.tensormap::generic.release.gpu;
// PTX: fence.proxy.tensormap::generic.acquire.gpu [%rd{{[0-9]+}}], 128;
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}]
