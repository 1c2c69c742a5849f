//===- PlanWords.h - Planner records as stable 64-bit words -----*- C++ -*-===//
//
// One enumeration of a plan's fields for both of its hashes: the storages'
// uniquing hash of `#tile.tma_plan` and `#tile.tiled_map` (PlanHashing.cpp),
// and the recorded `tile.plan_input` fingerprint (CopyRequest.cpp), which
// other processes read back and so must not depend on the process or the
// host: every field is written as a little-endian 64-bit word, every list
// preceded by its length (no two different records give the same words).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_IR_PLANWORDS_H
#define TILE_LIB_DIALECT_TILE_IR_PLANWORDS_H

#include "tile/Layout/Layout.h"
#include "tile/TMA/Plan.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace mlir::tile::detail {

class PlanWords {
public:
  void word(int64_t value);
  template <typename T>
  void list(const std::vector<T> &values) {
    word(values.size());
    for (const T &v : values)
      word(v);
  }
  void optional(std::optional<int64_t> value);
  void optionals(const std::vector<std::optional<int64_t>> &values);
  void sym(const ::tile::tma::SymExpr &expr);
  void syms(const std::vector<::tile::tma::SymExpr> &exprs);
  void layout(const ::tile::Layout &layout);
  void
  fields(const std::vector<std::optional<::tile::tma::RuntimeField>> &fields);
  void map(const ::tile::tma::TensorMapDesc &map);
  /// The map, the byte count and the issues (not the guards, which recall
  /// derives from the plan again).
  void plan(const ::tile::tma::TmaPlan &plan);

  /// xxh3 of the words' bytes.
  uint64_t hash() const;

private:
  llvm::SmallVector<uint64_t, 128> words;
};

} // namespace mlir::tile::detail

#endif // TILE_LIB_DIALECT_TILE_IR_PLANWORDS_H
