#!/usr/bin/env bash
# Builds the bandwidth benchmark's artifacts into .gpu/bench/ on a CPU machine
# with the MLIR build (TILE_BUILD, default build-bench/): the generated module,
# copy.so (host code + embedded cubin + _mlir_ciface_ entries), the runtime,
# the host-loop helper, and the PTX for inspection. bench.py runs on the GPU
# machine from these alone (no MLIR there).
#
# DYNAMIC names the variants that get a dynamic twin over memref<?x?xf16>
# (gen_copy.py --dynamic; default the hand-tuned t256x32n2s3, empty for none).
# DYN_LAUNCH is how the twins launch: async (on the entry's stream, as the
# static entries), sync (a plain launch), or auto (default): async, and sync
# when the compiler declines an asynchronous launch of a kernel with a fallback
# version. copy.mlir's first line records the choice for bench.py.
#
#   bench/Bandwidth/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${TILE_BUILD:-build-bench}
out=.gpu/bench
llvm=/usr/lib/llvm-22/bin
M=16384
N=32768
# name:BM:BN:TILES:STAGES: the hand-tuned design (256x32, 2 tiles, 3 stages)
# first, then the shape sweep of bench/README.md
VARIANTS=${VARIANTS:-"t256x32n2s3:256:32:2:3 t256x32n2s2:256:32:2:2 t128x64n2s3:128:64:2:3 t128x64n2s2:128:64:2:2 t64x128n2s2:64:128:2:2 t64x128n2s3:64:128:2:3 t128x128n2s2:128:128:2:2 t128x64n1s1:128:64:1:1 t64x128n1s1:64:128:1:1 t256x64n1s1:256:64:1:1 t64x128n4s2:64:128:4:2"}

DYNAMIC=${DYNAMIC-t256x32n2s3}
DYN_LAUNCH=${DYN_LAUNCH:-auto}

mkdir -p "$out"
rt="$build/lib/libtile_runtime.so"
[ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
cp -f "$rt" "$out/"
gen() {  # gen <async|sync>: writes $out/copy.mlir
  if [ -n "$DYNAMIC" ]; then
    python3 bench/Bandwidth/gen_copy.py $M $N $VARIANTS --dynamic "$DYNAMIC" \
      --dynamic-launch "$1" > "$out/copy.mlir"
  else
    python3 bench/Bandwidth/gen_copy.py $M $N $VARIANTS > "$out/copy.mlir"
  fi
}
isa() {
  "$build/bin/tile-opt" "$out/copy.mlir" --tile-gpu-pipeline=format=isa \
    -o "$out/copy.isa.mlir"
}
case "$DYN_LAUNCH" in
  async|sync) gen "$DYN_LAUNCH"; isa ;;
  auto)
    gen async
    if ! isa 2> "$out/pipeline.err"; then
      if grep -q "an async launch cannot choose" "$out/pipeline.err"; then
        echo "build.sh: the compiler declines an asynchronous launch of a kernel with a" \
             "fallback version; the dynamic twins launch synchronously (DYN_LAUNCH=sync)" >&2
        gen sync
        isa
      else
        cat "$out/pipeline.err" >&2
        exit 1
      fi
    fi
    rm -f "$out/pipeline.err" ;;
  *) echo "build.sh: DYN_LAUNCH must be auto, async or sync" >&2; exit 1 ;;
esac
[ -z "$DYNAMIC" ] || head -1 "$out/copy.mlir"
# The twins' copies (in the kernels named *_dyn) must plan as TMA with
# run-time guards; plans.jsonl keeps the report (one JSON line per copy).
if [ -n "$DYNAMIC" ]; then
  "$build/bin/tile-opt" "$out/copy.mlir" --tile-report-copy-plans -o /dev/null \
    > "$out/plans.jsonl"
  python3 - "$out/copy.mlir" "$out/plans.jsonl" <<'PY'
import json, re, sys
src = open(sys.argv[1]).read().splitlines()
kernel_of, cur = {}, None
for i, line in enumerate(src, 1):
    m = re.match(r"\s*gpu\.func @(\w+)\(", line)
    if m:
        cur = m.group(1)
    kernel_of[i] = cur
plans = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
twin = [(kernel_of[int(p["loc"].split(":")[-2])], p) for p in plans]
twin = [(k, p) for k, p in twin if k and k.endswith("_dyn")]
bad = [(k, p) for k, p in twin if p["selected"] != "tma" or not p.get("guards")]
kernels = sorted({k for k, _ in twin})
print(f"plans: {len(plans)} copies; the twins' ({', '.join(kernels)}): {len(twin)}, "
      f"{len(twin) - len(bad)} tma with guards")
for k, p in bad:
    print(f"  {k}: not tma with guards: {json.dumps(p)}", file=sys.stderr)
sys.exit(1 if bad or not twin else 0)
PY
fi
python3 - "$out/copy.isa.mlir" "$out/copy.ptx" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', s)
ptx = re.sub(r'\\([0-9A-Fa-f]{2})', lambda g: chr(int(g.group(1), 16)), m.group(1))
open(sys.argv[2], "w").write(ptx.replace('\\"', '"'))
PY
# Each twin's kernel should be its static kernel's PTX up to symbol names (the
# run-time sizes and strides live in the tensor maps, which the host encodes).
for n in ${DYNAMIC//,/ }; do
  python3 - "$out/copy.ptx" "$n" <<'PY'
import re, sys
ptx, n = open(sys.argv[1]).read(), sys.argv[2]
def body(k):
    m = re.search(r"\.entry " + k + r"\(.*?\n\}", ptx, re.S)
    if not m:
        return None
    b = re.sub(r"\$L__BB\d+_", "$L__BB_", m.group(0).replace(k, "K"))
    names = {}
    return re.sub(r"__mbarrier\w*", lambda g: names.setdefault(g.group(0), f"__mb{len(names)}"), b)
same = body(n) is not None and body(n) == body(n + "_dyn")
print(f"ptx: {n}_dyn is {n}'s kernel up to symbol names: {'yes' if same else 'NO'}")
PY
done
if [ -x "$build/bin/tile-compile" ]; then
  "$build/bin/tile-compile" "$out/copy.mlir" -o "$out/copy.so" --runtime-dir "$out"
else
  # The manual path (tile-compile's steps).
  "$build/bin/tile-opt" "$out/copy.mlir" --tile-gpu-pipeline=format=bin \
    -o "$out/copy.ll.mlir"
  "$llvm/mlir-translate" --mlir-to-llvmir "$out/copy.ll.mlir" -o "$out/copy.ll"
  "$llvm/llc" -O2 -relocation-model=pic -filetype=obj "$out/copy.ll" -o "$out/copy.o"
  "$llvm/clang" -shared -fuse-ld=lld "$out/copy.o" -L"$out" -ltile_runtime \
    -Wl,-rpath,'$ORIGIN' -o "$out/copy.so"
fi
"$llvm/clang" -O2 -shared -fPIC bench/Bandwidth/hostloop.c -o "$out/hostloop.so"
# Resource usage of the kernels (registers, shared memory), for the record.
/usr/local/cuda/bin/ptxas -arch=sm_90a -v "$out/copy.ptx" -o /dev/null \
  > "$out/ptxas.txt" 2>&1 || true
ls -la "$out"
du -sh "$out"
