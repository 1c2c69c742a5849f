#!/usr/bin/env bash
# The GPU check of the consumers apart (gen_gemm.py --stagger L): the
# clustered bf16 128 x 256 ring kernel (the clustered chooser's multi-wave
# kernel) as built, and with its consumers 1 and 2 k-steps apart, beside
# the chooser and cuBLAS, alternating, exact on the check shapes first.
#
#   bench/stagger.sh build     # CPU machine with the MLIR build: .gpu/stagger/
#   bench/stagger.sh gemm OUT  # GPU machine, from .gpu/stagger/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/stagger
ATTENTION=""
RING="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,232 --store-chunks --c-buffers 2 --stages 4"
GEMM="${TARGET_GEMM%%;*};bf16out_ring:$RING;bf16out_ring_apart1:$RING --stagger 1"
GEMM+=";bf16out_ring_apart2:$RING --stagger 2"
SHAPES=2048x2048x2048,4096x4096x512,3000x5000x2000,4000x4000x4000,4096x4096x4096
SHAPES+=,8192x8192x8192,4096x14336x4096,14336x4096x4096

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
