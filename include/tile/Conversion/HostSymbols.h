//===- HostSymbols.h - Constant globals the host code shares ----*- C++ -*-===//
//
// Host code that needs a constant string (a rule's text, a workspace's name)
// takes the address of one private global per distinct text, found and added
// through the module's symbol table: the passes and the host lowering build
// that table once, so a module of many such uses stays linear.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_HOSTSYMBOLS_H
#define TILE_CONVERSION_HOSTSYMBOLS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tile::host {

/// The address of a NUL-terminated constant holding `text`: one private
/// global per text in the module of `symbols` (named by the text's hash),
/// created at the module's start on first use.
Value getStringAddress(OpBuilder &b, SymbolTable &symbols, Location loc,
                       StringRef text);

} // namespace mlir::tile::host

#endif // TILE_CONVERSION_HOSTSYMBOLS_H
