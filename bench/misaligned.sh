#!/usr/bin/env bash
# The target GEMM choosers timed on problems whose rows the TMA cannot
# read or write, against cuBLAS in the same run, as built and as they were
# at REV (default 7365f67, before the C rule; the suffix _old): N odd (C's rows of 2N bytes; an
# LM head over a 50257-token vocabulary), N = 4100, K not a multiple of 8
# (A's and Bt's rows; the kernels' fallback versions), and an aligned
# problem for scale. Each library is checked exactly first.
#
#   bench/misaligned.sh build [REV]   # CPU machine: .gpu/misaligned/
#   bench/misaligned.sh run OUT       # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/misaligned
SHAPES=4096x4096x4096,2048x2047x2048,300x4100x4096,8192x50257x768,4096x4096x4100
FP8_SHAPES=4096x4096x4096,2048x2044x2048,8192x50257x768

case "${1:-}" in
  build)
    round_build "$out_dir" "" "$TARGET_GEMM"
    round_build_at "${2:-7365f67}" "$out_dir" _old "" "$TARGET_GEMM"
    rm -rf "$out_dir/attention" ;;
  run)
    out=${2:?output folder}
    mkdir -p "$out"
    export PYTHONUNBUFFERED=1
    step "bf16 misaligned" timeout 330 python3 bench/Gemm/bench.py \
      --dir "$out_dir/gemm" --no-triton --shapes "$SHAPES" \
      --json "$out/gemm.json" > "$out/gemm.log" 2>&1
    step "fp8 misaligned" timeout 200 python3 bench/Gemm/bench_fp8.py \
      --dir "$out_dir/fp8" --shapes "$FP8_SHAPES" \
      --json "$out/fp8.json" > "$out/fp8.log" 2>&1
    grep -h "FAIL\|SUMMARY\|TFLOP\|^  [0-9]*x[0-9]*x[0-9]*:" "$out"/*.log | head -40 || true ;;
  *) echo "usage: $0 build [REV] | run OUT" >&2; exit 2 ;;
esac
