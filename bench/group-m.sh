#!/usr/bin/env bash
# The GPU check of the grouped tile order's group height for the clustered
# bf16 128 x 256 kernel (4 stages, C through a ring of 2 chunk buffers:
# the clustered chooser's multi-wave kernel): --group-m 4, 8 (the default)
# and 16 tile rows per group, against cuBLAS, alternating, exact on the
# check shapes first.
#
#   bench/group-m.sh build     # CPU machine with the MLIR build: .gpu/group-m/
#   bench/group-m.sh gemm OUT  # GPU machine, from .gpu/group-m/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/group-m
ATTENTION=""
RING="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,232 --store-chunks --c-buffers 2 --stages 4"
GEMM="bf16out_ring_g8:$RING;bf16out_ring_g4:$RING --group-m 4;bf16out_ring_g16:$RING --group-m 16"
SHAPES=3000x5000x2000,4000x4000x4000,5000x5000x5000,4096x14336x4096,16384x1024x4096,8192x8192x8192

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
