#!/usr/bin/env bash
# The GPU check of the defaults chosen from the carried-ring run
# (docs/gpu-results.md, 2026-12-06): each default against what it replaced,
# exact on the check shapes first, with cuDNN, cuBLAS and cuBLASLt in the
# same rounds:
#
# - attention: the persistent kernel, now the non-causal default, against
#   the one-tile one (head_dim 128 and 64); the one-tile causal kernels'
#   longest-first order against the grid's order (head_dim 128 and 64, and
#   the overlapped ping-pong causal form at 128), and the persistent causal
#   kernel (paired tiles), memcheck on the small shapes of the longest-first
#   and persistent causal kernels; the persistent kernels with the
#   consumers' turns carried across tiles (--carried-turns), racecheck on
#   their small shapes;
# - GEMM, bf16 output: the chooser (64 x 128 tiles, 8 stages, where they
#   fit in one wave) against the kernels it took before on those shapes
#   (128 x 128 with 6 stages, 64 x 128 with 6); FP8: the chooser.
#
#   bench/defaults.sh build          # CPU machine with the MLIR build: .gpu/defaults/
#   bench/defaults.sh attention OUT  # GPU machine, from .gpu/defaults/
#   bench/defaults.sh gemm OUT       # (each within one 600 s call)
# (Its flags are those of its round: gen_attention.py's defaults changed
# since (docs/attention.md, round 47), so a build today gives today's
# defaults under the same flags; git has the generator of the round.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/defaults
# (Round 39 ran it before the persistent causal kernel became the causal
# default; the flags build the same kernels under today's defaults.)
ATTENTION="--head-dim 128;--head-dim 128 --one-tile;--head-dim 64;--head-dim 64 --one-tile"
ATTENTION+=";--head-dim 128 --causal --one-tile;--head-dim 128 --causal --one-tile --tile-order grid"
ATTENTION+=";--head-dim 64 --causal --one-tile;--head-dim 64 --causal --one-tile --tile-order grid"
ATTENTION+=";--head-dim 128 --causal --one-tile --overlap on --pingpong on"
# The persistent causal kernel (paired tiles), head_dim 128 and 64.
ATTENTION+=";--head-dim 128 --causal;--head-dim 64 --causal"
# The consumers' turns carried across the persistent kernels' tiles.
ATTENTION+=";--head-dim 128 --carried-turns;--head-dim 64 --carried-turns;--head-dim 128 --causal --carried-turns"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_n128s6:--bf16-out --swizzle-c --bn 128 --stages 6"
GEMM+=";bf16out_m64n128s6:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 6"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_n128s6:--fp8 --swizzle-c --bn 128 --stages 6"
SMALL_M=256x4096x4096,256x4096x14336,128x4096x4096,192x4096x4096,320x4096x4096,512x2048x8192,256x2048x8192,256x8192x8192
FP8_SHAPES=256x4096x4096,256x4096x14336,512x2048x8192,256x8192x8192,4096x4096x4096

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 300
  round_sanitize memcheck "$out_dir/attention" \
    'causal_one_tile$,attention_d128_causal$,attention_d64_causal$' "$out/attention-memcheck.log"
  round_sanitize racecheck "$out_dir/attention" carried_turns "$out/attention-racecheck.log"
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out"/attention*.log | head -20 || true
}

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SMALL_M" "$FP8_SHAPES"
}

round_main "$@"
