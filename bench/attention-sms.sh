#!/usr/bin/env bash
# The GPU check of the persistent attention kernels launched on 128 CTAs
# (gen_attention.py --sms 128) against 132 (one per SM, the default), side
# by side with cuDNN. With batch x seq = 16k tokens the non-causal kernel
# has 2048 tiles at every length: 15.5 per CTA on 132 CTAs (the busiest
# walk 16), 16 on 128; the causal one 1024 units of two tiles: 7.8 and 8.
# The busiest CTA's work is the same either way; what differs is whether
# four SMs idle throughout (and the power and L2 the others then share).
# Also the non-causal kernel with the zero first P V (--first-pv zero; the
# default in round 69 then, against the guard, now the default), a third
# round of the two.
#
#   bench/attention-sms.sh build          # CPU machine with the MLIR build: .gpu/attention-sms/
#   bench/attention-sms.sh attention OUT  # GPU machine, from .gpu/attention-sms/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/attention-sms
ATTENTION="--head-dim 128;--head-dim 128 --sms 128 --name attention_d128_sms128"
ATTENTION+=";--head-dim 128 --first-pv zero"
ATTENTION+=";--head-dim 128 --causal;--head-dim 128 --causal --sms 128 --name attention_d128_causal_sms128"
GEMM=""

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 300 --side-by-side
  grep -h "FAIL\|SUMMARY\|d=128" "$1"/attention*.log | head -24 || true
}

round_main "$@"
