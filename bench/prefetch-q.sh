#!/usr/bin/env bash
# The GPU check of the persistent attention kernels' Q prefetch
# (gen_attention.py --prefetch-q; docs/attention.md, "The persistent
# schedule"): each persistent kernel with and without it, and with the
# consumers' turns carried across tiles (--carried-turns), whose consumer 0
# starts the next tile early and then waits for its Q; exact on the check
# shapes first, then each form's kernels side by side (bench.py
# --side-by-side: in the same rows, alternating with each other and cuDNN),
# memcheck on the small shapes of the prefetching kernels.
#
#   bench/prefetch-q.sh build          # CPU machine with the MLIR build: .gpu/prefetch-q/
#   bench/prefetch-q.sh attention OUT  # GPU machine, from .gpu/prefetch-q/
# (Its flags are those of its round: gen_attention.py's defaults changed
# since (docs/attention.md, round 47), so a build today gives today's
# defaults under the same flags; git has the generator of the round.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/prefetch-q
ATTENTION="--head-dim 128;--head-dim 128 --prefetch-q on"
ATTENTION+=";--head-dim 128 --carried-turns;--head-dim 128 --carried-turns --prefetch-q on"
ATTENTION+=";--head-dim 128 --causal;--head-dim 128 --causal --prefetch-q on"
ATTENTION+=";--head-dim 64;--head-dim 64 --prefetch-q on"
ATTENTION+=";--head-dim 64 --causal;--head-dim 64 --causal --prefetch-q on"
GEMM=""

run_attention() {
  local out=${1:?output folder}
  round_attention "$out" "$out_dir/attention" 420 --side-by-side
  round_sanitize memcheck "$out_dir/attention" \
    'attention_d128_prefetch_q$,attention_d128_causal_prefetch_q$' "$out/attention-memcheck.log"
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out"/attention*.log | head -20 || true
}

round_main "$@"
