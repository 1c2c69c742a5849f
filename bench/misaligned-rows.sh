#!/usr/bin/env bash
# Which kernels keep their speed where the operands' rows are 16- but not
# 64-byte aligned (round 117, bench/row-alignment.sh: bf16 1000 x 3000 x
# 7000 at 0.57 of K = 7040's TFLOP/s, 5000^3 at 0.87 of K = 5056's, FP8
# 3000 x 5000 x 2000 at 0.67 of K = 2048's): the kernels the bf16 chooser
# could take for one wave (the unclustered 128 x 192 one it takes, the
# clustered 128 x 192 and ring 128 x 256 ones, B multicast over two CTAs)
# and the chooser itself, and the FP8 chooser unclustered (the target's)
# and in clusters of two, on problems of one wave and of several whose K
# leaves rows 16 or 32 bytes off a 128-byte line, cuBLAS / cuBLASLt
# alternating, each exact on the check shapes first.
#
#   bench/misaligned-rows.sh build     # CPU machine with the MLIR build: .gpu/misaligned-rows/
#   bench/misaligned-rows.sh gemm OUT  # GPU machine, from .gpu/misaligned-rows/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/misaligned-rows
BASE="--persistent --bf16-out --swizzle-c --registers 40,232"
ATTENTION=""
GEMM="bf16out_a_chooser:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_b_single_n192:$BASE --bn 192 --stages 4"
GEMM+=";bf16out_d_cluster_n192:$BASE --cluster 2 --bn 192 --stages 4"
GEMM+=";bf16out_e_ring_n256:$BASE --cluster 2 --store-chunks --c-buffers 2 --stages 4"
GEMM+=";fp8_a_chooser:--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix"
GEMM+=";fp8_b_chooser_c2:--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster 2"
BF16="1000x3000x7000,1000x3000x5000,768x4096x6000,640x4096x3000,2048x2048x5000"
BF16+=",5000x5000x5000,4000x6000x3000,8192x8192x5000"
FP8="3072x5120x2000,4096x4096x4000,8192x8192x5008,1024x3072x7056,4096x14336x4112"
FP8+=",1024x3072x7168,4096x4096x4096"

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$BF16" "$FP8"
}

round_main "$@"
