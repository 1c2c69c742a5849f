# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
# The sanitizer build's options (scripts/run-fuzzers.py) reach the tools.
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                    "ASAN_OPTIONS", "LSAN_OPTIONS",
                                    "UBSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"])
llvm_config.use_default_substitutions()

tool_dirs = [os.path.join(config.tile_obj_root, "bin"), config.llvm_tools_dir]
tools = ["tile-opt", "mlir-opt", "mlir-translate", "llc", "llvm-readelf",
         "not", "tile-lsp-server", "mlir-lsp-server", "tile-capi-test", "tile-capi-maps",
         ToolSubst("tile-compile", unresolved="ignore"),
         ToolSubst("tile-embed", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The mlir-opt plugin (test/Tools/plugin.mlir).
config.substitutions.append(
    ("%tile_plugin", os.path.join(config.tile_obj_root, "lib", "TilePlugin.so")))
config.substitutions.append(("%python", config.python_executable))
if os.path.exists(os.path.join(config.tile_obj_root, "bin", "tile-embed")):
    config.available_features.add("tile-embed")

# The sanitizer build (ASan + UBSan): instrumented libraries cannot load into
# Debian's uninstrumented tools.
sanitized = config.tile_sanitize.upper() in ("ON", "1", "TRUE", "YES")
if sanitized:
    config.available_features.add("sanitized")
# Seconds a compile-time regression test may take (offset-chains.test): a
# generous bound, ten times larger under the sanitizers.
config.substitutions.append(("%chain_seconds", "20" if sanitized else "2"))

# The tools link jemalloc where the build found it (TILE_TOOLS_JEMALLOC).
if config.tile_tool_allocator:
    config.available_features.add("tools-jemalloc")

# ptxas checks run only where the CUDA toolkit is installed.
ptxas = os.path.join(config.cuda_dir, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
