#!/usr/bin/env bash
# The GPU check of the choosers' handling of rows off 32 bytes
# (docs/gemm.md, "Rows off 128-byte lines"): the bf16 chooser takes its
# clustered kernels for one wave where A's or Bt's rows or bases are not
# 32-byte aligned; the FP8 chooser with --cluster-off32 2 takes clustered
# twins of its 128 x 256 and 128 x 192 kernels there; both pad rows the TMA
# cannot read to whole 128-byte lines. Each chooser beside its form of
# commit BEFORE_REV (default 1f9caca), every check shape exact first, on
# problems whose rows are 16 bytes off, padded, 32-byte aligned and
# aligned, cuBLAS / cuBLASLt alternating; then compute-sanitizer memcheck
# over both forms of each on small problems of each kind.
#
#   bench/rows-off32.sh build     # CPU machine with the MLIR build: .gpu/rows-off32/
#   bench/rows-off32.sh gemm OUT  # GPU machine, from .gpu/rows-off32/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/rows-off32
before=${BEFORE_REV:-1f9caca}
BF16_FLAGS="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
FP8_FLAGS="--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix"
BF16="1000x3000x7000,1000x3000x5000,2048x2048x5000,640x4096x3000,768x4096x6000"
BF16+=",5000x5000x5000,4096x4096x4100,2048x2048x2047,8192x8192x8190,300x4096x4100"
BF16+=",4096x4096x4096,2048x2048x2048"
FP8="3072x5120x2000,8192x8192x5008,4096x14336x4112,1024x3072x7056,4096x4096x4000"
FP8+=",4096x4096x4100,2048x2048x2056,8192x8192x8200,8192x8192x8192,4096x4096x4096"

case "${1:-}" in
  build) round_choosers_build "$out_dir" "$before" "$BF16_FLAGS" "$FP8_FLAGS" \
    "" "--cluster-off32 2" ;;
  gemm) round_choosers_run "${2:?output folder}" "$out_dir" "$BF16" "$FP8" \
    129x257x520,500x600x1000,129x264x1001,300x4096x4100 \
    129x264x1001,200x1000x3000,1000x1000x1040,2000x2000x2000 ;;
  *) echo "usage: $0 build | gemm OUT" >&2; exit 2 ;;
esac
