#!/usr/bin/env bash
# The GPU check of the persistent GEMM epilogue's offsets kept in the tile
# loop (gen_gemm.py: the lane's pair column taken through the tile index,
# so LLVM no longer hoists the swizzled C-tile offsets out of the tile loop
# into registers the consumers hold through the main loop; docs/gemm.md,
# "Where the epilogue's time went"): exact on the check shapes, then beside
# the kernels before the change (`*_hoisted`, built from the generator of
# commit HOISTED_REV, default c53f6b8), bf16 output against cuBLAS and FP8
# against cuBLASLt, alternating.
#
# The choosers changed after the round that ran this script (the bf16
# clustered chooser's 128 x 256 kernels take the C ring and 4 stages since
# b3ddf5e): at a later commit it times today's choosers, not that round's.
# Check out 34dd645 to repeat the round.
#
#   bench/epilogue-offsets.sh build     # CPU machine with the MLIR build: .gpu/epilogue-offsets/
#   bench/epilogue-offsets.sh gemm OUT  # GPU machine, from .gpu/epilogue-offsets/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/epilogue-offsets
ATTENTION=""
CHOOSE_BF16="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
PERSISTENT_BF16="--persistent --bf16-out --swizzle-c --cluster 2"
CHOOSE_FP8="--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM="bf16out_choose_persistent_c2:$CHOOSE_BF16;bf16out_persistent_swz_c2:$PERSISTENT_BF16"
GEMM+=";fp8_choose_persistent:$CHOOSE_FP8"
SHAPES=3000x5000x2000,4000x4000x4000,5000x5000x5000,4096x14336x4096,8192x4096x14336
SHAPES+=,2048x2048x2048,4096x4096x4096,8192x8192x8192,256x8192x8192
FP8_SHAPES=4096x4096x4096,8192x8192x8192,4096x14336x4096,3000x5000x2000

build_before() {
  round_build_at "${HOISTED_REV:-c53f6b8}" "$out_dir" _hoisted "" "$GEMM"
}

run_gemm() {
  round_gemm "${1:?output folder}" "$out_dir" "$SHAPES" "$FP8_SHAPES"
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_before
  exit 0
fi
round_main "$@"
