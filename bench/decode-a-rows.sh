#!/usr/bin/env bash
# An ablation for decode rows (round 120, bench/decode.sh: no 64-row
# variant reached cuBLAS): the 64 x 64 kernel (8 stages) with its A box cut
# from 64 rows to R (8, 16, 32), so the copy engine fills fewer rows past M
# with zeros; the A tile's rows past R keep what they held, which only C's
# rows past R read, so the results are right for M <= R alone (the checks
# of larger shapes fail by construction; only the times count), beside the
# chooser, cuBLAS alternating.
#
#   bench/decode-a-rows.sh build     # CPU machine with the MLIR build: .gpu/decode-a-rows/
#   bench/decode-a-rows.sh gemm OUT  # GPU machine, from .gpu/decode-a-rows/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-a-rows
ATTENTION=""
GEMM="bf16out_a_chooser:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_b_m64n64:--bm 64 --bn 64 --bf16-out --stages 8"
SHAPES="1x8192x8192,8x8192x8192,8x14336x4096,8x4096x14336,16x8192x8192"
SHAPES+=",32x8192x8192,32x14336x4096,32x4096x14336"

build_ablated() {
  local rows dir=$out_dir/gemm
  for rows in 8 16 32; do
    python3 examples/gemm/gen_gemm.py --bm 64 --bn 64 --bf16-out --stages 8 |
      sed "s/tile.copy_async %a\[0, 0\] \[64, 64\], %A\[%m0, %k0\] \[64, 64\]/tile.copy_async %a[0, 0] [$rows, 64], %A[%m0, %k0] [$rows, 64]/" \
      > "$dir/gemm_bf16out_c_a$rows.mlir"
    grep -q "\[$rows, 64\], %A" "$dir/gemm_bf16out_c_a$rows.mlir"
    round_compile "$dir" "gemm_bf16out_c_a$rows"
  done
}

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_ablated
  exit 0
fi
round_main "$@"
