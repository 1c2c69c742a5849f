#!/usr/bin/env bash
# The GPU check of the persistent cooperative epilogue storing each C chunk
# as soon as it is written (gen_gemm.py --store-chunks; docs/gemm.md,
# "Where the epilogue's time went"): the choosers with and without it,
# exact on the check shapes first, bf16 output against cuBLAS and FP8
# against cuBLASLt, alternating.
#
# Round 56 ran it on the tree of 0a75d30 with --store-chunks added; no
# commit holds that tree (b3ddf5e added the option together with the bf16
# clustered chooser's C ring and 4 stages), so today it times today's
# choosers with and without --store-chunks, not that round's.
#
#   bench/store-chunks.sh build     # CPU machine with the MLIR build: .gpu/store-chunks/
#   bench/store-chunks.sh gemm OUT  # GPU machine, from .gpu/store-chunks/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/store-chunks
ATTENTION=""
CHOOSE_BF16="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
CHOOSE_FP8="--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM="bf16out_choose_persistent_c2:$CHOOSE_BF16"
GEMM+=";bf16out_choose_persistent_c2_chunks:$CHOOSE_BF16 --store-chunks"
GEMM+=";fp8_choose_persistent:$CHOOSE_FP8;fp8_choose_persistent_chunks:$CHOOSE_FP8 --store-chunks"
run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$EPILOGUE_SHAPES" "$EPILOGUE_FP8_SHAPES"
}

round_main "$@"
