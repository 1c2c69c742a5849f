# tile-mlir: `make test` and `make demo` install what is missing, build, and
# run. Everything else is plain CMake (see README.md).

BUILD     ?= build
LLVM_DIR  ?= /usr/lib/llvm-22
JOBS      ?= $(shell nproc)
PYTHON    ?= /usr/bin/python3
COMMON_ARGS = -G Ninja -S . \
  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang \
  -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
  -DLLVM_USE_LINKER=lld \
  -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit \
  -DPython3_EXECUTABLE=$(PYTHON)
CMAKE_ARGS = $(COMMON_ARGS) -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

# The sanitizer build (ASan + UBSan + libFuzzer coverage, asserts on) and the
# libFuzzer harnesses; see docs/testing.md, "Sanitizers and fuzzing".
SAN_BUILD ?= build-asan
SAN_CMAKE_ARGS = $(COMMON_ARGS) -B $(SAN_BUILD) \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DTILE_SANITIZE=ON -DTILE_ENABLE_FUZZERS=ON -DTILE_ENABLE_BENCHMARKS=OFF
# Seconds per harness for `make fuzz` (CI runs the bounded form: `make fuzz FUZZ_CI=1`, from scripts/ci.py).
FUZZ_SECONDS ?= 3600
FUZZ_JOBS ?= 1

.PHONY: all deps configure build test demo format clean \
  sanitize-build sanitize fuzz-build fuzz mutation

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake $(CMAKE_ARGS)

configure: deps
	cmake $(CMAKE_ARGS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS) all mlir-doc

test: build
	@$(PYTHON) scripts/run-tests.py --build $(BUILD)

# Mutation testing (docs/testing.md): MUTATION_ARGS="--only ID..." or
# "--sample 10 --seed 1" or "--resume" narrow or continue the run.
mutation: deps
	@$(PYTHON) scripts/mutation.py $(MUTATION_ARGS)

$(SAN_BUILD)/build.ninja:
	cmake $(SAN_CMAKE_ARGS)

sanitize-build: deps $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD) -j $(JOBS) tile-opt tile-compile tile-rules-doc tile-rules-md TileUnitTests mlir-doc \
	  tile-lsp-server tile-capi-test tile-capi-maps

# Unit, property and lit tests under the sanitizers.
sanitize: sanitize-build
	@$(PYTHON) scripts/run-tests.py --build $(SAN_BUILD) --sanitized

fuzz-build: deps $(SAN_BUILD)/build.ninja
	ninja -C $(SAN_BUILD) -j $(JOBS) TileFuzzers

# Long libFuzzer runs: FUZZ_SECONDS per harness (default one hour), the
# corpora growing in $(SAN_BUILD)/fuzz-corpus. FUZZ_CI=1: CI's reproducible
# bounded run instead (fixed seed and execution counts, committed seeds only).
FUZZ_CI ?=
fuzz: fuzz-build
	@$(PYTHON) scripts/run-fuzzers.py --build $(SAN_BUILD) \
	  $(if $(FUZZ_CI),--ci,--seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS))

demo: build
	@./scripts/demo.sh $(BUILD)

format:
	git ls-files '*.cpp' '*.h' | xargs $(LLVM_DIR)/bin/clang-format -i

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
