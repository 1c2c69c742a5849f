// A kernel whose guarded copy has no other variant (a max-reduce store of
// bf16 elements into a run-time-sized tensor: per-element atomics have no
// floating-point max) gets no fallback version; its launch runs only where
// the guards hold, and where one fails the host tells the runtime which,
// after the skipped launch.
// RUN: tile-opt %tile_src_root/unittests/Runtime/Inputs/max_rows.mlir --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi | FileCheck %s --implicit-check-not=max_rows_fallback
// CHECK-DAG: llvm.mlir.global private constant @[[ALIGNSTR:__tile_str_[0-9a-f]+]]("global-align: address % 16 == 0\00")
// CHECK-DAG: llvm.mlir.global private constant @[[DIMSTR:__tile_str_[0-9a-f]+]]("global-dim: 1 <= size[0] <= 4294967296\00")
// CHECK-DAG: llvm.mlir.global private constant @[[SITESTR:__tile_str_[0-9a-f]+]]("@max_rows: launch of @kernels::@max_rows\00")
// CHECK: func.func @max_rows(
// X's map has no guards: encoded unconditionally.
// CHECK: %[[XMAP:.*]] = call @tileTensorMapGetCached(
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
// CHECK-NEXT: llvm.load %[[XMAP]]
// CHECK-NEXT: llvm.load %[[MAP]]
// CHECK-NEXT: gpu.launch_func @kernels::@max_rows blocks in
// CHECK: %[[FAILS:.*]] = arith.xori %[[HOLD]], %true : i1
// CHECK-NEXT: scf.if %[[FAILS]] {
// CHECK-NEXT: func.call @tileRuntimeRefuseLaunch(%[[SITE]], %[[GUARD]])
