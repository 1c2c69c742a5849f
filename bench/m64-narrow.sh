#!/usr/bin/env bash
# The GPU check of gen_gemm.py --choose's m64_narrow rule (64 x 64 tiles
# where the 64 x 128 tiles would fill at most half the SMs; docs/gemm.md,
# "Small M"): the chooser against the 64 x 128 and 64 x 64 kernels it picks
# from, bf16 output against cuBLAS and FP8 against cuBLASLt, alternating,
# exact on the check shapes first.
#
#   bench/m64-narrow.sh build     # CPU machine with the MLIR build: .gpu/m64-narrow/
#   bench/m64-narrow.sh gemm OUT  # GPU machine, from .gpu/m64-narrow/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/m64-narrow
ATTENTION=""
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_m64n128s8:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 8"
GEMM+=";bf16out_m64n64s8:--bf16-out --swizzle-c --bm 64 --bn 64 --stages 8"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_m64n128s8:--fp8 --swizzle-c --bm 64 --bn 128 --stages 8"
GEMM+=";fp8_m64n64s8:--fp8 --swizzle-c --bm 64 --bn 64 --stages 8"
# 64 x 128 tiles: 64, 64, 32, 48, 64 (the rule's) and 128, 128 (not).
SHAPES=256x2048x8192,128x4096x4096,128x2048x8192,192x2048x4096,128x4096x14336,256x4096x4096,64x8192x8192
FP8_SHAPES=256x2048x8192,128x4096x4096,128x2048x8192,128x4096x14336,256x4096x4096

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SHAPES" "$FP8_SHAPES"
}

round_main "$@"
