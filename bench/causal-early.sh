#!/usr/bin/env bash
# The GPU check of the non-causal kernels' per-tile forms on the causal
# kernels, since the table walk (round 102) and the mask by column limits
# (round 111): --carried-turns (consumer 1 hands consumer 0 the next tile's
# first turn after its last block) and --q-release last-s (Q released after
# the tile's last S = Q K^T, so the next tile's Q loads during its last
# block and the epilogue), measured mixed with the paired walk (round 47).
# Every kernel exact on the check shapes, then side by side in alternating
# places as in bench/first-pv-order.sh, cuDNN alternating; then
# compute-sanitizer memcheck and synccheck over the head_dim 128 kernel
# with the forms' small shapes. FORMS=both (round 113): head_dim 128 a
# default, b both, c default, d both, then each alone; head_dim 64 a
# default, b both. FORMS=turns (round 114): the turns carried alone, in
# two places at both head_dims (a default, b turns, c default, d turns).
#
#   bench/causal-early.sh build          # CPU machine with the MLIR build: .gpu/causal-early/
#   bench/causal-early.sh attention OUT  # GPU machine, from .gpu/causal-early/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/causal-early
BOTH="--carried-turns on --q-release last-s"
if [ "${FORMS:-both}" = both ]; then
  ATTENTION=$(round_alternate --causal attention_d128_causal default both "$BOTH")
  ATTENTION+=";--causal --carried-turns on --name attention_d128_causal_e_turns"
  ATTENTION+=";--causal --q-release last-s --name attention_d128_causal_f_q_last_s"
  ATTENTION+=";--head-dim 64 --causal --name attention_d64_causal_a_default"
  ATTENTION+=";--head-dim 64 --causal $BOTH --name attention_d64_causal_b_both"
  CHECKED=d128_causal_b_both
else
  ATTENTION=""
  for d in 128 64; do
    ATTENTION+="${ATTENTION:+;}$(round_alternate "--head-dim $d --causal" "attention_d${d}_causal" default turns "--carried-turns on")"
  done
  CHECKED=d128_causal_b_turns
fi
GEMM=""

run_attention() {
  round_side_by_side "${1:-}" "$out_dir" "$CHECKED" forms
}

round_main "$@"
