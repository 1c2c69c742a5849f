#!/usr/bin/env bash
# The GPU check of the epilogue's packed O stores in the attention forms
# that stage O in Q's buffer rather than a K stage (docs/attention.md, "Where
# the time per tile goes"): the one-tile kernels (head_dim 128 and 64,
# causal and not, bf16 and f16) and the persistent --kv-lag kernel, each
# exact on the check shapes, then compute-sanitizer's memcheck on the small
# ones.
#
#   bench/packed-o-forms.sh build          # CPU machine with the MLIR build: .gpu/packed-o-forms/
#   bench/packed-o-forms.sh attention OUT  # GPU machine, from .gpu/packed-o-forms/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/packed-o-forms
ATTENTION="--head-dim 128 --one-tile;--head-dim 128 --causal --one-tile"
ATTENTION+=";--head-dim 64 --one-tile;--head-dim 128 --dtype f16 --one-tile"
ATTENTION+=";--head-dim 128 --persistent --kv-lag"
GEMM=""

run_attention() {
  local out=${1:?output folder}
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  step "attention check" timeout 150 python3 bench/Attention/bench.py \
    --dir "$out_dir/attention" --check-only > "$out/attention-check.log" 2>&1
  round_sanitize memcheck "$out_dir/attention" attention_ "$out/memcheck.log"
  grep -h "FAIL\|SUMMARY\|ERROR SUMMARY" "$out"/*.log | head -20 || true
}

round_main "$@"
