#!/usr/bin/env bash
# The GPU check of the tile's first P V not issued (its P is zero: the
# tile's first block has no previous one) by a guard predicate on its
# wgmmas (`tile.wgmma_register_a ... if %has_prev`, gen_attention.py
# --first-pv guard, the default) against the zero P it multiplies
# otherwise (--first-pv zero), side by side with
# cuDNN: the overlapped kernels issue a P V per block plus the first block's,
# 1/(2n+1) of a tile's wgmma work at n KV blocks. Exact on the check shapes
# first, then memcheck over the small shapes of the guarded kernels.
# (Rounds 66 and 67 ran earlier forms of this script, whose kernel names
# their logs' headers give.)
#
#   bench/first-pv.sh build          # CPU machine with the MLIR build: .gpu/first-pv/
#   bench/first-pv.sh attention OUT  # GPU machine, from .gpu/first-pv/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/first-pv
ATTENTION="--head-dim 128;--head-dim 128 --first-pv zero"
ATTENTION+=";--head-dim 128 --causal;--head-dim 128 --causal --first-pv zero"
ATTENTION+=";--head-dim 64;--head-dim 64 --causal"
ATTENTION+=";--head-dim 128 --one-tile;--head-dim 128 --kv-lag --persistent"
GEMM=""

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 480 --side-by-side
  round_sanitize memcheck "$out_dir/attention" \
    'attention_d128$|attention_d128_causal$|attention_d128_one_tile$' \
    "$1/memcheck.log"
  grep -h "FAIL\|SUMMARY\|causal s=" "$1"/attention*.log "$1"/memcheck.log | head -24 || true
}

round_main "$@"
