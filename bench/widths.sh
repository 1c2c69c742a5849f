#!/usr/bin/env bash
# The GPU check of the clustered bf16 chooser with the shapes rule
# (gen_gemm.py RING_SHAPES: 128 x 232, 128 x 224 and 192 x 192 tiles where
# their count fills whole waves and 128 x 256 leaves the last one mostly
# idle, then 128 x 192; round 74 ran its first form, the widths alone),
# side by side with the chooser before it (the generator
# of git revision BASE, default 2ea788a) over the suite and more odd
# shapes, cuBLAS alternating, exact on the check shapes first.
#
#   bench/widths.sh build     # CPU machine with the MLIR build: .gpu/widths/
#   bench/widths.sh gemm OUT  # GPU machine, from .gpu/widths/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/widths
ATTENTION=""
CHOOSE="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM="bf16out_choose_persistent_c2:$CHOOSE"
SHAPES=2048x2048x2048,4096x4096x4096,6144x6144x6144,8192x8192x8192,4096x14336x4096
SHAPES+=,4096x4096x14336,14336x4096x4096,8192x4096x14336,16384x1024x4096
SHAPES+=,64x8192x8192,128x8192x8192,256x8192x8192,4000x4000x4000,3000x5000x2000
SHAPES+=,5000x5000x5000,3000x3000x3000,7000x7000x2000,5000x3000x4000,2500x10000x4096

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  round_build_at "${BASE:-2ea788a}" "$out_dir" _before "" "$GEMM"
  exit 0
fi

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
