#!/usr/bin/env bash
# Builds the GEMM benchmark's artifacts into .gpu/gemm/ on a CPU machine with
# the MLIR build (TILE_BUILD, default build/): the generated module
# (examples/gemm/gemm.mlir, checked against its generator), gemm.so (host code
# + embedded cubin + _mlir_ciface_ entries), the runtime, the PTX and ptxas's
# resource report. bench.py runs on the GPU machine from these alone.
#
#   bench/Gemm/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build}
out=.gpu/gemm
mkdir -p "$out"
rt="$build/lib/libtile_runtime.so"
[ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
cp -f "$rt" "$out/"
python3 examples/gemm/gen_gemm.py > "$out/gemm.mlir"
cmp -s "$out/gemm.mlir" examples/gemm/gemm.mlir ||
  { echo "build.sh: examples/gemm/gemm.mlir is stale (re-run gen_gemm.py)"; exit 1; }
"$build/bin/tile-opt" examples/gemm/gemm.mlir --tile-report-copy-plans -o /dev/null \
  > "$out/plans.jsonl"
"$build/bin/tile-opt" examples/gemm/gemm.mlir --tile-gpu-pipeline=format=isa \
  -o "$out/gemm.isa.mlir"
python3 scripts/extract-ptx.py "$out/gemm.isa.mlir" -o "$out/gemm.ptx"
toolkit=${CUDA_HOME:-/usr/local/cuda}
if [ -x "$toolkit/bin/ptxas" ]; then
  "$toolkit/bin/ptxas" -arch=sm_90a -v "$out/gemm.ptx" -o /dev/null \
    > "$out/ptxas.txt" 2>&1 || true
fi
"$build/bin/tile-compile" examples/gemm/gemm.mlir -o "$out/gemm.so" \
  --runtime-dir "$out"
# Variants of the generator measured next to the example (name:flags).
# The fp8 variants (gemm_fp8*.so) are bench_fp8.py's.
IFS=";" read -ra variants <<< "${VARIANTS:-n128s4:--bn 128 --stages 4;handwritten:--protocol handwritten;regs:--registers 40,232;cluster2:--cluster 2;splitk2:--split-k 2;splitk4:--split-k 4;bf16out:--bf16-out;choose:--choose;fp8:--fp8;fp8s4:--fp8 --stages 4;fp8c2:--fp8 --cluster 2;bf16out_swz:--bf16-out --swizzle-c;bf16out_persistent_swz:--persistent --bf16-out --swizzle-c;bf16out_choose_swz:--choose --bf16-out --swizzle-c;bf16out_choose_persistent_swz:--choose --bf16-out --persistent --swizzle-c;fp8_persistent_swz:--fp8 --persistent --swizzle-c;fp8_choose_persistent_swz:--choose --fp8 --persistent --swizzle-c;bf16out_swz_splitk2:--bf16-out --swizzle-c --split-k 2;bf16out_choose_persistent_swz_splitk:--choose --bf16-out --persistent --swizzle-c --split-k 4;fp8_swz_splitk2:--fp8 --swizzle-c --split-k 2;fp8_choose_persistent_swz_splitk:--choose --fp8 --persistent --swizzle-c --split-k 4;bf16out_persistent_swz_streamk:--persistent --bf16-out --swizzle-c --stream-k;fp8_persistent_swz_streamk:--fp8 --persistent --swizzle-c --stream-k;bf16out_choose_persistent_swz_streamk:--choose --bf16-out --persistent --swizzle-c --stream-k;fp8_choose_persistent_swz_streamk:--choose --fp8 --persistent --swizzle-c --stream-k;bf16out_persistent_swz_streamk_regs:--persistent --bf16-out --swizzle-c --stream-k --registers 40,232;bf16out_persistent_swz_pingpong:--persistent --bf16-out --swizzle-c --pingpong;fp8_persistent_swz_pingpong:--fp8 --persistent --swizzle-c --pingpong;bf16out_persistent_swz_n192:--persistent --bf16-out --swizzle-c --bn 192 --stages 4;fp8_persistent_swz_n192:--fp8 --persistent --swizzle-c --bn 192 --stages 4;bf16out_choose_persistent_swz_waves:--choose --bf16-out --persistent --swizzle-c --by-waves;fp8_choose_persistent_swz_waves:--choose --fp8 --persistent --swizzle-c --by-waves;bf16out_persistent_swz_c2:--persistent --bf16-out --swizzle-c --cluster 2;fp8_persistent_swz_c2:--fp8 --persistent --swizzle-c --cluster 2;bf16out_choose_persistent_swz_waves_c2:--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2}"
for v in "${variants[@]}"; do
  name=${v%%:*}
  flags=${v#*:}
  # shellcheck disable=SC2086
  python3 examples/gemm/gen_gemm.py $flags > "$out/gemm_$name.mlir"
  "$build/bin/tile-compile" "$out/gemm_$name.mlir" -o "$out/gemm_$name.so" \
    --runtime-dir "$out"
done
echo "build.sh: built $(ls "$out"/gemm*.so | tr '\n' ' ')"
