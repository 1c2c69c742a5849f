#!/usr/bin/env bash
# The target GEMM choosers on problems whose A and Bt rows the TMA cannot
# read (K not a multiple of 8 in bf16, of 16 in FP8): the entries pad both
# operands into stream-ordered copies (gemm_pad_k) and run the padded
# problem's kernel. Times them against cuBLAS / cuBLASLt in the same run
# (each library checked exactly first, the padded check shapes among them),
# with an aligned problem for scale, then compute-sanitizer memcheck over
# small padded problems.
#
#   bench/acceptance.sh build      # CPU machine: .gpu/acceptance/
#   bench/padded-k.sh OUT          # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out=${1:?usage: $0 OUT}
dir=.gpu/acceptance
SHAPES=4096x4096x4096,4096x4096x4100,2048x2048x2047,8192x8192x8190,300x4096x4100
FP8_SHAPES=4096x4096x4096,4096x4096x4100,2048x2048x2056,8192x8192x8200
mkdir -p "$out"
export PYTHONUNBUFFERED=1
step "bf16 padded" timeout 200 python3 bench/Gemm/bench.py --dir "$dir/gemm" \
  --no-triton --shapes "$SHAPES" --json "$out/gemm.json" > "$out/gemm.log" 2>&1
step "fp8 padded" timeout 150 python3 bench/Gemm/bench_fp8.py --dir "$dir/fp8" \
  --shapes "$FP8_SHAPES" --json "$out/fp8.json" > "$out/fp8.log" 2>&1
step "bf16 padded memcheck" timeout 100 compute-sanitizer --tool memcheck \
  python3 bench/Gemm/bench.py --dir "$dir/gemm" --check-only \
  --check-shapes 1200x4400x36,129x264x1001,300x520x37 \
  > "$out/padded-bf16-memcheck.log" 2>&1
step "fp8 padded memcheck" timeout 100 compute-sanitizer --tool memcheck \
  python3 bench/Gemm/bench_fp8.py --dir "$dir/fp8" --check-only \
  --check-shapes 2000x2000x1000,129x264x1001 \
  > "$out/padded-fp8-memcheck.log" 2>&1
grep -h "FAIL\|ERROR SUMMARY\|SUMMARY\|^  [0-9]*x[0-9]*x[0-9]*:" "$out"/*.log | head -40 || true
