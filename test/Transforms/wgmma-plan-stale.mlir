// RUN: tile-opt %s -verify-diagnostics --tile-check-recorded-plans -o /dev/null

// A record made for a 64B-swizzled buffer on a 128B-swizzled one:
// tile-check-recorded-plans plans again and names the plan it makes now.

!a = memref<128x64xbf16, #tile.layout<(128, 64), swizzle = 128B>, #gpu.address_space<workgroup>>
func.func @stale() -> i64 {
  %c0 = arith.constant 0 : index
  %s = tile.arena_view [0] : !a
  // expected-error @+1 {{plan-stale: the recorded wgmma plan no longer describes this descriptor (re-run tile-plan-copies after changing it); now: #tile.wgmma_plan<lbo = 16, sbo = 1024, base_offset = 0, swizzle = "128B">}}
  %d = tile.wgmma_descriptor %s[%c0, %c0] {rows = 64, k = 16, tile.wgmma_plan = #tile.wgmma_plan<lbo = 16, sbo = 512, base_offset = 0, swizzle = "64B">} : !a -> i64
  return %d : i64
}
