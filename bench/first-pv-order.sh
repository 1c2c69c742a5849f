#!/usr/bin/env bash
# The GPU check of the non-causal kernel's first P V, guarded or a zero P,
# with the order of the side-by-side rounds controlled: two copies of each
# kernel under names that alternate them (a zero, b guard, c zero, d
# guard), so that a difference between the copies of one kernel measures
# what its place in the rounds does (round 76 timed one kernel 7 % apart in
# two places at 8k) and each kernel's mean over its two places compares
# them; cuDNN alternating.
#
#   bench/first-pv-order.sh build          # CPU machine with the MLIR build: .gpu/first-pv-order/
#   bench/first-pv-order.sh attention OUT  # GPU machine, from .gpu/first-pv-order/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/first-pv-order
ATTENTION="--first-pv zero --name attention_d128_a_zero"
ATTENTION+=";--first-pv guard --name attention_d128_b_guard"
ATTENTION+=";--first-pv zero --name attention_d128_c_zero"
ATTENTION+=";--first-pv guard --name attention_d128_d_guard"
GEMM=""

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 300 --side-by-side
  grep -h "FAIL\|SUMMARY\|d=128" "$1"/attention*.log | head -12 || true
}

round_main "$@"
