#!/usr/bin/env bash
# The GPU check of C written by stmatrix (gen_gemm.py --stmatrix,
# tile.wgmma_store_fragment): the clustered bf16 chooser and the FP8
# chooser as the targets build them and with --stmatrix, over bench.py's
# and bench_fp8.py's suites, cuBLAS and cuBLASLt alternating, exact on the
# check shapes first.
#
#   bench/stmatrix.sh build     # CPU machine with the MLIR build: .gpu/stmatrix/
#   bench/stmatrix.sh gemm OUT  # GPU machine, from .gpu/stmatrix/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/stmatrix
ATTENTION=""
BF16=${TARGET_GEMM%%;*}
FP8="fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM="$BF16;${BF16%%:*}_sm:${BF16#*:} --stmatrix;$FP8;${FP8%%:*}_sm:${FP8#*:} --stmatrix"

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "" ""
}

round_main "$@"
