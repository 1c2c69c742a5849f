#!/usr/bin/env bash
# Decode rows against weights of few columns (N = 4096: 64 tiles of 64 x 64
# fill half the SMs): the choosers' decode kernel (64 x 64, A's box 32
# rows) beside 64 x 32 tiles with the same A box (twice the CTAs) at 8 and
# 12 stages, bf16 and FP8, cuBLAS / cuBLASLt alternating, every kernel exact
# on the check shapes it can run first (the 32-row A box only for M <= 32:
# the larger shapes' checks fail by construction, only the times count).
#
#   bench/decode-narrow.sh build     # CPU machine with the MLIR build: .gpu/decode-narrow/
#   bench/decode-narrow.sh gemm OUT  # GPU machine, from .gpu/decode-narrow/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-narrow
ATTENTION=""
GEMM="bf16out_a_m64n64_a32:--bm 64 --bn 64 --bf16-out --stages 8 --a-rows 32"
GEMM+=";bf16out_b_m64n32_a32:--bm 64 --bn 32 --bf16-out --stages 8 --a-rows 32"
GEMM+=";bf16out_c_m64n32_a32_s12:--bm 64 --bn 32 --bf16-out --stages 12 --a-rows 32"
GEMM+=";fp8_a_m64n64_a32:--bm 64 --bn 64 --fp8 --stages 8 --a-rows 32"
GEMM+=";fp8_b_m64n32_a32:--bm 64 --bn 32 --fp8 --stages 8 --a-rows 32"
SHAPES="8x4096x14336,16x4096x14336,32x4096x14336,8x4096x4096,8x2048x8192,8x8192x8192"

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SHAPES" "$SHAPES"
}

round_main "$@"
