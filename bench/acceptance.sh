#!/usr/bin/env bash
# The issues' acceptance measurements in one GPU call, for the card a call
# gets (the targets are stated for the H200): the clustered bf16 GEMM
# chooser over bench.py's 14-shape suite (cuBLAS alternating), the FP8
# chooser over bench_fp8.py's (8192^3 first; cuBLASLt alternating), and
# the head_dim 128 attention defaults, causal and not, side by side with
# cuDNN from 512 to 16k keys; each exact on its check shapes first
# (round-lib.sh: TARGET_ATTENTION, TARGET_GEMM, round_targets).
#
#   bench/acceptance.sh build     # CPU machine with the MLIR build: .gpu/acceptance/
#   bench/acceptance.sh all OUT   # GPU machine, from .gpu/acceptance/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/acceptance

case "${1:-}" in
  build) round_build "$out_dir" "$TARGET_ATTENTION" "$TARGET_GEMM" ;;
  all) round_targets "${2:?output folder}" "$out_dir" ;;
  *) echo "usage: $0 build | all OUT" >&2; exit 2 ;;
esac
