#!/usr/bin/env bash
# Where the bf16 chooser's one-wave kernels run long K: 1000 x 3000 x 7000
# ran 418 TFLOP/s against cuBLAS's 675 (round 115, bench/off-suite.sh) on
# the unclustered 128 x 192 kernel the chooser takes where its tiles fill
# one wave. Each kernel the choice could be, as a library of its own, on
# one-wave problems of long and short K, cuBLAS alternating, each exact on
# the check shapes first: the unclustered 128 x 192 and 128 x 256 kernels
# (a tile per CTA, the chooser's one-wave choices) and the clustered ring
# kernels of 128 x 192 (its C tile whole) and 128 x 256 (B multicast over
# two CTAs in both), with the
# chooser itself.
#
#   bench/one-wave-long-k.sh build     # CPU machine with the MLIR build: .gpu/one-wave-long-k/
#   bench/one-wave-long-k.sh gemm OUT  # GPU machine, from .gpu/one-wave-long-k/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/one-wave-long-k
BASE="--persistent --bf16-out --swizzle-c --registers 40,232"
RING="$BASE --cluster 2 --store-chunks --c-buffers 2 --stages 4"
ATTENTION=""
GEMM="bf16out_a_chooser:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_b_single_n192:$BASE --bn 192 --stages 4"
GEMM+=";bf16out_c_single_n256:$BASE --store-chunks --c-buffers 2 --stages 4"
GEMM+=";bf16out_d_cluster_n192:$BASE --cluster 2 --bn 192 --stages 4"
GEMM+=";bf16out_e_ring_n256:$RING"
SHAPES="1000x3000x7000,1024x3072x7168,1000x3000x7040,1000x3000x2000"
SHAPES+=",384x8192x8192,2048x2048x8192,1024x4096x8192,2048x2048x2048"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
