// RUN: tile-opt %s --tile-plan-copies --test-tile-shift-copy-offsets=by=8 --tile-check-recorded-plans -verify-diagnostics
// RUN: tile-opt %s --tile-plan-copies --test-tile-shift-copy-offsets=by=8 --tile-tensor-map-abi -verify-diagnostics
// RUN: tile-opt %s --tile-plan-copies --test-tile-shift-copy-offsets=by=8 --convert-tile-to-nvvm -verify-diagnostics -o /dev/null
// RUN: tile-opt %s --tile-plan-copies --test-tile-shift-copy-offsets=by=0 --tile-check-recorded-plans | FileCheck %s --check-prefix=UNCHANGED

// A pass between planning and lowering that changes a copy (here: its global
// row offset moves by 8 rows) without planning again is an error at the
// copy: the host would encode a map for the old region while the
// instructions address the new one. The next pass that reads the record
// finds it (the tensor-map ABI, the lowering), and so does
// tile-check-recorded-plans; the op verifier between passes does not run
// the hardware model.

!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
!tile = memref<64x64xf16, #tile.layout<(64, 64), swizzle = 128B>, #gpu.address_space<workgroup>>

gpu.module @kernels {
  // UNCHANGED-LABEL: gpu.func @shifted
  gpu.func @shifted(%g: memref<256x128xf16>) kernel {
    %c0 = arith.constant 0 : index
    %bar = nvgpu.mbarrier.create -> !bars
    %a = tile.arena_view [0] : !tile
    // expected-error @+2 {{'tile.copy_async' op plan-stale: the recorded TMA plan no longer describes this copy (re-run tile-plan-copies after changing copies): the hardware model finds shared byte at 1024 holds global byte 0, expected global byte 2048}}
    // UNCHANGED: tile.variant = "tma"
    tile.copy_async %a[0, 0] [64, 64], %g[0, 0] [64, 64] barrier(%bar[%c0])
        : !tile, memref<256x128xf16>, !bars
    gpu.return
  }
}
