// RUN: rm -rf %t && tile-opt %s --tile-draw-copy-plans="output-dir=%t" -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: ls %t | wc -l | FileCheck %s --check-prefix=COUNT
// RUN: FileCheck %s --check-prefix=DEMO < %t/*draw-copy-plans.mlir_37_3.svg
// RUN: FileCheck %s --check-prefix=SWZ64 < %t/*draw-copy-plans.mlir_47_3.svg
// RUN: FileCheck %s --check-prefix=MULTI < %t/*draw-copy-plans.mlir_54_3.svg
// RUN: FileCheck %s --check-prefix=OOB < %t/*draw-copy-plans.mlir_61_3.svg
// RUN: FileCheck %s --check-prefix=DECLINED < %t/*draw-copy-plans.mlir_69_3.svg
// RUN: FileCheck %s --check-prefix=DYN < %t/*draw-copy-plans.mlir_79_3.svg
// RUN: FileCheck %s --check-prefix=INDEX < %t/index.html
// RUN: %python %tile_src_root/scripts/check-svg.py %t/*.svg | FileCheck %s --check-prefix=VALID

// One picture per tile.copy_async, named by its location (the directory
// part of the file name is whatever lit passes, so the names are matched by
// their end, in any order: where index.html sorts depends on that path), and
// the index; nothing else.
// FILES-DAG: index.html
// COUNT: {{^}}7{{$}}
// FILES-DAG: draw-copy-plans.mlir_37_3.svg
// FILES-DAG: draw-copy-plans.mlir_47_3.svg
// FILES-DAG: draw-copy-plans.mlir_54_3.svg
// FILES-DAG: draw-copy-plans.mlir_61_3.svg
// FILES-DAG: draw-copy-plans.mlir_69_3.svg
// FILES-DAG: draw-copy-plans.mlir_79_3.svg

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
!ref = memref<8x256xf16, #tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>, #gpu.address_space<workgroup>>
!s64 = memref<16x32xf16, #tile.layout<(16, 32), swizzle = 64B>, #gpu.address_space<workgroup>>
!multi = memref<2x2x2x2x64xf16, #tile.layout<(2, 2, 2, 2, 2, 32) : (256, 128, 64, 32, 512, 1), swizzle = 64B>, #gpu.address_space<workgroup>>
!oob = memref<8x64xf16, #tile.layout<(8, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

func.func @draw(%A: memref<8x256xf16>, %s: !ref, %bar: !bars, %B: memref<16x32xf16>, %s64: !s64,
                %P: memref<2x2x2x2x64xf16, strided<[736, 352, 160, 72, 1]>>, %m: !multi,
                %T: memref<10x64xf16>, %o: !oob, %i: index,
                %t: memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, %G: memref<32x64xf16>) {
  %c0 = arith.constant 0 : index
  tile.copy_async %s[0, 0] [8, 256], %A[0, 0] [8, 256] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
  // The reference demo: element (1, 0) lands at byte 144 (chunk 9), (0, 64)
  // at byte 1024 (chunk 64); one box covers all 256 chunks.
  // DEMO: data-kind="copy"
  // DEMO: load global -&gt; shared, selected: tma, f16
  // DEMO: data-element="0,0" data-chunk="0" data-global="0,0" data-box="0"
  // DEMO: data-element="0,64" data-chunk="64" data-global="0,64" data-box="0"
  // DEMO: data-element="1,0" data-chunk="9" data-global="1,0" data-box="0"
  // DEMO: <path d="{{[^"]*}}" fill="none" stroke="#d62728" stroke-width="2.5" data-box="0" data-coords="0,0,0" data-smem="0" data-chunks="0 1 2 {{.*}} 255"/>
  // DEMO: #0 box at coords [0, 0, 0], shared +0 B, 256 chunks
  tile.copy_async %s64[0, 0] [16, 32], %B[0, 0] [16, 32] barrier(%bar[%c0]) : !s64, memref<16x32xf16>, !bars
  // 64B swizzle: rows are 64 bytes; row 2 (byte 128) moves from chunk 8 to
  // chunk 9, row 4 (byte 256) from chunk 16 to chunk 18.
  // SWZ64: data-element="2,0" data-chunk="9" data-global="2,0" data-box="0"
  // SWZ64: data-element="4,0" data-chunk="18" data-global="4,0" data-box="0"
  // SWZ64: data-box="0" data-coords="0,0" data-smem="0" data-chunks="0 1 {{.*}} 63"/>
  // SWZ64: swizzle 64B
  tile.copy_async %m[0, 0, 0, 0, 0] [2, 2, 2, 2, 64], %P[0, 0, 0, 0, 0] [2, 2, 2, 2, 64] barrier(%bar[%c0])
      : !multi, memref<2x2x2x2x64xf16, strided<[736, 352, 160, 72, 1]>>, !bars
  // Two instructions: columns 0..31 and 32..63, 1 KiB apart.
  // MULTI: data-element="0,0,0,0,32" data-chunk="64" data-global="0,0,0,0,32" data-box="1"
  // MULTI: data-box="0" data-coords="0,0,0,0,0" data-smem="0" data-chunks="0 1 {{.*}} 63"/>
  // MULTI: data-box="1" data-coords="32,0,0,0,0" data-smem="1024" data-chunks="64 65 {{.*}} 127"/>
  // MULTI: #1 box at coords [32, 0, 0, 0, 0], shared +1024 B, 64 chunks
  tile.copy_async %o[0, 0] [8, 64], %T[4, 0] [8, 64] barrier(%bar[%c0]) : !oob, memref<10x64xf16>, !bars
  // Rows 4..11 of a 10-row tensor: rows 10 and 11 are filled with zeros.
  // OOB: data-element="0,0" data-chunk="0" data-global="4,0" data-box="0"
  // OOB: data-element="6,0" data-chunk="54" data-global="10,0" data-box="0" data-oob="1"
  // OOB: data-element="7,63" data-chunk="{{[0-9]+}}" data-global="11,63" data-box="0" data-oob="1"
  // OOB: data-box="0" data-coords="0,4" data-smem="0"
  // OOB: hatched = out of the tensor, filled by the TMA
  // OOB: data-region="4,0"
  tile.copy_async %t[0, 0] [64, 32], %G[0, 0] [64, 32] barrier(%bar[%c0])
      : memref<64x32xf16, #tile.layout<(64, 32) : (1, 64)>, #gpu.address_space<workgroup>>, memref<32x64xf16>, !bars
  // A transposed shared layout: the picture says why TMA declines and shows
  // the layout without boxes.
  // DECLINED: selected: simt
  // DECLINED: data-declined="tma">declined tma: elementwise: the shared stride-1 run of 64 elements has global stride 64; the TMA reads the innermost dimension contiguously
  // DECLINED: data-element="0,0" data-chunk="0"
  // DECLINED-NOT: data-box
  %c64 = arith.constant 64 : index
  %j = arith.muli %i, %c64 : index
  tile.copy_async %s[0, 0] [8, 64], %A[0, %j] [8, 64] barrier(%bar[%c0]) : !ref, memref<8x256xf16>, !bars
  // A dynamic offset (a multiple of 64) is drawn at 0.
  // DYN: dynamic offsets drawn with every run-time value 0
  // DYN: data-element="0,0" data-chunk="0" data-global="0,0" data-box="0"
  return
}

// INDEX: <h2>{{.*}}draw-copy-plans.mlir:37:3</h2>
// INDEX-NEXT: <pre>{&quot;loc&quot;:&quot;{{.*}}&quot;selected&quot;:&quot;tma&quot;
// INDEX: <img src="{{.*}}draw-copy-plans.mlir_37_3.svg"
// INDEX: <h2>{{.*}}draw-copy-plans.mlir:79:3</h2>

// VALID-COUNT-6: valid

// -----
// The directory is required.
// RUN: not tile-opt %s --tile-draw-copy-plans -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: tile-draw-copy-plans needs an output directory (output-dir=DIR)
