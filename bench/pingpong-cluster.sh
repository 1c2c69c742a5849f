#!/usr/bin/env bash
# The GPU check of the pingpong schedule in clusters of two (gen_gemm.py
# --persistent --bf16-out --swizzle-c --pingpong --cluster 2: the consumers
# take the 128 x 128 tiles in turns, so one's epilogue runs under the
# other's main loop, and the cluster's two CTAs share their B tile, which
# halves the L2 reads round 23's unclustered form paid for): the clustered
# bf16 chooser as the targets build it, the pingpong kernel in clusters
# with 4 and 5 stages, and unclustered with 4, over bench.py's suite,
# cuBLAS alternating, exact on the check shapes first.
#
#   bench/pingpong-cluster.sh build     # CPU machine with the MLIR build: .gpu/pingpong-cluster/
#   bench/pingpong-cluster.sh gemm OUT  # GPU machine, from .gpu/pingpong-cluster/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/pingpong-cluster
ATTENTION=""
PP="--persistent --bf16-out --swizzle-c --pingpong"
GEMM="${TARGET_GEMM%%;*};bf16out_pingpong_c2:$PP --cluster 2"
GEMM+=";bf16out_pingpong_c2_s5:$PP --cluster 2 --stages 5;bf16out_pingpong:$PP"

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" ""
}

round_main "$@"
