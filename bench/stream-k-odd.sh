#!/usr/bin/env bash
# The GPU check of the stream-K kernel (persistent 128 x 256, unclustered,
# registers 40 / 232, the last partial wave's k-steps shared out over every
# CTA: docs/gemm.md, "Stream-K") in its spill-free form, which no round
# had timed, against the clustered bf16 chooser and the same persistent
# kernel without stream-K, on the suite's shapes whose last wave is partial
# (3000 x 5000 x 2000: 3.64 waves of 128 x 256 tiles; 5000^3: 6.06);
# cuBLAS alternating, exact on the check shapes first.
#
#   bench/stream-k-odd.sh build     # CPU machine with the MLIR build: .gpu/stream-k-odd/
#   bench/stream-k-odd.sh gemm OUT  # GPU machine, from .gpu/stream-k-odd/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/stream-k-odd
ATTENTION=""
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_persistent_streamk:--persistent --bf16-out --swizzle-c --stream-k"
GEMM+=";bf16out_persistent_single:--persistent --bf16-out --swizzle-c --registers 40,232"
SHAPES=3000x5000x2000,5000x5000x5000,4000x4000x4000,6144x6144x6144,4096x4096x4096
SHAPES+=,16384x1024x4096,4096x14336x4096,2048x2048x2048

run_gemm() {
  round_gemm_bf16 "${1:?output folder}" "$out_dir" "$SHAPES"
}

round_main "$@"
