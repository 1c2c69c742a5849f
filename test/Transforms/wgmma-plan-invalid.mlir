// RUN: tile-opt %s -verify-diagnostics --convert-tile-to-nvvm -o /dev/null

// The conversion reads the plan tile-plan-copies recorded on a wgmma
// descriptor: without one it is an error, not a second planning.

!a = memref<128x64xbf16, #tile.layout<(128, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @unplanned(%c0: index) -> i64 {
  %s = tile.arena_view [0] : !a
  // expected-error @+1 {{plan-missing: this wgmma descriptor carries no recorded plan; run --tile-plan-copies first (--tile-gpu-pipeline does)}}
  %d = tile.wgmma_descriptor %s[%c0, %c0] {rows = 64, k = 16} : !a -> i64
  return %d : i64
}
