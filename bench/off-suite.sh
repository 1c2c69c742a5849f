#!/usr/bin/env bash
# The target GEMM choosers (bench/acceptance.sh's kernels, built by its
# `build`) on shapes off the benchmark suites, cuBLAS / cuBLASLt
# alternating, each exact on the suites' check shapes first: decode rows
# (M = 1, 8, 16, 32 against 8192 x 8192, 14336 x 4096 and 4096 x 14336
# weights), squares from 1024 to 12288, and rectangles no tile divides.
#
#   bench/acceptance.sh build    # CPU machine with the MLIR build: .gpu/acceptance/
#   bench/off-suite.sh OUT       # GPU machine, from .gpu/acceptance/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
dir=.gpu/acceptance
out=${1:?output folder}
DECODE=""
for m in 1 8 16 32; do
  for nk in 8192x8192 14336x4096 4096x14336; do
    DECODE+="${DECODE:+,}${m}x$nk"
  done
done
OTHER="1024x1024x1024,12288x12288x12288,2048x8192x2048,8192x1024x8192"
OTHER+=",1000x3000x7000,5000x2500x3000,12000x6000x1500"
round_gemm "$out" "$dir" "$DECODE,$OTHER" "$DECODE,$OTHER"
