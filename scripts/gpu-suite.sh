#!/usr/bin/env bash
# The GPU suite: builds every kernel under test/GPU/kernels (plus the
# reference demo and examples/dynamic_tiled_copy.mlir, as demo.so and
# dyn_tiled.so) with tile-compile into .gpu/<name>.so, the runtime, the
# host runner, the im2col encode check (test/GPU/im2col_encode_check.cpp)
# and the device-map check (test/GPU/device_map_check.cpp)
# next to them, then runs them where a CUDA driver is present (each prints a
# SKIP line and exits 0 where none is).
#
#   scripts/gpu-suite.sh [build|run|all] [runner args...]
#
#   build  needs the MLIR build (TILE_BUILD, default build/) on this machine
#   run    needs only .gpu/ (what a GPU machine without MLIR gets)
#   all    (default) build, then run
#
# The sm_100a forms (cta_group, tile::gather4, tile::scatter4) cannot run on
# the H200: build writes their PTX (test/Pipeline/Inputs/sm100-*.mlir through
# the pipeline with chip=sm_100a) into .gpu/sm100/, and run assembles each
# with `ptxas -arch=sm_100a` and prints PASS/FAIL per file before the runner.
#
# Environment: GPU_OUT (output folder, default .gpu), TILE_BUILD (build
# folder with bin/tile-compile and
# lib/Runtime/libtile_runtime.so), JOBS (parallel compiles, default 2), CXX,
# PTXAS (ptxas for the sm_100a step; default: on PATH, else
# /usr/local/cuda/bin/ptxas).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:-all}
[ $# -gt 0 ] && shift
build=${TILE_BUILD:-build}
out=${GPU_OUT:-.gpu}
jobs=${JOBS:-2}
cxx=${CXX:-/usr/lib/llvm-22/bin/clang++}

do_build() {
  local tc="$build/bin/tile-compile" rt="$build/lib/Runtime/libtile_runtime.so"
  [ -f "$rt" ] || rt="$build/lib/libtile_runtime.so"
  if [ ! -x "$tc" ] || [ ! -f "$rt" ]; then
    echo "gpu-suite: building tile-compile and tile_runtime in $build"
    ninja -C "$build" -j "$jobs" tile-compile tile_runtime
  fi
  mkdir -p "$out"
  cp -f "$rt" "$out/"
  python3 test/GPU/gen_cases.py
  cp -f examples/copy_async_tma.mlir "$out/demo.mlir"
  cp -f examples/dynamic_tiled_copy.mlir "$out/dyn_tiled.mlir"
  # test/GPU/kernels/async: the asynchronous protocol's cases; the *_wrong
  # kernels break a rule on purpose and compile with --verify-async=false.
  local inputs=("$out/demo.mlir" "$out/dyn_tiled.mlir" test/GPU/kernels/*.mlir
                test/GPU/kernels/async/*.mlir)
  echo "gpu-suite: compiling ${#inputs[@]} kernels into $out/"
  printf '%s\n' "${inputs[@]}" | xargs -P "$jobs" -I{} sh -c '
    f={}; n=$(basename "$f" .mlir); extra=
    case "$n" in
      async_*_wrong) extra=--verify-async=false ;;
      *_transform)
        # A transform schedule converts its copies before the pipeline
        # (a build folder without tile-opt skips the kernel).
        [ -x "$2" ] || { echo "gpu-suite: no tile-opt: $n skipped"; exit 0; }
        "$2" --transform-preload-library=transform-library-paths=test/GPU/kernels/schedules/convert_upstream_copies.mlir \
          --transform-interpreter "$f" -o "$1/$n.in.mlir" 2> "$1/$n.log" ||
          { echo "gpu-suite: the schedule failed on $f:"; cat "$1/$n.log"; exit 1; }
        f="$1/$n.in.mlir" ;;
      upstream_*) extra=--convert-upstream-copies ;;
    esac
    "$0" "$f" -o "$1/$n.so" --runtime-dir "$1" $extra 2> "$1/$n.log" ||
      { echo "gpu-suite: tile-compile failed on $f:"; cat "$1/$n.log"; exit 1; }
  ' "$tc" "$out" "$build/bin/tile-opt"
  "$cxx" -std=c++17 -O2 -Wall -Iinclude -Itest/GPU test/GPU/runner.cpp \
    -o "$out/runner" -L"$out" -ltile_runtime -ldl -Wl,-rpath,'$ORIGIN'
  "$cxx" -std=c++17 -O2 -Wall -Iinclude examples/tile_compile_example.cpp \
    "$out/demo.so" -o "$out/tile_compile_example" -L"$out" -ltile_runtime \
    -Wl,-rpath,'$ORIGIN'
  # The runtime's im2col validation against the driver's encoder.
  "$cxx" -std=c++17 -O2 -Wall -Iinclude test/GPU/im2col_encode_check.cpp \
    -o "$out/im2col_encode_check" -L"$out" -ltile_runtime -ldl \
    -Wl,-rpath,'$ORIGIN'
  # Device-side tensor maps, checked bit for bit.
  "$cxx" -std=c++17 -O2 -Wall -Iinclude test/GPU/device_map_check.cpp \
    -o "$out/device_map_check" -L"$out" -ltile_runtime -ldl \
    -Wl,-rpath,'$ORIGIN'
  # The sm_100a forms: PTX only (assembled by the run step). A build folder
  # without tile-opt (scripts/gpu-mutants.py's) skips them.
  mkdir -p "$out/sm100"
  rm -f "$out"/sm100/*
  [ -x "$build/bin/tile-opt" ] ||
    echo "gpu-suite: no $build/bin/tile-opt: no sm_100a PTX"
  for f in test/Pipeline/Inputs/sm100-*.mlir; do
    [ -x "$build/bin/tile-opt" ] || break
    local n
    n=$(basename "$f" .mlir)
    "$build/bin/tile-opt" "$f" --tile-gpu-pipeline="chip=sm_100a format=isa" \
        -o "$out/sm100/$n.mlir" 2> "$out/sm100/$n.log" &&
      python3 scripts/extract-ptx.py "$out/sm100/$n.mlir" -o "$out/sm100/$n.ptx" ||
      { echo "gpu-suite: no sm_100a PTX for $f:"; cat "$out/sm100/$n.log"; exit 1; }
    rm -f "$out/sm100/$n.mlir" "$out/sm100/$n.log"
  done
  # The pipelined copies (test/GPU/pipeline): one module, its PTX for ptxas.
  mkdir -p "$out/pipeline"
  cp -f "$rt" "$out/pipeline/"
  python3 test/GPU/pipeline/gen_pipeline.py > "$out/pipeline/pipeline.mlir"
  "$tc" "$out/pipeline/pipeline.mlir" -o "$out/pipeline/pipeline.so" \
    --runtime-dir "$out/pipeline"
  if [ -x "$build/bin/tile-opt" ]; then
    "$build/bin/tile-opt" "$out/pipeline/pipeline.mlir" \
      --tile-gpu-pipeline=format=isa -o "$out/pipeline/pipeline.isa.mlir"
    python3 scripts/extract-ptx.py "$out/pipeline/pipeline.isa.mlir" \
      -o "$out/pipeline/pipeline.ptx"
    rm -f "$out/pipeline/pipeline.isa.mlir"
  fi
  # Plan reports, for the record (which variant took each copy).
  for f in "${inputs[@]}"; do
    "$build/bin/tile-opt" "$f" --tile-report-copy-plans -o /dev/null
  done > "$out/plans.jsonl" 2>/dev/null || true
  echo "gpu-suite: built $out/runner and $(ls "$out"/*.so | wc -l) libraries"
}

# Assembles the sm_100a PTX of the build step; 1 when one does not assemble.
do_ptxas_sm100() {
  local ptxas=${PTXAS:-} failed=0 p n
  [ -n "$ptxas" ] || ptxas=$(command -v ptxas || true)
  [ -n "$ptxas" ] || [ ! -x /usr/local/cuda/bin/ptxas ] ||
    ptxas=/usr/local/cuda/bin/ptxas
  if [ -z "$ptxas" ]; then
    echo "SKIP ptxas sm_100a: no ptxas (set PTXAS)"
    return 0
  fi
  for p in "$out"/sm100/*.ptx; do
    [ -e "$p" ] || { echo "FAIL ptxas sm_100a: no PTX in $out/sm100"; return 1; }
    n=$(basename "$p" .ptx)
    if "$ptxas" -arch=sm_100a "$p" -o "$out/sm100/$n.cubin" \
        2> "$out/sm100/$n.ptxas.log"; then
      echo "PASS ptxas sm_100a $n (assembled only: no sm_100a GPU)"
    else
      echo "FAIL ptxas sm_100a $n:"
      cat "$out/sm100/$n.ptxas.log"
      failed=1
    fi
  done
  return $failed
}

do_run() {
  local ptxas_status=0
  do_ptxas_sm100 || ptxas_status=1
  "$out/tile_compile_example"
  local status=0
  "$out/runner" --dir "$out" "$@" || status=1
  "$out/im2col_encode_check" || status=1
  "$out/device_map_check" "$out" || status=1
  python3 test/GPU/pipeline/check_pipeline.py --dir "$out/pipeline" || status=1
  [ $ptxas_status -eq 0 ] || status=1
  return $status
}

case "$mode" in
  build) do_build ;;
  run) do_run "$@" ;;
  all) do_build; do_run "$@" ;;
  *) echo "usage: $0 [build|run|all] [runner args...]" >&2; exit 2 ;;
esac
