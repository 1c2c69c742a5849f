//===- StreamOrderedMemory.h - gpu.alloc/dealloc async lowering -*- C++ -*-===//

#ifndef TILE_LIB_CONVERSION_HOSTTOLLVM_STREAMORDEREDMEMORY_H
#define TILE_LIB_CONVERSION_HOSTTOLLVM_STREAMORDEREDMEMORY_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
class SymbolTableCollection;
namespace tile {

/// `gpu.alloc async [%t]` (device memory) and `gpu.dealloc async [%t]` as
/// calls of the runtime's stream-ordered allocator on %t's stream, taken
/// before upstream's patterns (which allocate and free synchronously), and
/// `tile.stream_workspace` as the runtime's workspace call. Runtime functions
/// and name constants are found and added through `symbolTables`.
void populateStreamOrderedMemoryPatterns(const LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         SymbolTableCollection &symbolTables);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CONVERSION_HOSTTOLLVM_STREAMORDEREDMEMORY_H
