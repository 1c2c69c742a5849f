#!/usr/bin/env bash
# The GPU check of the persistent 128 x 256 kernel with a fourth stage,
# made room for by storing C through a ring of two 128-byte-wide chunk
# buffers (gen_gemm.py --store-chunks --c-buffers 2 --stages 4; 32 KiB of C
# instead of 64): against the three-stage kernel with the whole C tile (the
# choosers' 128 x 256 kernel) and the ring with three stages, bf16 output
# in clusters of 2 against cuBLAS and FP8 against cuBLASLt, alternating,
# exact on the check shapes first.
#
#   bench/c-ring.sh build     # CPU machine with the MLIR build: .gpu/c-ring/
#   bench/c-ring.sh gemm OUT  # GPU machine, from .gpu/c-ring/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/c-ring
ATTENTION=""
BF16="--persistent --bf16-out --swizzle-c --cluster 2 --registers 40,232"
FP8="--fp8 --persistent --swizzle-c"
RING="--store-chunks --c-buffers 2"
GEMM="bf16out_persistent_c2:$BF16;bf16out_persistent_c2_ring4:$BF16 $RING --stages 4"
GEMM+=";bf16out_persistent_c2_ring3:$BF16 $RING"
GEMM+=";fp8_persistent:$FP8;fp8_persistent_ring4:$FP8 $RING --stages 4"
run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$EPILOGUE_SHAPES" "$EPILOGUE_FP8_SHAPES"
}

round_main "$@"
