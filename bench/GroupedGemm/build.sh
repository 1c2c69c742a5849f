#!/usr/bin/env bash
# Builds the grouped GEMM benchmark's artifacts into .gpu/grouped_gemm/ on a
# CPU machine with the MLIR build (TILE_BUILD, default build/): the generated
# module (examples/grouped_gemm/grouped_gemm.mlir, checked against its
# generator), grouped_gemm.so (host code + embedded cubin + _mlir_ciface_
# entries), a 128 x 128 variant, the runtime, the PTX and ptxas's resource
# report where ptxas is installed. bench.py runs on the GPU machine from
# these alone.
#
#   bench/GroupedGemm/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build}
out=.gpu/grouped_gemm
gen=examples/grouped_gemm/gen_grouped_gemm.py
mkdir -p "$out"
rt="$build/lib/libtile_runtime.so"
[ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
cp -f "$rt" "$out/"
python3 "$gen" > "$out/grouped_gemm.mlir"
cmp -s "$out/grouped_gemm.mlir" examples/grouped_gemm/grouped_gemm.mlir ||
  { echo "build.sh: examples/grouped_gemm/grouped_gemm.mlir is stale (re-run $gen)"; exit 1; }
# Variants of the generator measured next to the example (name:flags).
IFS=";" read -ra variants <<< "${VARIANTS:-n128s6:--bn 128 --stages 6;persistent:--persistent --registers 40,232}"
toolkit=${CUDA_HOME:-/usr/local/cuda}
: > "$out/ptxas.txt"
for v in "main:" "${variants[@]}"; do
  name=${v%%:*}
  flags=${v#*:}
  lib=grouped_gemm
  [ "$name" = main ] || lib=grouped_gemm_$name
  # shellcheck disable=SC2086
  python3 "$gen" $flags > "$out/$lib.mlir"
  "$build/bin/tile-opt" "$out/$lib.mlir" --tile-report-copy-plans -o /dev/null \
    > "$out/$lib.plans.jsonl"
  "$build/bin/tile-opt" "$out/$lib.mlir" --tile-gpu-pipeline=format=isa \
    -o "$out/$lib.isa.mlir"
  python3 scripts/extract-ptx.py "$out/$lib.isa.mlir" -o "$out/$lib.ptx"
  if [ -x "$toolkit/bin/ptxas" ]; then
    { echo "== $lib"; "$toolkit/bin/ptxas" -arch=sm_90a -v "$out/$lib.ptx" \
        -o /dev/null 2>&1 | grep -v "Compile time" || true; } >> "$out/ptxas.txt"
  fi
  "$build/bin/tile-compile" "$out/$lib.mlir" -o "$out/$lib.so" --runtime-dir "$out"
done
# The TMA versions must assemble without spills; a fallback version's
# spills (it runs only where a TMA guard fails) are reported.
spills=$(awk '/^== / {lib = $2} /Compiling entry function/ {f = lib " " $7} /spill stores/ && !/ 0 bytes spill stores, 0 bytes spill loads/ {print f ": " $0}' "$out/ptxas.txt")
if [ -n "$spills" ]; then
  echo "build.sh: ptxas reports spills:"; echo "$spills"
  echo "$spills" | grep -vq "_fallback'" && exit 1
fi
echo "build.sh: built $(ls "$out"/grouped_gemm*.so | tr '\n' ' ')"
