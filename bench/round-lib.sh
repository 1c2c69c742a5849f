# Shared by the GPU round scripts (bench/carried-ring.sh, bench/defaults.sh):
# building their kernels on the CPU machine and running their steps on the
# GPU machine. Sourced, not run.
#
#   round_build OUT_DIR "ATTENTION FLAGS;..." "NAME:GEMM FLAGS;..."
#   round_build_at REV OUT_DIR SUFFIX "ATTENTION FLAGS;..." "NAME:GEMM FLAGS;..."
#   round_compile DIR NAME
#   round_main "$@"   (after the script set out_dir, ATTENTION, GEMM and
#                      defined run_attention and run_gemm)
#   step NAME COMMAND...

# The shapes of the epilogue rounds (bench/store-chunks.sh, bench/c-ring.sh):
# the multi-wave suite shapes, and FP8's.
EPILOGUE_SHAPES=3000x5000x2000,4000x4000x4000,5000x5000x5000,2048x2048x2048,4096x4096x4096
EPILOGUE_SHAPES+=,8192x8192x8192,4096x14336x4096,16384x1024x4096,8192x4096x14336
EPILOGUE_FP8_SHAPES=4096x4096x4096,8192x8192x8192,4096x14336x4096,3000x5000x2000

# The kernels the issues' targets are measured on (bench/acceptance.sh):
# the head_dim 128 attention defaults, causal and not, the clustered bf16
# GEMM chooser and the FP8 chooser, its C written by stmatrix (rounds
# 89-91: 1.003-1.018 of cuBLASLt against 0.992-1.006 without) and its wide
# kernels clustered for rows off 32 bytes (round 119: 1.17-1.34x on such
# rows, the same kernels on aligned ones). The bf16 chooser splits decode
# rows' K where that pays (--decode-split 8, round 131: at or above the
# chooser without on every decode row measured; the suite's rows have
# M >= 64 and do not change) and runs them with the tokens as wgmma's N
# (--decode-tokens-n, round 137: at or below the chooser without on every
# decode problem timed, 0.70 and 0.63 of it at 8 x 2048 x 8192 and 16 x
# 1024 x 4096).
TARGET_ATTENTION="--head-dim 128;--head-dim 128 --causal"
# The bf16 chooser's flags without the decode split (bench/call-costs.sh
# times both forms).
TARGET_BF16_CHOOSER="--choose --bf16-out --persistent --swizzle-c --by-waves --cluster 2"
TARGET_GEMM="bf16out_choose_persistent_c2:$TARGET_BF16_CHOOSER --decode-split 8 --decode-tokens-n"
TARGET_GEMM+=";fp8_choose_persistent_sm_off32:--choose --fp8 --persistent --swizzle-c --by-waves --stmatrix --cluster-off32 2 --decode-split 8 --decode-tokens-n"

# The targets' measurements of the kernels of DIR into OUT: the GEMMs over
# bench.py's and bench_fp8.py's own suites (cuBLAS and cuBLASLt
# alternating), the attention kernels side by side with cuDNN.
round_targets() {
  local out=$1 dir=$2
  round_gemm "$out" "$dir" "" ""
  round_attention "$out" "$dir/attention" 300 --side-by-side
  grep -h "FAIL\|SUMMARY\|d=128" "$out"/attention.log | head -30 || true
}

# Compiles DIR/NAME.mlir into DIR/NAME.so, with DIR's runtime beside it
# (and tile-compile's flags in TILE_COMPILE_FLAGS, if any).
round_compile() {
  local dir=$1 name=$2
  # shellcheck disable=SC2086
  "${TILE_BUILD:-build}/bin/tile-compile" ${TILE_COMPILE_FLAGS:-} "$dir/$name.mlir" \
    -o "$dir/$name.so" --runtime-dir "$dir"
}

# Builds each attention variant (gen_attention.py flags, ';'-separated) into
# OUT_DIR/attention/<kernel name>.so and each GEMM variant (name:flags;
# fp8_* names into OUT_DIR/fp8/) into OUT_DIR/{gemm,fp8}/gemm_<name>.so, each
# folder with the runtime beside it.
round_build() {
  local out_dir=$1 attention=$2 gemm=$3
  local build=${TILE_BUILD:-build}
  local rt="$build/lib/libtile_runtime.so"
  [ -f "$rt" ] || rt="$build/lib/Runtime/libtile_runtime.so"
  rm -rf "$out_dir"
  mkdir -p "$out_dir/attention" "$out_dir/gemm" "$out_dir/fp8"
  local d
  for d in attention gemm fp8; do cp -f "$rt" "$out_dir/$d/"; done
  round_build_variants "$out_dir" examples "" "$attention" "$gemm"
  echo "built $(find "$out_dir" -name '*.so' | wc -l) libraries in $out_dir"
}

# round_build's variants from the generators under GEN_ROOT (attention/ and
# gemm/), each name with SUFFIX appended (an attention kernel renamed with
# --name), into OUT_DIR as round_build made it.
round_build_variants() {
  local out_dir=$1 gen_root=$2 suffix=$3 attention=$4 gemm=$5
  local flags name v dir
  IFS=";" read -ra variants <<< "$attention"
  for flags in "${variants[@]}"; do
    # shellcheck disable=SC2086
    python3 "$gen_root/attention/gen_attention.py" $flags > "$out_dir/tmp.mlir"
    name=$(sed -n 's/^    gpu.func @\([a-z0-9_]*\)(.*/\1/p' "$out_dir/tmp.mlir" | head -1)
    if [ -n "$suffix" ]; then
      # shellcheck disable=SC2086
      python3 "$gen_root/attention/gen_attention.py" $flags --name "$name$suffix" \
        > "$out_dir/tmp.mlir"
    fi
    mv "$out_dir/tmp.mlir" "$out_dir/attention/$name$suffix.mlir"
    round_compile "$out_dir/attention" "$name$suffix"
  done
  IFS=";" read -ra variants <<< "$gemm"
  for v in "${variants[@]}"; do
    name=${v%%:*}$suffix
    flags=${v#*:}
    dir=gemm
    [[ $name == fp8_* ]] && dir=fp8
    # shellcheck disable=SC2086
    python3 "$gen_root/gemm/gen_gemm.py" $flags > "$out_dir/$dir/gemm_$name.mlir"
    round_compile "$out_dir/$dir" "gemm_$name"
  done
}

# round_build_variants with the generators of git revision REV (the kernels
# a change is timed against), names with SUFFIX appended.
round_build_at() {
  local rev=$1 out_dir=$2 suffix=$3 attention=$4 gemm=$5 old f
  old=$(mktemp -d)
  mkdir -p "$old/attention" "$old/gemm"
  for f in attention/gen_attention.py attention/tile_orders.py gemm/gen_gemm.py; do
    git show "$rev:examples/$f" > "$old/$f"
  done
  round_build_variants "$out_dir" "$old" "$suffix" "$attention" "$gemm"
  rm -rf "$old"
}

# A chooser change measured against the choosers of git revision REV
# (rounds 119, 122-123, 127): OUT_DIR's gemm/ and fp8/ folders get
# gemm_bf16out_a_before and gemm_fp8_a_before, built at REV with BF16 and
# FP8 (gen_gemm.py flags), and gemm_bf16out_b_after and gemm_fp8_b_after,
# built here with the same flags and AFTER_BF16 and AFTER_FP8 appended.
round_choosers_build() {
  local out_dir=$1 rev=$2 bf16=$3 fp8=$4 after_bf16=$5 after_fp8=$6
  round_build "$out_dir" "" \
    "bf16out_b_after:$bf16 $after_bf16;fp8_b_after:$fp8 $after_fp8"
  round_build_at "$rev" "$out_dir" "" "" \
    "bf16out_a_before:$bf16;fp8_a_before:$fp8"
  echo "built $(find "$out_dir" -name 'gemm_*.so' | wc -l) choosers in $out_dir"
}

# round_choosers_build's choosers on the GPU into OUT: the bf16 ones on
# BF16_SHAPES and the FP8 ones on FP8_SHAPES (round_gemm, cuBLAS and
# cuBLASLt alternating, the check shapes first), then compute-sanitizer
# memcheck over the checks of BF16_CHECKS and FP8_CHECKS.
round_choosers_run() {
  local out=$1 dir=$2 bf16_shapes=$3 fp8_shapes=$4 bf16_checks=$5 fp8_checks=$6
  round_gemm "$out" "$dir" "$bf16_shapes" "$fp8_shapes"
  step "bf16 memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench.py --dir "$dir/gemm" --check-only \
    --check-shapes "$bf16_checks" > "$out/bf16-memcheck.log" 2>&1
  step "fp8 memcheck" timeout 150 compute-sanitizer --tool memcheck \
    python3 bench/Gemm/bench_fp8.py --dir "$dir/fp8" --check-only \
    --check-shapes "$fp8_checks" > "$out/fp8-memcheck.log" 2>&1
  grep -h "ERROR SUMMARY" "$out"/*-memcheck.log || true
}

# One step under a time limit; its exit status is printed, and a failing step
# does not stop the ones after it.
step() {
  local name=$1 rc=0
  shift
  "$@" || rc=$?
  echo "$name rc $rc"
}

# The four alternating places of a side-by-side round, as ATTENTION list
# entries (';'-separated): gen_attention.py FORM as PREFIX_a_A and
# PREFIX_c_A, FORM plus B_FLAGS as PREFIX_b_B and PREFIX_d_B.
round_alternate() {
  local form=$1 prefix=$2 a=$3 b=$4 b_flags=$5
  printf '%s' "$form --name ${prefix}_a_$a;$form $b_flags --name ${prefix}_b_$b;"
  printf '%s' "$form --name ${prefix}_c_$a;$form $b_flags --name ${prefix}_d_$b"
}

# The ATTENTION list of a side-by-side round of B_FLAGS against the
# default, causal and not: at head_dim 128 in four places (round_alternate,
# attention_d128[_causal]_{a_A,b_B,c_A,d_B}) and at head_dim 64 once each
# (attention_d64[_causal]_{a_A,b_B}).
round_forms() {
  local a=$1 b=$2 b_flags=$3 form suffix list=""
  for form in "" "--causal"; do
    suffix=${form:+_causal}
    list+="${list:+;}$(round_alternate "$form" "attention_d128$suffix" "$a" "$b" "$b_flags")"
    list+=";--head-dim 64 $form --name attention_d64${suffix}_a_$a"
    list+=";--head-dim 64 $form $b_flags --name attention_d64${suffix}_b_$b"
  done
  printf '%s' "$list"
}

# A side-by-side round's GPU part for the kernels of OUT_DIR/attention:
# round_attention (480 s, --side-by-side) into OUT, its summary lines, then
# memcheck and synccheck over the kernels ONLY selects into
# OUT/PREFIX-*.log.
round_side_by_side() {
  local out=${1:?output folder} out_dir=$2 only=$3 prefix=$4
  round_attention "$out" "$out_dir/attention" 480 --side-by-side
  grep -h "FAIL\|SUMMARY\|full s=\|causal s=" "$out"/attention*.log | head -40 || true
  round_sanitize_sync "$out_dir/attention" "$only" "$out" "$prefix"
}

# The attention kernels of DIR on the GPU into OUT: the device, the check
# and the benchmark (cuDNN alternating; bench.py flags may follow the
# benchmark's time limit in seconds, such as --side-by-side), each under a
# time limit (a protocol bug hangs rather than fails).
round_attention() {
  local out=$1 dir=$2 bench_limit=$3
  shift 3
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,temperature.gpu \
    --format=csv > "$out/device.txt" 2>&1 || true
  step "attention check" timeout 120 python3 bench/Attention/bench.py \
    --dir "$dir" --check-only > "$out/attention-check.log" 2>&1
  step "attention bench" timeout "$bench_limit" python3 bench/Attention/bench.py \
    --dir "$dir" --no-triton --json "$out/attention.json" "$@" \
    > "$out/attention.log" 2>&1
}

# compute-sanitizer's TOOL over the check of the small shapes of the kernels
# of DIR that ONLY selects (bench.py --only), into LOG.
round_sanitize() {
  local tool=$1 dir=$2 only=$3 log=$4
  step "attention $tool" timeout 150 compute-sanitizer --tool "$tool" \
    python3 bench/Attention/bench.py --dir "$dir" --only "$only" \
    --check-only --small > "$log" 2>&1
}

# compute-sanitizer memcheck and synccheck over the small check shapes of
# the kernels of DIR that ONLY selects, into OUT/PREFIX-memcheck.log and
# OUT/PREFIX-synccheck.log; their summaries printed.
round_sanitize_sync() {
  local dir=$1 only=$2 out=$3 prefix=$4 tool
  for tool in memcheck synccheck; do
    round_sanitize "$tool" "$dir" "$only" "$out/$prefix-$tool.log"
  done
  grep -h "ERROR SUMMARY" "$out/$prefix"-*check.log || true
}

# The GEMM kernels of DIR/gemm (bf16 output, cuBLAS alternating) on SHAPES
# and of DIR/fp8 (cuBLASLt alternating) on FP8_SHAPES, into OUT.
round_gemm() {
  local out=$1 dir=$2 shapes=$3 fp8_shapes=$4
  round_gemm_bf16 "$out" "$dir" "$shapes"
  step fp8 timeout 200 python3 bench/Gemm/bench_fp8.py --dir "$dir/fp8" \
    --json "$out/fp8.json" --shapes "$fp8_shapes" > "$out/fp8.log" 2>&1
  grep -h "FAIL\|ERROR SUMMARY\|SUMMARY" "$out/fp8.log" | head -20 || true
}

# The bf16-output GEMM kernels of DIR/gemm alone (cuBLAS alternating) on
# SHAPES, into OUT (round_gemm's first step).
round_gemm_bf16() {
  local out=$1 dir=$2 shapes=$3
  mkdir -p "$out"
  export PYTHONUNBUFFERED=1
  step gemm timeout 330 python3 bench/Gemm/bench.py --dir "$dir/gemm" \
    --no-triton --json "$out/gemm.json" --shapes "$shapes" > "$out/gemm.log" 2>&1
  grep -h "FAIL\|SUMMARY" "$out/gemm.log" | head -20 || true
}

# A round script's commands: `build` (round_build of its out_dir, ATTENTION
# and GEMM), `attention OUT` and `gemm OUT` (its run_attention and run_gemm;
# a round without attention or GEMM kernels defines only the other).
round_main() {
  case "${1:-}" in
    build) round_build "$out_dir" "$ATTENTION" "$GEMM" ;;
    attention | gemm)
      if ! declare -F "run_$1" > /dev/null; then
        echo "$0: no $1 kernels in this round" >&2
        exit 2
      fi
      "run_$1" "${2:-}" ;;
    *) echo "usage: $0 build | attention OUT | gemm OUT" >&2; exit 2 ;;
  esac
}
