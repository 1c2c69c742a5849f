#!/usr/bin/env bash
# The GPU suite: builds every kernel under test/GPU/kernels (plus the
# reference demo and examples/dynamic_tiled_copy.mlir, as demo.so and
# dyn_tiled.so) with tile-compile into .gpu/<name>.so, the runtime, the
# host runner and the im2col encode check (test/GPU/im2col_encode_check.cpp)
# next to them, then runs them where a CUDA driver is present (each prints a
# SKIP line and exits 0 where none is).
#
#   scripts/gpu-suite.sh [build|run|all] [runner args...]
#
#   build  needs the MLIR build (TILE_BUILD, default build/) on this machine
#   run    needs only .gpu/ (what a GPU machine without MLIR gets)
#   all    (default) build, then run
#
# Environment: GPU_OUT (output folder, default .gpu), TILE_BUILD (build
# folder with bin/tile-compile and
# lib/Runtime/libtile_runtime.so), JOBS (parallel compiles, default 2), CXX.
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
    case "$n" in async_*_wrong) extra=--verify-async=false ;; esac
    "$0" "$f" -o "$1/$n.so" --runtime-dir "$1" $extra 2> "$1/$n.log" ||
      { echo "gpu-suite: tile-compile failed on $f:"; cat "$1/$n.log"; exit 1; }
  ' "$tc" "$out"
  "$cxx" -std=c++17 -O2 -Wall -Iinclude -Itest/GPU test/GPU/runner.cpp \
    -o "$out/runner" -L"$out" -ltile_runtime -ldl -Wl,-rpath,'$ORIGIN'
  "$cxx" -std=c++17 -O2 -Wall -Iinclude examples/tile_compile_example.cpp \
    "$out/demo.so" -o "$out/tile_compile_example" -L"$out" -ltile_runtime \
    -Wl,-rpath,'$ORIGIN'
  # The runtime's im2col validation against the driver's encoder.
  "$cxx" -std=c++17 -O2 -Wall -Iinclude test/GPU/im2col_encode_check.cpp \
    -o "$out/im2col_encode_check" -L"$out" -ltile_runtime -ldl \
    -Wl,-rpath,'$ORIGIN'
  # Plan reports, for the record (which variant took each copy).
  for f in "${inputs[@]}"; do
    "$build/bin/tile-opt" "$f" --tile-report-copy-plans -o /dev/null
  done > "$out/plans.jsonl" 2>/dev/null || true
  echo "gpu-suite: built $out/runner and $(ls "$out"/*.so | wc -l) libraries"
}

do_run() {
  "$out/tile_compile_example"
  "$out/runner" --dir "$out" "$@"
  "$out/im2col_encode_check"
}

case "$mode" in
  build) do_build ;;
  run) do_run "$@" ;;
  all) do_build; do_run "$@" ;;
  *) echo "usage: $0 [build|run|all] [runner args...]" >&2; exit 2 ;;
esac
