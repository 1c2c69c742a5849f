#!/usr/bin/env bash
# The issues' acceptance measurements in one GPU call, for the card a call
# gets (the targets are stated for the H200): the clustered bf16 GEMM
# chooser over bench.py's 14-shape suite (cuBLAS alternating), the FP8
# chooser over bench_fp8.py's (8192^3 first; cuBLASLt alternating), and the head_dim 128 attention defaults, causal and not,
# side by side with cuDNN from 512 to 16k keys; each exact on its check
# shapes first.
#
#   bench/acceptance.sh build     # CPU machine with the MLIR build: .gpu/acceptance/
#   bench/acceptance.sh all OUT   # GPU machine, from .gpu/acceptance/
#   bench/acceptance.sh gemm OUT | attention OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/acceptance
ATTENTION="--head-dim 128;--head-dim 128 --causal"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"

run_gemm() {
  # No shapes named: each benchmark's own suite.
  round_gemm "${1:?output folder}" "$out_dir" "" ""
}

run_attention() {
  round_attention "${1:?output folder}" "$out_dir/attention" 300 --side-by-side
  grep -h "FAIL\|SUMMARY" "$1"/attention*.log | head -12 || true
}

if [ "${1:-}" = all ]; then
  run_gemm "${2:?output folder}"
  run_attention "$2"
  exit 0
fi
round_main "$@"
