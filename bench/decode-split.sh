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
ATTENTION=""
GEMM="bf16out_b_after:$BF16_FLAGS --decode-split 8;fp8_b_after:$FP8_FLAGS --decode-split 8"
SHAPES="8x1024x4096,16x1024x4096,8x2048x8192,1x4096x4096,8x4096x4096"
SHAPES+=",8x4096x14336,32x4096x14336,8x8192x8192"

run_gemm() {
  local out=${1:?output folder}
  round_gemm "$out" "$out_dir" "$SHAPES" "$SHAPES"
  step "bf16 memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench.py --dir "$out_dir/gemm" --check-only \
    --check-shapes 8x1024x4096,30x520x2000,1x200x1000 \
    > "$out/bf16-memcheck.log" 2>&1
  step "fp8 memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench_fp8.py --dir "$out_dir/fp8" --check-only \
    --check-shapes 8x1024x4096,30x528x2048,1x208x1024 \
    > "$out/fp8-memcheck.log" 2>&1
  grep -h "ERROR SUMMARY" "$out"/*-memcheck.log || true
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  round_build_at "$before" "$out_dir" "" "" \
    "bf16out_a_before:$BF16_FLAGS;fp8_a_before:$FP8_FLAGS"
  echo "built $(find "$out_dir" -name 'gemm_*.so' | wc -l) choosers in $out_dir"
  exit 0
fi
round_main "$@"
