// A kernel whose guarded copy has no other variant (a multicast load in a
// cluster pipeline over a run-time-sized tensor) gets no fallback version;
// its launch runs only where the guards hold, and where one fails the host
// tells the runtime which, after the skipped launch.
// RUN: tile-opt %tile_src_root/unittests/Runtime/Inputs/cluster_pipeline.mlir --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi | FileCheck %s
// CHECK-DAG: llvm.mlir.global private constant @[[ALIGNSTR:__tile_str_[0-9a-f]+]]("global-align: address % 16 == 0\00")
// CHECK-DAG: llvm.mlir.global private constant @[[DIMSTR:__tile_str_[0-9a-f]+]]("global-dim: 1 <= size[0] <= 4294967296\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SITESTR:__tile_str_[0-9a-f]+]]("@shared_rows: launch of @kernels::@shared_rows\00")
// CHECK: func.func @shared_rows(
// CHECK: %[[ROWS:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %{{.*}}, %c0_i64 : i64
// CHECK: %[[HOLD:.*]] = arith.andi %[[ROWS]], %[[ALIGNED]] : i1
// CHECK: %[[MAP:.*]] = scf.if %[[HOLD]] -> (!llvm.ptr)
// CHECK: func.call @tileTensorMapGetCached
// CHECK: %[[ALIGNTEXT:.*]] = llvm.mlir.addressof @[[ALIGNSTR]]
// CHECK: %[[FIRST:.*]] = llvm.select %[[ALIGNED]], %{{.*}}, %[[ALIGNTEXT]]
// CHECK: %[[DIMTEXT:.*]] = llvm.mlir.addressof @[[DIMSTR]]
// CHECK: %[[GUARD:.*]] = llvm.select %[[ROWS]], %[[FIRST]], %[[DIMTEXT]]
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @[[SITESTR]]
// CHECK: scf.if
// CHECK-NEXT: llvm.load %[[MAP]]
// CHECK-NEXT: gpu.launch_func @kernels::@shared_rows clusters in
// CHECK: %[[FAILS:.*]] = arith.xori %[[HOLD]], %true : i1
// CHECK-NEXT: scf.if %[[FAILS]] {
// CHECK-NEXT: func.call @tileRuntimeRefuseLaunch(%[[SITE]], %[[GUARD]])
// CHECK-NOT: @shared_rows_fallback
