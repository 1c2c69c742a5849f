// A cluster pipeline whose multicast load reads a tensor of run-time rows:
// the load's plan guards the rows and the base, and the kernel gets a
// fallback version in which the multicast load takes the simt variant (one
// thread's stores into every CTA the mask names, through the cluster's
// shared window). The host launches the fallback in the same clusters where
// a guard fails, without a map; nothing is refused.
// RUN: tile-opt %tile_src_root/unittests/Runtime/Inputs/cluster_pipeline.mlir --tile-expand-pipelines --tile-materialize-expect-tx --tile-plan-copies --tile-version-kernels --tile-tensor-map-abi | FileCheck %s
// CHECK-NOT: tileRuntimeRefuseLaunch
// CHECK: gpu.func @shared_rows({{.*}}) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>, tile.fallback = @shared_rows_fallback,
// CHECK: tile.copy_async {{.*}} multicast(%{{.*}}) {{{.*}}tile.fallback_variant = "simt"{{.*}}tile.variant = "tma"}
// CHECK: gpu.func @shared_rows_fallback({{.*}}) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>}
// CHECK: tile.copy_async {{.*}} multicast(%{{.*}}) {tile.declined = {{\[\[}}"tma", "guard: the fallback version of @shared_rows, launched when a guard of this copy's TMA plan fails at run time"]], tile.variant = "simt"}
// CHECK: func.func @shared_rows(
// CHECK: %[[ROWS:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[HOLD:.*]] = arith.andi %[[ROWS]], %{{.*}} : i1
// CHECK-NEXT: scf.if %[[HOLD]] -> (!llvm.ptr)
// CHECK: gpu.launch_func @kernels::@shared_rows clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1)
// CHECK: } else {
// CHECK: gpu.launch_func @kernels::@shared_rows_fallback clusters in (%c2, %c1, %c1) blocks in (%c2, %c1, %c1)
// CHECK-NOT: tileRuntimeRefuseLaunch
