// tile-compile on the reference demo: host LLVM IR with the embedded cubin,
// the module-loading constructor, the hoisted tensor-map encode, the launch
// and both C entry points.
// REQUIRES: ptxas
// RUN: tile-compile %tile_src_root/examples/copy_async_tma.mlir --emit=llvm -o - | FileCheck %s
// RUN: tile-compile %tile_src_root/examples/copy_async_tma.mlir --emit=mlir -o - | FileCheck %s --check-prefix=MLIR
// RUN: tile-compile %tile_src_root/examples/copy_async_tma.mlir --emit=obj -o %t.o
// RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTIONS
// RUN: not tile-compile %s --emit=llvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tile-compile %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// --prefetch-tensor-maps reaches the kernel lowering: each kernel prefetches
// its tensor map at entry; without it, none does.
// RUN: tile-compile %tile_src_root/examples/copy_async_tma.mlir --emit=llvm -o /dev/null --prefetch-tensor-maps --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=PREFETCH
// RUN: tile-compile %tile_src_root/examples/copy_async_tma.mlir --emit=llvm -o /dev/null --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=NOPREFETCH
// PREFETCH: IR Dump After TileKernelToLLVM
// PREFETCH: llvm.func @copy_async_kernel({{.*}}%arg14: !llvm.ptr {{{.*}}nvvm.grid_constant}
// PREFETCH: nvvm.prefetch tensormap, %arg14 : !llvm.ptr
// NOPREFETCH-NOT: nvvm.prefetch

// CHECK-DAG: @llvm.global_ctors = appending global
// CHECK-DAG: call ptr @mgpuModuleLoad(ptr @{{.*}}, i64 {{[0-9]+}})
// CHECK-DAG: define void @copy_async(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}
// CHECK-DAG: define void @_mlir_ciface_copy_async(ptr %{{.*}}, ptr %{{.*}})
// CHECK-DAG: call ptr @tileTensorMapGetCached(i32 6, i32 3,
// CHECK-DAG: call void @mgpuLaunchKernel(
// CHECK-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)

// The module constructor that loads the cubin goes in .init_array, which
// glibc runs; it ignores .ctors.
// SECTIONS: .init_array{{[.0-9]*}} INIT_ARRAY
// SECTIONS-NOT: .ctors

// MLIR-DAG: gpu.binary @copy_async_kernel
// MLIR-DAG: llvm.func @_mlir_ciface_copy_async

// A host function whose kernel cannot be lowered is a diagnostic, not a crash.
// ERR: error: {{.*}}
module attributes {gpu.container_module} {
  func.func @bad(%g: memref<8x256xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = tile.arena_view [0] : memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
      tile.copy_async %g[0, 0] [8, 256], %s[0, 0] [8, 256] {dispatch = "nosuchvariant"}
          : memref<8x256xf16>, memref<8x256xf16, #tile.layout<(8, 256)>, #gpu.address_space<workgroup>>
      gpu.terminator
    }
    return
  }
}

// MISSING: tile-compile: error: {{.*}}missing.mlir
