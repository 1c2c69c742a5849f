#!/usr/bin/env bash
# Decode rows (M = 1 to 64 against LLM weights) on the bf16 chooser's
# 64-row kernels and their variants, cuBLAS alternating, each exact on the
# check shapes first: round 115 (bench/off-suite.sh) ran the chooser at
# 0.65-0.95 of cuBLAS on such rows, whose time is B's bytes streamed once.
# The chooser (the 64 x 64 kernel, 8 stages, one CTA per SM), the same
# kernel with 4 stages (three CTAs fit an SM), 64 x 32 tiles (twice the
# CTAs) with 8 and 12 stages, and the 64 x 64 kernel split in up to 4 shares
# of K through the workspace.
#
#   bench/decode.sh build     # CPU machine with the MLIR build: .gpu/decode/
#   bench/decode.sh gemm OUT  # GPU machine, from .gpu/decode/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode
ATTENTION=""
GEMM="bf16out_a_chooser:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_b_m64n64_s4:--bm 64 --bn 64 --bf16-out --stages 4"
GEMM+=";bf16out_c_m64n32_s8:--bm 64 --bn 32 --bf16-out --stages 8"
GEMM+=";bf16out_d_m64n32_s12:--bm 64 --bn 32 --bf16-out --stages 12"
GEMM+=";bf16out_e_m64n64_splitk4:--bm 64 --bn 64 --bf16-out --stages 8 --split-k 4"
SHAPES=""
for m in 1 8 32; do
  for nk in 8192x8192 14336x4096 4096x14336; do
    SHAPES+="${SHAPES:+,}${m}x$nk"
  done
done
SHAPES+=",64x8192x8192"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
