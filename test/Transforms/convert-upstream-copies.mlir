// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-convert-upstream-copies | FileCheck %s

// A global -> shared memref.copy that every thread of a kernel executes
// becomes one CTA-wide tile.copy of the whole buffers; so does the way back,
// a linalg.copy, a strided subview of the global tensor and a swizzled
// #tile.layout shared buffer. Block-dependent control is uniform across a
// CTA, so a copy inside it converts too.

!smem = memref<8x256xf16, #gpu.address_space<workgroup>>
!swz = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!sub = memref<8x256xf16, strided<[1024, 1], offset: ?>>

// CHECK-LABEL: gpu.func @load_store
// CHECK-SAME: (%[[A:.*]]: memref<8x256xf16>, %[[S:.*]]: memref<8x256xf16, #gpu.address_space<workgroup>>)
// CHECK-NEXT: tile.copy %[[S]][0, 0] [8, 256], %[[A]][0, 0] [8, 256] {scope = "cta"} : memref<8x256xf16, #gpu.address_space<workgroup>>, memref<8x256xf16>
// CHECK-NEXT: tile.copy %[[A]][0, 0] [8, 256], %[[S]][0, 0] [8, 256] {scope = "cta"} : memref<8x256xf16>, memref<8x256xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.return
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
gpu.module @kernels {
  gpu.func @load_store(%A: memref<8x256xf16>, %S: !smem) kernel {
    memref.copy %A, %S : memref<8x256xf16> to !smem
    linalg.copy ins(%S : !smem) outs(%A : memref<8x256xf16>)
    gpu.return
  }
}

// -----

!swz = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!sub = memref<8x256xf16, strided<[1024, 1], offset: ?>>

// A unit-stride subview folds into the copy's region of its source: the
// view's run-time row offset becomes the region's offset in A.
// CHECK-LABEL: gpu.func @subview_swizzled
// CHECK-SAME: (%[[A:.*]]: memref<64x1024xf16>,
// CHECK: %[[ROW:.*]] = arith.muli
// CHECK: scf.if
// CHECK-NEXT: tile.copy %{{.*}}[0, 0] [8, 256], %[[A]][%[[ROW]], 0] [8, 256] {scope = "cta"} : memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>, memref<64x1024xf16>
gpu.module @kernels {
  gpu.func @subview_swizzled(%A: memref<64x1024xf16>, %S: !swz) kernel {
    %b = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %b, %c8 : index
    %v = memref.subview %A[%row, 0] [8, 256] [1, 1] : memref<64x1024xf16> to !sub
    %first = arith.cmpi eq, %b, %c0 : index
    scf.if %first {
      memref.copy %v, %S : !sub to !swz
    }
    gpu.return
  }
}

// -----

// The same copies inside a gpu.launch body convert as well.

// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch
// CHECK: tile.copy %{{.*}}[0, 0] [64, 64], %{{.*}}[0, 0] [64, 64] {scope = "cta"}
// CHECK-NOT: memref.copy
func.func @launch(%A: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1)
             workgroup(%S : memref<64x64xf32, #gpu.address_space<workgroup>>) {
    memref.copy %A, %S : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// What stays per-thread, each with its reason; host copies are not touched.

!smem = memref<8x256xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: gpu.func @refused
// CHECK-COUNT-6: memref.copy
// CHECK-NOT: tile.copy
gpu.module @kernels {
  gpu.func @refused(%A: memref<8x256xf16>, %B: memref<8x256xf16>, %S: !smem,
                    %T: !smem, %D: memref<?x256xf16>, %P: memref<8x256xi1>,
                    %Q: memref<8x256xi1, #gpu.address_space<workgroup>>) kernel {
    // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: it copies global to global memory; only copies between global and shared memory become tile.copy}}
    memref.copy %A, %B : memref<8x256xf16> to memref<8x256xf16>
    // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: it copies shared to shared memory; only copies between global and shared memory become tile.copy}}
    memref.copy %S, %T : !smem to !smem
    %c0 = arith.constant 0 : index
    %t = gpu.thread_id x
    %lead = arith.cmpi eq, %t, %c0 : index
    scf.if %lead {
      // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: it sits under control flow that differs between the threads of a CTA (scf.if), and a CTA-wide tile.copy needs every thread}}
      memref.copy %A, %S : memref<8x256xf16> to !smem
    }
    %c1 = arith.constant 1 : index
    %lanes = arith.addi %t, %c1 : index
    scf.for %i = %c0 to %lanes step %c1 {
      // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: it sits under control flow that differs between the threads of a CTA (scf.for), and a CTA-wide tile.copy needs every thread}}
      memref.copy %S, %A : !smem to memref<8x256xf16>
    }
    // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: the shape of memref<?x256xf16> is dynamic; tile.copy regions have static sizes}}
    memref.copy %D, %S : memref<?x256xf16> to !smem
    // expected-remark @+1 {{upstream-copy: memref.copy stays per-thread: tile.copy would break its rule: 'tile.copy' op element-type: destination element type 'i1' is 1 bits wide}}
    memref.copy %P, %Q : memref<8x256xi1> to memref<8x256xi1, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// CHECK-LABEL: func.func @host
// CHECK-NEXT: memref.copy
func.func @host(%A: memref<8x256xf16>, %B: memref<8x256xf16>) {
  memref.copy %A, %B : memref<8x256xf16> to memref<8x256xf16>
  return
}
