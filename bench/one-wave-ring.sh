#!/usr/bin/env bash
# The GPU check of the one-wave 128 x 256 kernel (the clustered bf16
# chooser's `one_wave` choice: persistent, unclustered, registers 40 / 232,
# one tile per CTA) with a fourth stage and C through a ring of two chunk
# buffers (--store-chunks --c-buffers 2 --stages 4), against it as the
# chooser builds it (3 stages, the whole C tile), on problems whose 128 x
# 256 tiles fill at most one wave; cuBLAS alternating, exact on the check
# shapes first.
#
#   bench/one-wave-ring.sh build     # CPU machine with the MLIR build: .gpu/one-wave-ring/
#   bench/one-wave-ring.sh gemm OUT  # GPU machine, from .gpu/one-wave-ring/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/one-wave-ring
ATTENTION=""
SINGLE="--persistent --bf16-out --swizzle-c --registers 40,232"
GEMM="bf16out_single:$SINGLE;bf16out_single_ring4:$SINGLE --store-chunks --c-buffers 2 --stages 4"
SHAPES=2048x2048x2048,512x8192x8192,1024x4096x8192,2048x4096x4096,2048x2048x8192

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
