#!/usr/bin/env bash
# The GPU check of where the ping-pong consumers wait for their turn
# (gen_attention.py --turn-wait: start, before the block's rescale of O,
# the default; issue, after the rescale and the previous P's fragments,
# just before the wgmmas, so that a turn holds their issue alone): every
# kernel exact on the check shapes, then side by side in alternating
# places as in bench/first-pv-order.sh (a start, b issue, c start, d issue)
# at head_dim 128 causal and not, and once each at head_dim 64, cuDNN
# alternating; then compute-sanitizer memcheck and synccheck over the
# head_dim 128 non-causal late-turn kernel's small shapes.
#
#   bench/turn-wait.sh build          # CPU machine with the MLIR build: .gpu/turn-wait/
#   bench/turn-wait.sh attention OUT  # GPU machine, from .gpu/turn-wait/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/turn-wait
ATTENTION=$(round_forms start issue "--turn-wait issue")
GEMM=""

run_attention() {
  round_side_by_side "${1:-}" "$out_dir" d128_b_issue issue
}

round_main "$@"
