#!/usr/bin/env bash
# The GPU check of the carried ring position (docs/pipelines.md, "Carried
# positions"): the persistent warp-specialized loops carry g mod 2S in 32
# bits instead of dividing the 64-bit position g. It changed the code of the
# persistent kernels only (the one-tile kernels' PTX is byte-identical), so
# this run measures those against the one-tile ones, each exact on the check
# shapes first, with cuDNN, cuBLAS and cuBLASLt in the same rounds:
#
# - attention, head_dim 128 and 64, non-causal: the persistent kernel (now
#   assembled with no spills) against the default one-tile kernel, then the
#   persistent kernels' small check shapes under compute-sanitizer memcheck;
#   and the overlapped kernels with K and V released apart (--kv-lag, the
#   pipeline's read_lags), causal too, racecheck on the small shapes;
# - GEMM, bf16 output: the persistent clustered chooser (the suite's best)
#   and the one-tile chooser, with the 64-row (128 CTAs at M = 256,
#   N = 4096), 64-column and split 128 x 128 tiles on the small-M shapes
#   where the chooser leaves half the SMs idle (docs/gemm.md, "Small M");
# - FP8: the persistent and the one-tile choosers.
#
#   bench/carried-ring.sh build     # CPU machine with the MLIR build: .gpu/carried/
#   bench/carried-ring.sh attention OUT  # GPU machine, from .gpu/carried/
#   bench/carried-ring.sh gemm OUT       # (each within one 600 s call)
# (Its flags are those of its round: gen_attention.py's defaults changed
# since (docs/attention.md, round 47), so a build today gives today's
# defaults under the same flags; git has the generator of the round.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/carried
# (The one-tile kernels, causal in the grid's order, were the defaults when
# this ran; the flags build the same kernels under today's defaults, with
# today's names.)
ATTENTION="--head-dim 128 --one-tile;--head-dim 128 --persistent;--head-dim 64 --one-tile;--head-dim 64 --persistent"
# K and V released apart (the pipeline's read_lags), against the defaults.
ATTENTION+=";--head-dim 128 --one-tile --kv-lag;--head-dim 64 --one-tile --kv-lag"
ATTENTION+=";--head-dim 128 --causal --one-tile --tile-order grid;--head-dim 128 --persistent --kv-lag"
ATTENTION+=";--head-dim 128 --causal --one-tile --tile-order grid --overlap on --pingpong on --kv-lag"
ATTENTION+=";--head-dim 64 --causal --one-tile --tile-order grid"
ATTENTION+=";--head-dim 64 --causal --one-tile --tile-order grid --kv-lag"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_choose:--choose --bf16-out --swizzle-c"
GEMM+=";bf16out_m64n128s6:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 6"
GEMM+=";bf16out_m64n128s8:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 8"
GEMM+=";bf16out_n64s8:--bf16-out --swizzle-c --bn 64 --stages 8"
GEMM+=";bf16out_n128s6_splitk2:--bf16-out --swizzle-c --bn 128 --stages 6 --split-k 2"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_choose:--choose --fp8 --swizzle-c"
SMALL_M=256x4096x4096,256x4096x14336,256x14336x4096,128x4096x4096,384x4096x4096,512x4096x4096,640x4096x8192,256x8192x8192
SUITE=2048x2048x2048,4096x4096x4096,5000x5000x5000,3000x5000x2000,4096x14336x4096,8192x8192x8192

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 240
  round_sanitize memcheck "$out_dir/attention" \
    'attention_d128$,attention_d64$,attention_d128_kvlag$' "$out/attention-memcheck.log"
  round_sanitize racecheck "$out_dir/attention" kvlag "$out/attention-racecheck.log"
  grep -h "FAIL\|ERROR SUMMARY" "$out"/attention*.log | head -20 || true
}

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SMALL_M,$SUITE" \
    "256x4096x4096,256x8192x8192,4096x4096x4096,8192x8192x8192"
}

round_main "$@"
