#!/usr/bin/env bash
# The GPU check of the defaults chosen from the carried-ring run
# (docs/gpu-results.md, 2026-12-06): each default against what it replaced,
# exact on the check shapes first, with cuDNN, cuBLAS and cuBLASLt in the
# same rounds:
#
# - attention: the persistent kernel, now the non-causal default, against
#   the one-tile one (head_dim 128 and 64); the one-tile causal kernels'
#   longest-first order against the grid's order (head_dim 128 and 64, and
#   the overlapped ping-pong causal form at 128), and the persistent causal
#   kernel (paired tiles), memcheck on the small shapes of the longest-first
#   and persistent causal kernels; the persistent kernels with the
#   consumers' turns carried across tiles (--carried-turns), racecheck on
#   their small shapes;
# - GEMM, bf16 output: the chooser (64 x 128 tiles, 8 stages, where they
#   fit in one wave) against the kernels it took before on those shapes
#   (128 x 128 with 6 stages, 64 x 128 with 6); FP8: the chooser.
#
#   bench/defaults.sh build          # CPU machine with the MLIR build: .gpu/defaults/
#   bench/defaults.sh attention OUT  # GPU machine, from .gpu/defaults/
#   bench/defaults.sh gemm OUT       # (each within one 600 s call)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out_dir=.gpu/defaults
ATTENTION="--head-dim 128;--head-dim 128 --one-tile;--head-dim 64;--head-dim 64 --one-tile"
ATTENTION+=";--head-dim 128 --causal;--head-dim 128 --causal --tile-order grid"
ATTENTION+=";--head-dim 64 --causal;--head-dim 64 --causal --tile-order grid"
ATTENTION+=";--head-dim 128 --causal --overlap on --pingpong on"
# The persistent causal kernel (paired tiles), head_dim 128 and 64.
ATTENTION+=";--head-dim 128 --causal --persistent;--head-dim 64 --causal --persistent"
# The consumers' turns carried across the persistent kernels' tiles.
ATTENTION+=";--head-dim 128 --carried-turns;--head-dim 64 --carried-turns;--head-dim 128 --causal --persistent --carried-turns"
GEMM="bf16out_choose_persistent_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
GEMM+=";bf16out_n128s6:--bf16-out --swizzle-c --bn 128 --stages 6"
GEMM+=";bf16out_m64n128s6:--bf16-out --swizzle-c --bm 64 --bn 128 --stages 6"
GEMM+=";fp8_choose_persistent:--choose --fp8 --persistent --swizzle-c --by-waves"
GEMM+=";fp8_n128s6:--fp8 --swizzle-c --bn 128 --stages 6"
SMALL_M=256x4096x4096,256x4096x14336,128x4096x4096,192x4096x4096,320x4096x4096,512x2048x8192,256x2048x8192,256x8192x8192
FP8_SHAPES=256x4096x4096,256x4096x14336,512x2048x8192,256x8192x8192,4096x4096x4096

build() {
  local build=${TILE_BUILD:-build}
  local rt="$build/lib/libtile_runtime.so"
  [ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
  rm -rf "$out_dir"
  mkdir -p "$out_dir/attention" "$out_dir/gemm" "$out_dir/fp8"
  for d in attention gemm fp8; do cp -f "$rt" "$out_dir/$d/"; done
  local flags name
  IFS=";" read -ra variants <<< "$ATTENTION"
  for flags in "${variants[@]}"; do
    # shellcheck disable=SC2086
    python3 examples/attention/gen_attention.py $flags > "$out_dir/tmp.mlir"
    name=$(sed -n 's/^    gpu.func @\([a-z0-9_]*\)(.*/\1/p' "$out_dir/tmp.mlir" | head -1)
    mv "$out_dir/tmp.mlir" "$out_dir/attention/$name.mlir"
    "$build/bin/tile-compile" "$out_dir/attention/$name.mlir" \
      -o "$out_dir/attention/$name.so" --runtime-dir "$out_dir/attention"
  done
  IFS=";" read -ra variants <<< "$GEMM"
  for v in "${variants[@]}"; do
    name=${v%%:*}
    flags=${v#*:}
    local dir=gemm
    [[ $name == fp8_* ]] && dir=fp8
    # shellcheck disable=SC2086
    python3 examples/gemm/gen_gemm.py $flags > "$out_dir/$dir/gemm_$name.mlir"
    "$build/bin/tile-compile" "$out_dir/$dir/gemm_$name.mlir" \
      -o "$out_dir/$dir/gemm_$name.so" --runtime-dir "$out_dir/$dir"
  done
  echo "defaults.sh: built $(find "$out_dir" -name '*.so' | wc -l) libraries in $out_dir"
}

# One step under a time limit; its exit status is printed, and a failing step
# does not stop the ones after it.
step() {
  local name=$1 rc=0
  shift
  "$@" || rc=$?
  echo "$name rc $rc"
}

run_attention() {
  local out=${1:?output folder}
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,temperature.gpu \
    --format=csv > "$out/device.txt" 2>&1 || true
  # A protocol bug hangs rather than fails: every step has a time limit.
  step "attention check" timeout 120 python3 bench/Attention/bench.py \
    --dir "$out_dir/attention" --check-only > "$out/attention-check.log" 2>&1
  step "attention bench" timeout 300 python3 bench/Attention/bench.py \
    --dir "$out_dir/attention" --no-triton --json "$out/attention.json" \
    > "$out/attention.log" 2>&1
  step "attention memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Attention/bench.py --dir "$out_dir/attention" \
    --only 'attention_d128_causal$,attention_d64_causal$,causal_persistent' --check-only --small \
    > "$out/attention-memcheck.log" 2>&1
  step "turns racecheck" timeout 150 compute-sanitizer --tool racecheck \
    python3 bench/Attention/bench.py --dir "$out_dir/attention" \
    --only carried_turns --check-only --small > "$out/attention-racecheck.log" 2>&1
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out"/attention*.log | head -20 || true
}

run_gemm() {
  local out=${1:?output folder}
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  step gemm timeout 330 python3 bench/Gemm/bench.py --dir "$out_dir/gemm" \
    --no-triton --json "$out/gemm.json" --shapes "$SMALL_M" \
    > "$out/gemm.log" 2>&1
  step fp8 timeout 200 python3 bench/Gemm/bench_fp8.py --dir "$out_dir/fp8" \
    --json "$out/fp8.json" --shapes "$FP8_SHAPES" > "$out/fp8.log" 2>&1
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out"/gemm.log "$out"/fp8.log | head -20 || true
}

case "${1:-}" in
  build) build ;;
  attention) run_attention "${2:-}" ;;
  gemm) run_gemm "${2:-}" ;;
  *) echo "usage: $0 build | attention OUT | gemm OUT" >&2; exit 2 ;;
esac
