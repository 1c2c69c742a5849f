"""Mutants of the host lowering (lib/Conversion/HostToLLVM)."""
from ._catalog import Library

LIBRARY = Library("lib/Conversion/HostToLLVM")
M = LIBRARY.mutant

MUTANTS = [
    M("host-enters-kernels", "HostToLLVM.cpp",
      "if (!isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))",
      "if (!isa<gpu::BinaryOp>(op))",
      "the host conversion walks and converts the kernels' ops again",
      function="TileHostToLLVMPass::runOnOperation"),
    M("host-alloc-sync", "StreamOrderedMemory.cpp",
      "patterns.add<AllocOnStream, DeallocOnStream>(converter, symbolTables,",
      "patterns.add<DeallocOnStream>(converter, symbolTables,",
      "gpu.alloc async goes to upstream's synchronous mgpuMemAlloc again "
      "(on PyTorch's NULL stream the GEMM's padded copies then serialise "
      "the device)",
      function="mlir::tile::populateStreamOrderedMemoryPatterns",
      tests=["lit:Conversion/HostToLLVM/stream-ordered-memory.mlir"]),
    M("host-free-wrong-pointer", "StreamOrderedMemory.cpp",
      "Value ptr = descriptor.allocatedPtr(rewriter, op.getLoc());",
      "Value ptr = descriptor.size(rewriter, op.getLoc(), 0);",
      "gpu.dealloc async frees a size instead of the allocation",
      function="DeallocOnStream::matchAndRewrite",
      tests=["lit:Conversion/HostToLLVM/stream-ordered-memory.mlir"]),
]
