#!/usr/bin/env bash
# Rows a 128-byte TMA box row cannot read from one 128-byte line: the
# target choosers (bench/acceptance.sh's kernels, built by its `build`) on
# problems whose K makes the operands' rows 16-byte but not 128-byte
# aligned, each beside the nearest K whose rows are 128-byte aligned (bf16:
# K a multiple of 64; FP8: of 128), cuBLAS / cuBLASLt alternating, each
# exact on the suites' check shapes first. Round 116 (bench/one-wave-long-
# k.sh) ran 1000 x 3000 x 7000 at 0.60 of 1000 x 3000 x 7040's TFLOP/s on
# the kernel the chooser takes there, cuBLAS at 0.97.
#
#   bench/acceptance.sh build    # CPU machine with the MLIR build: .gpu/acceptance/
#   bench/row-alignment.sh OUT   # GPU machine, from .gpu/acceptance/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out=${1:?output folder}
BF16="1000x3000x7000,1000x3000x7040,4000x4000x4000,4000x4000x4032"
BF16+=",3000x5000x2000,3000x5000x2048,2048x2048x2000,2048x2048x2048"
BF16+=",8192x8192x8000,8192x8192x8192,5000x5000x5000,5000x5000x5056"
FP8="1000x3000x7040,1000x3000x7168,4000x4000x4000,4000x4000x4096"
FP8+=",3000x5000x2000,3000x5000x2048,8192x8192x8000,8192x8192x8192"
round_gemm "$out" .gpu/acceptance "$BF16" "$FP8"
