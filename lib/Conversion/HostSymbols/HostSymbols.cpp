//===- HostSymbols.cpp - Constant globals the host code shares ------------===//

#include "tile/Conversion/HostSymbols.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

Value tile::host::getStringAddress(OpBuilder &b, SymbolTable &symbols,
                                   Location loc, StringRef text) {
  auto module = cast<ModuleOp>(symbols.getOp());
  std::string name =
      "__tile_str_" + llvm::utohexstr(llvm::xxh3_64bits(text), true);
  auto global = symbols.lookup<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string value = text.str();
    value.push_back('\0');
    global = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), value.size()),
        /*isConstant=*/true, LLVM::Linkage::Private, name,
        b.getStringAttr(value));
    symbols.insert(global);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}
