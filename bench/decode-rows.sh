#!/usr/bin/env bash
# The GPU check of the choosers' decode-row kernel (docs/gemm.md, "Decode
# rows"): for M <= 32 the 64 x 64 kernel whose A box loads 32 rows, the
# tile's others zeroed once. Each target chooser beside its form of commit
# BEFORE_REV (default 333dcfb), every check shape exact first (M = 1 and 7
# among them), on decode rows against LLM weights, cuBLAS / cuBLASLt
# alternating; then compute-sanitizer memcheck over small decode problems.
#
#   bench/decode-rows.sh build     # CPU machine with the MLIR build: .gpu/decode-rows/
#   bench/decode-rows.sh gemm OUT  # GPU machine, from .gpu/decode-rows/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-rows
before=${BEFORE_REV:-333dcfb}
BF16_FLAGS="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
FP8_FLAGS="--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster-off32 2"
SHAPES=""
for m in 1 8 16 32; do
  for nk in 8192x8192 14336x4096 4096x14336; do
    SHAPES+="${SHAPES:+,}${m}x$nk"
  done
done
SHAPES+=",33x8192x8192,64x8192x8192"

case "${1:-}" in
  build) round_choosers_build "$out_dir" "$before" "$BF16_FLAGS" "$FP8_FLAGS" "" "" ;;
  gemm) round_choosers_run "${2:?output folder}" "$out_dir" "$SHAPES" "$SHAPES" \
    1x4096x4096,7x264x4096,32x520x1000 1x4096x4096,7x272x4096,32x528x1024 ;;
  *) echo "usage: $0 build | gemm OUT" >&2; exit 2 ;;
esac
