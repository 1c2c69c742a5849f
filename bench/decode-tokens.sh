#!/usr/bin/env bash
# The decode rows with the tokens as wgmma's N (gen_gemm.py --tokens-n; the
# choosers' --decode-tokens-n, docs/gemm.md, "Decode rows: the tokens as
# wgmma's N") and the split's combine with several shares' loads in flight,
# each against the target choosers of BEFORE_REV (default bcd2570: the
# 64 x 64 kernel whose A box loads 32 rows, one share's partial read at a
# time): every check shape exact first (M = 1 to 33, odd N and K), then
# bench.py (cuBLAS / cuBLASLt alternating) and each call's device time and
# CUDA-graph replay (call_costs.py) on decode problems, then
# compute-sanitizer memcheck over small decode problems.
#
#   bench/decode-tokens.sh build     # CPU machine with the MLIR build: .gpu/decode-tokens/
#   bench/decode-tokens.sh gemm OUT  # GPU machine, from .gpu/decode-tokens/
#   bench/decode-tokens.sh quick OUT # the same in less device time
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/round-lib.sh
source bench/round-lib.sh
out_dir=.gpu/decode-tokens
before=${BEFORE_REV:-bcd2570}
BF16="$TARGET_BF16_CHOOSER --decode-split 8"
FP8="--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster-off32 2"
SHAPES="8x2048x8192,16x1024x4096,8x4096x4096,1x4096x4096,8x8192x8192"
SHAPES+=",8x4096x14336,32x4096x14336,16x14336x4096,24x8192x8192"
BF16_CHECKS="1x200x1000,7x520x2000,8x1024x4096,9x1000x1000,16x1024x4096"
BF16_CHECKS+=",17x136x72,30x520x2000,32x2048x8192,33x200x1000,1x64x64"
FP8_CHECKS="1x208x1024,7x528x2048,8x1024x4096,9x1008x1024,16x1024x4096"
FP8_CHECKS+=",17x144x128,30x528x2048,32x2048x8192,33x208x1024"

# gen_gemm.py FLAGS with its module constants set as SETTINGS says
# ("NAME=VALUE ..."), into DIR/gemm_NAME.so.
gen_with() {
  local dir=$1 name=$2 settings=$3
  shift 3
  python3 - "$settings" "$@" > "$dir/gemm_$name.mlir" <<'PY'
import sys
sys.path.insert(0, "examples/gemm")
import gen_gemm
for setting in sys.argv[1].split():
    key, value = setting.split("=")
    assert hasattr(gen_gemm, key), key
    setattr(gen_gemm, key, int(value))
sys.argv = ["gen_gemm.py"] + sys.argv[2:]
gen_gemm.main()
PY
  round_compile "$dir" "gemm_$name"
}

build() {
  # shellcheck disable=SC2086
  round_build "$out_dir" "" \
    "bf16out_b_combine:$BF16;bf16out_c_tokens:$BF16 --decode-tokens-n;fp8_c_tokens:$FP8 --decode-tokens-n;fp8_d_tokens_split:$FP8 --decode-tokens-n --decode-split 8"
  # shellcheck disable=SC2086
  gen_with "$out_dir/gemm" bf16out_d_tokens_12stages TOKENS_N_STAGES=12 $BF16 --decode-tokens-n
  # Two shares of 32 k-steps left whole (8 x 4096 x 4096: 64 tiles), as
  # before round 138.
  # shellcheck disable=SC2086
  gen_with "$out_dir/gemm" bf16out_e_tokens_share64 TOKENS_SHARE_KSTEPS=64 $BF16 --decode-tokens-n
  round_build_at "$before" "$out_dir" "" "" "bf16out_a_before:$BF16;fp8_a_before:$FP8"
  # The tokens chooser alone, for memcheck.
  mkdir -p "$out_dir/memcheck"
  cp "$out_dir"/gemm/{gemm_bf16out_c_tokens.so,libtile_runtime.so} "$out_dir/memcheck/"
  echo "built $(find "$out_dir" -name 'gemm_*.so' | wc -l) choosers in $out_dir"
}

run_gemm() {
  local out=${1:?output folder} lib
  mkdir -p "$out"
  for lib in "$out_dir"/gemm/gemm_*.so; do
    lib=$(basename "$lib")
    step "call costs $lib" timeout 120 python3 bench/Gemm/call_costs.py \
      --dir "$out_dir/gemm" --lib "$lib" --shapes "$SHAPES" \
      > "$out/call-costs-${lib%.so}.log" 2>&1
  done
  round_choosers_run "$out" "$out_dir" "$SHAPES" "$SHAPES" "$BF16_CHECKS" "$FP8_CHECKS"
}

# The same in less device time: the bf16 calls' costs of the choosers before,
# with the tokens kernels, and with their split at shares of 64 k-steps, the
# checks of every chooser, FP8 timed by bench_fp8.py, memcheck over the bf16
# checks of the tokens chooser.
run_quick() {
  local out=${1:?output folder} lib
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  for lib in a_before c_tokens e_tokens_share64; do
    step "call costs $lib" timeout 45 python3 bench/Gemm/call_costs.py --dir "$out_dir/gemm" \
      --lib "gemm_bf16out_$lib.so" --shapes "$SHAPES" --rounds 2 > "$out/call-costs-$lib.log" 2>&1
  done
  step "bf16 checks" timeout 60 python3 bench/Gemm/bench.py --dir "$out_dir/gemm" \
    --check-only --check-shapes "$BF16_CHECKS" > "$out/bf16-checks.log" 2>&1
  step fp8 timeout 60 python3 bench/Gemm/bench_fp8.py --dir "$out_dir/fp8" \
    --check-shapes "$FP8_CHECKS" --shapes "$SHAPES" > "$out/fp8.log" 2>&1
  step "bf16 memcheck" timeout 60 compute-sanitizer --tool memcheck python3 bench/Gemm/bench.py \
    --dir "$out_dir/memcheck" --check-only --check-shapes "$BF16_CHECKS" \
    > "$out/bf16-memcheck.log" 2>&1
  grep -h "ERROR SUMMARY\|FAIL\|SUMMARY" "$out"/*.log | head -20 || true
}

case "${1:-}" in
  build) build ;;
  gemm) run_gemm "${2:?output folder}" ;;
  quick) run_quick "${2:?output folder}" ;;
  *) echo "usage: $0 build | gemm OUT | quick OUT" >&2; exit 2 ;;
esac
