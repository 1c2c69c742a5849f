#!/usr/bin/env bash
# compute-sanitizer's memcheck over the bf16 target chooser's small check
# shapes (bench.py --check-only --small), those whose rows the TMA cannot
# read among them (the unclustered kernel's fallback version), from the
# acceptance build.
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
grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out/gemm-memcheck.log" | head -20 || true
