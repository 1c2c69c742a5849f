#!/usr/bin/env bash
# Where a one-wave GEMM's time goes: the clustered bf16 chooser and cuBLAS
# at M = N = 2048 (128 tiles of 128 x 256: one per CTA, four SMs idle with
# either tile shape) over K from 64 to 8192, and at 4096^2 for K 64 and 512,
# alternating, exact on the check shapes first. The time at K = 64 is each
# kernel's fixed cost (start, the first loads, the epilogue's stores), the
# growth with K its main loop's rate; 2048^3 is 2.5-3 % behind cuBLAS in
# every run so far (docs/gemm.md), and this says which of the two it is.
# Then the one-library tools (profile.py, clocks.py) once each.
#
#   bench/fixed-cost.sh build     # CPU machine with the MLIR build: .gpu/fixed-cost/
#   bench/fixed-cost.sh gemm OUT  # GPU machine, from .gpu/fixed-cost/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/fixed-cost
ATTENTION=""
# The clustered bf16 chooser: the first of the targets' GEMMs (round-lib.sh).
GEMM=${TARGET_GEMM%%;*}
SHAPES=2048x2048x64,2048x2048x256,2048x2048x1024,2048x2048x2048,2048x2048x4096
SHAPES+=,2048x2048x8192,4096x4096x64,4096x4096x512

run_gemm() {
  local out=${1:?output folder}
  round_gemm_bf16 "$out" "$out_dir" "$SHAPES"
  local lib=gemm_bf16out_choose_persistent_c2.so
  step profile timeout 60 python3 bench/Gemm/profile.py --dir "$out_dir/gemm" \
    --lib "$lib" --shapes 2048x2048x2048 > "$out/tools.log" 2>&1
  step clocks timeout 60 python3 bench/Gemm/clocks.py --dir "$out_dir/gemm" \
    --lib "$lib" --shapes 4096x4096x4096 --seconds 1 >> "$out/tools.log" 2>&1
  cat "$out/tools.log"
}

round_main "$@"
