#!/usr/bin/env bash
# compute-sanitizer over the target choosers, from the acceptance build:
# memcheck over the bf16 chooser's small check shapes (bench.py --check-only
# --small; those whose rows the TMA cannot read run the unclustered kernel's
# fallback version), then over the kernel whose consumer threads copy C
# (gemm_cthreads: C's rows not 16-byte aligned, small problems with N odd),
# bf16 and FP8, and racecheck on it in bf16 (shared memory: the ring of C
# chunk buffers, which the threads read while others write the next chunk).
#
#   bench/acceptance.sh build       # CPU machine: .gpu/acceptance/
#   bench/gemm-sanitize.sh OUT      # GPU machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out=${1:?usage: $0 OUT}
mkdir -p "$out"
step "gemm memcheck" timeout 400 compute-sanitizer --tool memcheck \
  python3 bench/Gemm/bench.py --dir .gpu/acceptance/gemm --check-only --small \
  > "$out/gemm-memcheck.log" 2>&1
for tool in memcheck racecheck; do
  step "c by threads, bf16 $tool" timeout 100 compute-sanitizer --tool "$tool" \
    python3 bench/Gemm/bench.py --dir .gpu/acceptance/gemm --check-only \
    --check-shapes 129x257x520,300x1001x200 > "$out/cthreads-bf16-$tool.log" 2>&1
done
step "c by threads, fp8 memcheck" timeout 100 compute-sanitizer --tool memcheck \
  python3 bench/Gemm/bench_fp8.py --dir .gpu/acceptance/fp8 --check-only \
  --check-shapes 129x257x528,300x1001x256 > "$out/cthreads-fp8-memcheck.log" 2>&1
grep -h "FAIL\|ERROR SUMMARY\|RACECHECK SUMMARY\|SUMMARY\|hazard" "$out"/*.log | head -30 || true
