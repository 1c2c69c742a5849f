#!/usr/bin/env bash
# The L2 policy of the bf16 GEMM's operand loads (gen_gemm.py --l2-hints
# A:B, tile.copy_async's cache_hint): the clustered target chooser with
# none, with A evict_first and Bt evict_last, the reverse, and Bt alone
# evict_last, the chooser without hints in two places (a, d) so that the
# rounds' order shows; every check shape exact first, cuBLAS alternating,
# on the suite's shapes with K or N the long side and the squares; the FP8
# target chooser likewise with none and either pair over bench_fp8.py's
# suite (cuBLASLt alternating).
#
# `sustained` runs the bf16 chooser without hints and with A evict_first,
# Bt evict_last for seconds each, alternating with cuBLAS, the card's clock
# and power sampled (bench/Gemm/clocks.py): the power cap's regime, where
# DRAM traffic that the L2 saves is power the SMs can clock with.
#
#   bench/l2-hints.sh build          # CPU machine with the MLIR build: .gpu/l2-hints/
#   bench/l2-hints.sh gemm OUT       # GPU machine, from .gpu/l2-hints/
#   bench/l2-hints.sh sustained OUT  # the same machine
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/l2-hints
ATTENTION=""
GEMM="bf16out_a_none:$TARGET_BF16_CHOOSER"
GEMM+=";bf16out_b_first_last:$TARGET_BF16_CHOOSER --l2-hints first:last"
GEMM+=";bf16out_c_last_first:$TARGET_BF16_CHOOSER --l2-hints last:first"
GEMM+=";bf16out_d_none:$TARGET_BF16_CHOOSER"
GEMM+=";bf16out_e_none_last:$TARGET_BF16_CHOOSER --l2-hints none:last"
FP8="--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster-off32 2"
GEMM+=";fp8_a_none:$FP8;fp8_b_first_last:$FP8 --l2-hints first:last"
GEMM+=";fp8_c_last_first:$FP8 --l2-hints last:first"
SHAPES="14336x4096x4096,4096x14336x4096,4096x4096x14336,6144x6144x6144"
SHAPES+=",8192x8192x8192,4096x4096x4096,2048x2048x2048,8192x4096x14336"
SHAPES+=",256x8192x8192,3000x5000x2000"

run_gemm() {
  local out=${1:?output folder}
  round_gemm_bf16 "$out" "$out_dir" "$SHAPES"
  step fp8 timeout 150 python3 bench/Gemm/bench_fp8.py --dir "$out_dir/fp8" \
    --json "$out/fp8.json" > "$out/fp8.log" 2>&1
  grep -h "FAIL\|SUMMARY" "$out/fp8.log" | head -20 || true
}

run_sustained() {
  local out=${1:?output folder}
  mkdir -p "$out"
  step sustained timeout 200 python3 bench/Gemm/clocks.py --dir "$out_dir/gemm" \
    --lib gemm_bf16out_a_none.so,gemm_bf16out_b_first_last.so --seconds 2 \
    --shapes 14336x4096x4096,4096x14336x4096,8192x8192x8192,6144x6144x6144 \
    > "$out/sustained.log" 2>&1
  grep "TFLOP/s" "$out/sustained.log" || true
}

if [ "${1:-}" = sustained ]; then
  run_sustained "${2:-}"
  exit
fi
round_main "$@"
