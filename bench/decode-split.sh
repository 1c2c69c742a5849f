#!/usr/bin/env bash
# The GPU check of the choosers' --decode-split (docs/gemm.md, "Decode
# rows"): for M <= 32 where the 64 x 64 tiles fill at most half the SMs
# (weights of 4096 columns or fewer), the decode kernel split in up to 8
# shares of K, the partials meeting in a workspace the entry allocates,
# zeroes and frees on the stream. Each target chooser beside its form of
# commit BEFORE_REV (default 25bc4dd, the decode kernel unsplit), every
# check shape exact first, cuBLAS / cuBLASLt alternating; then
# compute-sanitizer memcheck over small split problems.
#
#   bench/decode-split.sh build     # CPU machine with the MLIR build: .gpu/decode-split/
#   bench/decode-split.sh gemm OUT  # GPU machine, from .gpu/decode-split/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-split
before=${BEFORE_REV:-25bc4dd}
BF16_FLAGS="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
FP8_FLAGS="--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster-off32 2"
SHAPES="8x1024x4096,16x1024x4096,8x2048x8192,1x4096x4096,8x4096x4096"
SHAPES+=",8x4096x14336,32x4096x14336,8x8192x8192"

case "${1:-}" in
  build) round_choosers_build "$out_dir" "$before" "$BF16_FLAGS" "$FP8_FLAGS" \
    "--decode-split 8" "--decode-split 8" ;;
  gemm) round_choosers_run "${2:?output folder}" "$out_dir" "$SHAPES" "$SHAPES" \
    8x1024x4096,30x520x2000,1x200x1000 8x1024x4096,30x528x2048,1x208x1024 ;;
  *) echo "usage: $0 build | gemm OUT" >&2; exit 2 ;;
esac
