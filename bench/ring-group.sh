#!/usr/bin/env bash
# The GPU check of the clustered bf16 chooser with its ringed 128 x 256
# kernel walking groups of 16 tile rows (RING_GROUP_M) against the same
# chooser with groups of 8 (built from the generator of commit G8_REV,
# default 3b04e52), cuBLAS alternating, on the suite's shapes (docs/gemm.md).
#
#   bench/ring-group.sh build     # CPU machine with the MLIR build: .gpu/ring-group/
#   bench/ring-group.sh gemm OUT  # GPU machine, from .gpu/ring-group/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/ring-group
ATTENTION=""
CHOOSE="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM="bf16out_choose_persistent_c2:$CHOOSE"
SHAPES=2048x2048x2048,4096x4096x4096,6144x6144x6144,8192x8192x8192,4096x14336x4096
SHAPES+=,4096x4096x14336,14336x4096x4096,8192x4096x14336,16384x1024x4096,4000x4000x4000
SHAPES+=,3000x5000x2000,5000x5000x5000

build_before() {
  local build=${TILE_BUILD:-build} rev=${G8_REV:-3b04e52} old dir=$out_dir/gemm
  old=$(mktemp -d)
  git show "$rev:examples/gemm/gen_gemm.py" > "$old/gen_gemm.py"
  # shellcheck disable=SC2086
  python3 "$old/gen_gemm.py" $CHOOSE > "$dir/gemm_bf16out_choose_persistent_c2_g8.mlir"
  "$build/bin/tile-compile" "$dir/gemm_bf16out_choose_persistent_c2_g8.mlir" \
    -o "$dir/gemm_bf16out_choose_persistent_c2_g8.so" --runtime-dir "$dir"
  rm -rf "$old"
}

run_gemm() {
  local out=${1:?output folder}
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  step gemm timeout 300 python3 bench/Gemm/bench.py --dir "$out_dir/gemm" \
    --no-triton --json "$out/gemm.json" --shapes "$SHAPES" > "$out/gemm.log" 2>&1
  grep -h "SUMMARY" "$out/gemm.log" || true
}

if [ "${1:-}" = build ]; then
  round_build "$out_dir" "$ATTENTION" "$GEMM"
  build_before
  exit 0
fi
round_main "$@"
