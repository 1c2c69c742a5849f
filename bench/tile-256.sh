#!/usr/bin/env bash
# 256 x 128 tiles (--bm 256: four consumer warpgroups of 64 rows, m64n128
# wgmmas, registers 24 / 112 of the 640 threads' 61440), in clusters of two
# sharing B, against the clustered bf16 chooser on the suite's weak shapes,
# cuBLAS alternating, every kernel exact on the check shapes first. A CTA
# loads 256 + 64 box rows per 2048 cycles of tensor work where the 128 x 256
# kernel loads 128 + 128 per 1024 (cuBLAS runs 256 x 128 tiles on these
# shapes; docs/gemm.md, "Widths that fill whole waves").
#
#   bench/tile-256.sh build     # CPU machine with the MLIR build: .gpu/tile-256/
#   bench/tile-256.sh gemm OUT  # GPU machine, from .gpu/tile-256/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/tile-256
BASE="--persistent --bf16-out --swizzle-c --cluster 2 --bm 256 --bn 128 --registers 24,112 --store-chunks"
ATTENTION=""
GEMM="bf16out_a_chooser:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_b_m256_s4:$BASE --c-buffers 1 --stages 4"
GEMM+=";bf16out_c_m256_s3:$BASE --c-buffers 2 --stages 3"
SHAPES="14336x4096x4096,4096x14336x4096,6144x6144x6144,4096x4096x4096,8192x8192x8192"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
