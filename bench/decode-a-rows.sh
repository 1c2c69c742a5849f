#!/usr/bin/env bash
# Decode rows (round 120, bench/decode.sh: no 64-row variant reached
# cuBLAS): the 64 x 64 kernel (8 stages) with its A box cut from 64 rows to
# R (8, 16, 32; gen_gemm.py --a-rows R), so the copy engine fills fewer rows
# past M with zeros, beside the kernel with the whole box and the chooser,
# cuBLAS alternating. A kernel whose box is R rows is right for M <= R
# alone: the checks of larger shapes fail by construction and only the
# times count. (Round 121 ran this before --a-rows existed, with the box
# edited into the module and the rows past R left as they were; the flag's
# kernel zeroes them once at its start.)
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
for rows in 8 16 32; do
  GEMM+=";bf16out_c_a$rows:--bm 64 --bn 64 --bf16-out --stages 8 --a-rows $rows"
done
SHAPES="1x8192x8192,8x8192x8192,8x14336x4096,8x4096x14336,16x8192x8192"
SHAPES+=",32x8192x8192,32x14336x4096,32x4096x14336"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
