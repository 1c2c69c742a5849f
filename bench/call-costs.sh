#!/usr/bin/env bash
# Where a short GEMM call's time goes (docs/gemm.md, "Decode rows"): the
# target bf16 chooser without and with its --decode-split form, as built here (the split's
# workspace the stream's, tile.stream_workspace) and at BEFORE_REV (default
# 1820f11: allocated, zeroed and freed on the stream at every call), on
# decode problems (and 2048^3 for contrast), each call timed by CUDA events,
# by the host's issue time, by its kernels' device time and in a CUDA graph
# (bench/Gemm/call_costs.py), cuBLAS alternating; then memcheck over small
# split problems. And the split-tail attention kernel (its workspace the
# stream's too, each cut's counter reset by its second arrival) checked on
# bench.py's check shapes, one call after another on one stream.
#
#   bench/call-costs.sh build     # CPU machine with the MLIR build: .gpu/call-costs/
#   bench/call-costs.sh gemm OUT  # GPU machine, from .gpu/call-costs/
#                                 # (NO_MEMCHECK=1: without compute-sanitizer)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/call-costs
UNSPLIT=$TARGET_BF16_CHOOSER
before=${BEFORE_REV:-1820f11}
SHAPES="8x2048x8192,8x4096x4096,1x4096x4096,16x1024x4096,8x8192x8192"
SHAPES+=",8x4096x14336,32x4096x14336,64x4096x4096,128x4096x4096,64x2048x8192"
SHAPES+=",2048x2048x2048"

run_gemm() {
  local out=${1:?output folder} lib
  for lib in gemm_bf16out_choose_persistent_c2.so gemm_bf16out_choose_dsplit_before.so \
    gemm_bf16out_choose_dsplit.so; do
    step "$lib" timeout 120 python3 bench/Gemm/call_costs.py --dir "$out_dir/gemm" \
      --lib "$lib" --shapes "$SHAPES" > "$out/call-costs-${lib%.so}.log" 2>&1
  done
  [ -n "${NO_MEMCHECK:-}" ] || step "memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench.py --dir "$out_dir/gemm" --check-only \
    --check-shapes 8x1024x4096,8x2048x8192,30x520x2000,1x200x1000 > "$out/memcheck.log" 2>&1
  grep -h "ERROR SUMMARY" "$out/memcheck.log" || true
  step "attention split check" timeout 120 python3 bench/Attention/bench.py \
    --dir "$out_dir/attention" --check-only > "$out/attention-check.log" 2>&1
  grep -h "FAIL\|PASS" "$out/attention-check.log" | sort | uniq -c | sort -rn | head -5 || true
  grep -h " us " "$out"/call-costs-*.log || true
}

case "${1:-}" in
  build)
    round_build "$out_dir" "--split-tail on" \
      "bf16out_choose_persistent_c2:$UNSPLIT;bf16out_choose_dsplit:$UNSPLIT --decode-split 8"
    round_build_at "$before" "$out_dir" _before "" \
      "bf16out_choose_dsplit:$UNSPLIT --decode-split 8" ;;
  gemm) run_gemm "${2:?output folder}" ;;
  *) echo "usage: $0 build | gemm OUT" >&2; exit 2 ;;
esac
