# tile-mlir: `make test` and `make demo` install what is missing, build, and
# run. Everything else is plain CMake (see README.md).

BUILD     ?= build
LLVM_DIR  ?= /usr/lib/llvm-22
JOBS      ?= $(shell nproc)
PYTHON    ?= /usr/bin/python3
CMAKE_ARGS = -G Ninja -S . -B $(BUILD) \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang \
  -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++ \
  -DLLVM_USE_LINKER=lld \
  -DMLIR_DIR=$(LLVM_DIR)/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=$(LLVM_DIR)/bin/lit \
  -DPython3_EXECUTABLE=$(PYTHON)

.PHONY: all deps configure build test demo format clean mutation

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

demo: build
	@./scripts/demo.sh $(BUILD)

format:
	git ls-files '*.cpp' '*.h' | xargs $(LLVM_DIR)/bin/clang-format -i

clean:
	rm -rf $(BUILD)
