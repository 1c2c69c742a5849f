"""Mutants of the compiler library and its driver, tile-compile (lib/Compiler,
include/tile/Compiler, tools/tile-compile).
"""
from ._catalog import Library

LIBRARY = Library("lib/Compiler",
                  "include/tile/Compiler",
                  "tools/tile-compile")
M = LIBRARY.mutant

MUTANTS = [
    M("tc-cinterface-external", "Compiler.cpp",
      "if (func.isPublic() && !func.isExternal())", "if (func.isPublic())",
      "C interfaces requested for external declarations",
      function="markCInterfaces"),
    M("tc-init-array", "Compiler.cpp",
      "targetOptions.UseInitArray = true;",
      "targetOptions.UseInitArray = false;",
      "module constructor in .ctors: glibc never loads the cubin",
      function="createHostTargetMachine"),
    M("tc-container-module", "Compiler.cpp",
      "if (!(*module)->hasAttr(gpu::GPUDialect::getContainerModuleAttrName()))",
      "if (false)",
      "inputs without gpu.container_module fail to compile",
      function="parseCompilerInput"),
    M("tc-runtime-dir", "tools/tile-compile/tile-compile.cpp",
      "return std::string(llvm::sys::fs::exists(probe) ? build : lib);",
      "return std::string(lib);",
      "the build tree's runtime library is not found when linking",
      function="findRuntimeDir"),
    M("tc-no-optimize", "Compiler.cpp",
      "  optimize(*llvmModule, **tm);\n", "",
      "host code not optimized",
      function="writeHostOutput",
      equivalent="-O2 on the host code changes its speed, not its results"),
]
