#!/usr/bin/env bash
# The non-causal head_dim 128 default (whole tiles: the first P V guarded to
# 2k keys, a zero P beyond) against the same module with the split tail on
# its long-key kernel (--split-tail long: whole tiles to 2k, no workspace;
# beyond, the tail's tiles cut over the CTAs), side by side with the
# rounds' order controlled (a default, b split, c default, d split), cuDNN
# alternating, 512 to 16k keys; exact on the check shapes first, then
# memcheck and synccheck over the split module's small shapes (a cut tile
# among them, bench.py's CUT_CHECK_SHAPE).
#
#   bench/split-long.sh build          # CPU machine with the MLIR build: .gpu/split-long/
#   bench/split-long.sh attention OUT  # GPU machine, from .gpu/split-long/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/split-long
ATTENTION=$(round_alternate "" attention_d128 whole split_long "--split-tail long")
GEMM=""

run_attention() {
  round_side_by_side "${1:?output folder}" "$out_dir" d128_b_split_long split
}

round_main "$@"
