#!/usr/bin/env bash
# The causal kernels' diagonal block, since the mask by column limits
# (round 111): at 256 and 512 keys the causal defaults ran 0.76-0.81 of
# cuDNN (rounds 111, 124), the masked block costing about two of the
# others. Masked in a branch (the default) against masked with selects on
# every block (--branchless-mask: no branch around the scores, at 128
# instructions a block more), each in two places at head_dim 128 (a
# branch, b selects, c branch, d selects) and once at 64, side by side
# with cuDNN on short and long sequences, every kernel exact on the check
# shapes first.
#
#   bench/branchless-causal.sh build          # CPU machine: .gpu/branchless-causal/
#   bench/branchless-causal.sh attention OUT  # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/branchless-causal
ATTENTION="--causal --name attention_d128_causal_a_branch"
ATTENTION+=";--causal --branchless-mask --name attention_d128_causal_b_selects"
ATTENTION+=";--causal --name attention_d128_causal_c_branch"
ATTENTION+=";--causal --branchless-mask --name attention_d128_causal_d_selects"
ATTENTION+=";--head-dim 64 --causal --name attention_d64_causal_a_branch"
ATTENTION+=";--head-dim 64 --causal --branchless-mask --name attention_d64_causal_b_selects"
GEMM=""
PROBLEMS="64x16x256,32x16x512,16x16x1024,8x16x2048,4x16x4096,2x16x8192"

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 300 --side-by-side \
    --problems "$PROBLEMS"
  grep -h "FAIL\|SUMMARY\|causal s=" "$out"/attention*.log | head -30 || true
}

round_main "$@"
