#!/usr/bin/env bash
# The GPU check of 192-row tiles (three consumer warpgroups, registers
# 40 / 152) in the clustered persistent kernel, for the shapes cuBLAS runs
# in 192-row tiles (round 75: 192 x 192 at 3000^3, 256 tiles in 1.94 waves;
# 192 x 160 at 4000^3, 525 tiles in 3.98), against the clustered bf16
# chooser; 4 stages, C through one chunk buffer; cuBLAS alternating, exact
# on the check shapes first.
#
#   bench/tile-height.sh build     # CPU machine with the MLIR build: .gpu/tile-height/
#   bench/tile-height.sh gemm OUT  # GPU machine, from .gpu/tile-height/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/tile-height
ATTENTION=""
M192="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,152 --store-chunks --c-buffers 1 --stages 4 --bm 192"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_c2_m192n192:$M192 --bn 192;bf16out_c2_m192n160:$M192 --bn 160"
SHAPES=3000x3000x3000,4000x4000x4000,3000x5000x2000,4096x4096x4096,6144x6144x6144

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
