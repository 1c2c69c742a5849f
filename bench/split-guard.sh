#!/usr/bin/env bash
# The non-causal head_dim 128 default (whole tiles: the first P V guarded to
# 2k keys, a zero P beyond) against one split-tail kernel with the guard at
# every length (--split-tail on --first-pv guard: tiles of 16 KV blocks or
# more cut over the CTAs in the last two waves, none below; no spills,
# where the zero-P split kernel spills 8 bytes), side by side with the
# rounds' order controlled (a default, b split, c default, d split), cuDNN
# alternating, 512 to 16k keys; exact on the check shapes first, then
# memcheck and synccheck over the split kernel's small shapes (a cut tile
# among them, bench.py's CUT_CHECK_SHAPE).
#
#   bench/split-guard.sh build          # CPU machine with the MLIR build: .gpu/split-guard/
#   bench/split-guard.sh attention OUT  # GPU machine, from .gpu/split-guard/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/split-guard
ATTENTION=$(round_alternate "" attention_d128 whole split_guard \
  "--split-tail on --first-pv guard")
GEMM=""

run_attention() {
  round_side_by_side "${1:?output folder}" "$out_dir" d128_b_split_guard split
}

round_main "$@"
