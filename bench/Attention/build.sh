#!/usr/bin/env bash
# Builds the attention benchmark's artifacts into .gpu/attention/ on a CPU
# machine with the MLIR build (TILE_BUILD, default build/): each variant of
# examples/attention/gen_attention.py (head_dim 64 and 128, causal and not,
# persistent (the default) and one-tile, bf16, and an f16 one) as
# attention_<variant>.so (host code + embedded cubin + _mlir_ciface_
# entries), the runtime, the PTX and ptxas's resource report
# where ptxas is installed. The default variant must equal the checked-in
# examples/attention/attention.mlir. bench.py runs on the GPU machine from
# these alone.
#
#   bench/Attention/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build}
out=.gpu/attention
gen=examples/attention/gen_attention.py
mkdir -p "$out"
rm -f "$out"/attention_*.so
rt="$build/lib/libtile_runtime.so"
[ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
cp -f "$rt" "$out/"
python3 "$gen" > "$out/attention.mlir"
cmp -s "$out/attention.mlir" examples/attention/attention.mlir ||
  { echo "build.sh: examples/attention/attention.mlir is stale (re-run $gen)"; exit 1; }
IFS=";" read -ra variants <<< "${VARIANTS:---head-dim 128;--head-dim 128 --one-tile;--head-dim 128 --causal;--head-dim 128 --causal --one-tile;--head-dim 64;--head-dim 64 --one-tile;--head-dim 64 --causal;--head-dim 64 --causal --one-tile;--head-dim 128 --dtype f16;--head-dim 128 --no-pingpong;--head-dim 128 --no-overlap;--head-dim 128 --no-pingpong --no-overlap;--head-dim 128 --causal --one-tile --overlap on --pingpong on;--head-dim 64 --causal --overlap off --pingpong off;--head-dim 128 --block-n 176}"
toolkit=${CUDA_HOME:-/usr/local/cuda}
: > "$out/ptxas.txt"
for flags in "${variants[@]}"; do
  # shellcheck disable=SC2086
  python3 "$gen" $flags > "$out/tmp.mlir"
  name=$(sed -n 's/^    gpu.func @\([a-z0-9_]*\)(.*/\1/p' "$out/tmp.mlir" | head -1)
  mv "$out/tmp.mlir" "$out/$name.mlir"
  "$build/bin/tile-opt" "$out/$name.mlir" --tile-gpu-pipeline=format=isa \
    -o "$out/$name.isa.mlir"
  python3 scripts/extract-ptx.py "$out/$name.isa.mlir" -o "$out/$name.ptx"
  if [ -x "$toolkit/bin/ptxas" ]; then
    { echo "== $name"; "$toolkit/bin/ptxas" -arch=sm_90a -v "$out/$name.ptx" \
        -o /dev/null 2>&1 | grep -v "Compile time" || true; } >> "$out/ptxas.txt"
  fi
  "$build/bin/tile-compile" "$out/$name.mlir" -o "$out/$name.so" --runtime-dir "$out"
done
# Spills in the kernels (a fallback version, which runs only where a tensor
# map's guard fails, is not held to this).
spills=$(awk '/Function properties for/ { fn = $NF }
  /spill stores/ && fn !~ /_fallback$/ && !/ 0 bytes spill stores, 0 bytes spill loads/ { print fn ": " $0 }' \
  "$out/ptxas.txt")
if [ -n "$spills" ]; then
  echo "build.sh: ptxas reports spills:"; echo "$spills"; exit 1
fi
echo "build.sh: built $(ls "$out"/attention_*.so | tr '\n' ' ')"
