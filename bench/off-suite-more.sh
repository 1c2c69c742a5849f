#!/usr/bin/env bash
# More problems off the suites, after round 115 (bench/off-suite.sh): the
# attention defaults (head_dim 128 and 64, causal and not) side by side
# with cuDNN on sequence lengths no block divides, grouped-query attention
# (32 query heads on 8 K/V heads, 64 on 8) and short and long sequences at
# other batch sizes; the target GEMM choosers on M between 33 and 128, K of
# one or two k-steps and narrow N, cuBLAS / cuBLASLt alternating. Every
# kernel exact on its check shapes first.
#
#   bench/off-suite-more.sh build    # CPU machine with the MLIR build: .gpu/off-suite-more/
#   bench/off-suite-more.sh all OUT  # GPU machine, from .gpu/off-suite-more/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/off-suite-more
ATTENTION="$TARGET_ATTENTION;--head-dim 64;--head-dim 64 --causal"
PROBLEMS="8x16x1000,4x16x3000,2x16x7000,64x16x256,1x16x32768"
PROBLEMS+=",4x32x4096x8,2x64x8192x8,16x32x1024x8"
GEMM_SHAPES="48x8192x8192,96x8192x8192,48x4096x14336,4096x4096x128"
GEMM_SHAPES+=",8192x8192x256,4096x1024x4096,2048x1024x8192,1536x8192x1536"

case "${1:-}" in
  build) round_build "$out_dir" "$ATTENTION" "$TARGET_GEMM" ;;
  all)
    out=${2:?output folder}
    round_gemm "$out" "$out_dir" "$GEMM_SHAPES" "$GEMM_SHAPES"
    round_attention "$out" "$out_dir/attention" 300 --side-by-side \
      --problems "$PROBLEMS"
    grep -h "FAIL\|SUMMARY\|d=" "$out"/attention.log | head -40 || true ;;
  *) echo "usage: $0 build | all OUT" >&2; exit 2 ;;
esac
