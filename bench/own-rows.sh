#!/usr/bin/env bash
# The GPU check of C stored by each consumer apart (gen_gemm.py --own-rows:
# each consumer warpgroup writes and stores its own 64 rows of every C
# chunk, with its own named barrier and storing thread): the clustered
# bf16 chooser as the targets build it, with --own-rows, and with
# --own-rows --stmatrix, over bench.py's suite, cuBLAS alternating, exact
# on the check shapes first. Round 92's warp-stall sampling put the
# chooser's per-tile cost at its epilogue's chunk barriers.
#
#   bench/own-rows.sh build     # CPU machine with the MLIR build: .gpu/own-rows/
#   bench/own-rows.sh gemm OUT  # GPU machine, from .gpu/own-rows/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/own-rows
ATTENTION=""
BF16=${TARGET_GEMM%%;*}
NAME=${BF16%%:*}
FLAGS=${BF16#*:}
GEMM="$BF16;${NAME}_own:$FLAGS --own-rows;${NAME}_own_sm:$FLAGS --own-rows --stmatrix"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" ""
}

round_main "$@"
