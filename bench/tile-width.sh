#!/usr/bin/env bash
# The GPU check of tile widths chosen for whole waves: cuBLAS ran 3000 x
# 5000 x 2000 with 152-column tiles (Nsight Compute, round 71:
# nvjet_sm90_tst_152x256, 33 x 12 = 396 tiles, three whole waves of 132),
# where our 128 x 256 tiles make 480 (3.64 waves: the fourth two thirds
# idle). The clustered persistent kernel (4 stages, C through a ring of
# two chunk buffers, the last chunk narrower where 64 does not divide the
# width) with 128 x 240, 232 and 224 tiles against 256 and the clustered
# bf16 chooser: 232 makes 528 tiles at 3000 x 5000 x 2000 (4 whole waves of
# 232/256 the work), 224 makes 920 at 5000^3 (6.97 waves, against 6.06 of
# 256); cuBLAS alternating, exact on the check shapes first. (Round 72 ran
# an earlier form whose 232 and 224 kernels dropped the last chunk: wrong,
# since refused or built right by gen_gemm.py.)
#
#   bench/tile-width.sh build     # CPU machine with the MLIR build: .gpu/tile-width/
#   bench/tile-width.sh gemm OUT  # GPU machine, from .gpu/tile-width/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/tile-width
ATTENTION=""
C2="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,232 --store-chunks --c-buffers 2 --stages 4"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_c2_n256:$C2 --bn 256;bf16out_c2_n240:$C2 --bn 240"
GEMM+=";bf16out_c2_n232:$C2 --bn 232;bf16out_c2_n224:$C2 --bn 224"
SHAPES=3000x5000x2000,5000x5000x5000,4096x4096x4096,4000x4000x4000,8192x8192x8192
SHAPES+=,6144x6144x6144,4096x14336x4096

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
