#!/usr/bin/env bash
# The GPU check of the persistent non-causal kernels' split tail
# (--split-tail on: the tiles past all but the last two waves cut into even
# ranges of KV blocks over the CTAs, a cut tile's two pieces combined
# through a workspace) against the default, with the rounds' order
# controlled as in bench/causal-table.sh: two copies of each at head_dim 128
# under names that alternate them (a default, b split, c default, d split),
# at head_dim 128 and 64; exact on the check shapes first, cuDNN
# alternating; then compute-sanitizer memcheck and synccheck over the
# split kernel's small check shapes.
#
#   bench/split-tail.sh build          # CPU machine with the MLIR build: .gpu/split-tail/
#   bench/split-tail.sh attention OUT  # GPU machine, from .gpu/split-tail/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/split-tail
ATTENTION="--name attention_d128_a_whole"
ATTENTION+=";--split-tail on --name attention_d128_b_split"
ATTENTION+=";--name attention_d128_c_whole"
ATTENTION+=";--split-tail on --name attention_d128_d_split"
ATTENTION+=";--head-dim 64 --name attention_d64_a_whole"
ATTENTION+=";--head-dim 64 --split-tail on --name attention_d64_b_split"
ATTENTION+=";--head-dim 64 --name attention_d64_c_whole"
ATTENTION+=";--head-dim 64 --split-tail on --name attention_d64_d_split"
GEMM=""

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 420 --side-by-side
  grep -h "FAIL\|SUMMARY\| s=" "$out"/attention*.log | head -30 || true
  round_sanitize_sync "$out_dir/attention" "d128_b_split" "$out" split
}

round_main "$@"
