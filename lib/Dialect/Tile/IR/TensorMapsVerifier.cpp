//===- TensorMapsVerifier.cpp - Verifier of a kernel's tile.tensor_maps ---===//
//
// `tile-tensor-map-abi` records on each kernel the maps its launches encode;
// the host side of the same pass, and any host that is not ours, reads them
// back. The record may also come from a file, so the dialect checks its shape
// before anyone reads it: every field the host reads is present with its
// type, and run-time fields and guards name dimensions the global buffer has.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/DiscardableAttrs.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Checks one map entry; the first problem goes to `why`.
struct MapChecker {
  DictionaryAttr map;
  std::string why;

  bool fail(const Twine &message) {
    why = message.str();
    return false;
  }
  bool integer(StringRef key) {
    return map.getAs<IntegerAttr>(key) ||
           fail("'" + key + "' must be an integer");
  }
  bool array(StringRef key) {
    return map.getAs<DenseI64ArrayAttr>(key) ||
           fail("'" + key + "' must be an array<i64>");
  }
  static bool knownValue(StringRef kind) {
    return kind == "size" || kind == "stride" || kind == "offset" ||
           kind == "address";
  }
  bool runtimeFields(StringRef key, size_t expected, int64_t rank) {
    Attribute attr = map.get(key);
    if (!attr)
      return true;
    auto list = dyn_cast<ArrayAttr>(attr);
    if (!list || list.size() != expected)
      return fail("'" + key + "' must list " + Twine(expected) + " fields");
    for (Attribute f : list) {
      auto field = dyn_cast<DictionaryAttr>(f);
      if (!field)
        return fail("'" + key + "' entries must be dictionaries");
      if (field.empty())
        continue;
      auto value = field.getAs<StringAttr>("value");
      auto dim = field.getAs<IntegerAttr>("dim");
      auto scale = field.getAs<IntegerAttr>("scale");
      auto divisor = field.getAs<IntegerAttr>("divisor");
      if (!value || !knownValue(value.getValue()) || !dim || !scale ||
          !divisor || dim.getInt() < 0 || dim.getInt() >= rank ||
          scale.getInt() < 1 || divisor.getInt() < 1)
        return fail("a run-time field of '" + key +
                    "' must name a value, a dimension below the buffer's "
                    "rank " +
                    Twine(rank) + ", and a positive scale and divisor");
    }
    return true;
  }
  bool guards(int64_t rank) {
    Attribute attr = map.get("guards");
    if (!attr)
      return true;
    auto list = dyn_cast<ArrayAttr>(attr);
    if (!list)
      return fail("'guards' must be a list");
    for (Attribute g : list) {
      auto guard = dyn_cast<DictionaryAttr>(g);
      auto kind = guard ? guard.getAs<StringAttr>("kind") : StringAttr();
      auto terms = guard ? guard.getAs<ArrayAttr>("terms") : ArrayAttr();
      if (!guard || !guard.getAs<StringAttr>("rule") ||
          !guard.getAs<StringAttr>("expr") ||
          !guard.getAs<IntegerAttr>("constant") || !kind || !terms)
        return fail("a guard needs 'rule', 'expr', 'kind', 'constant' and "
                    "'terms'");
      if (kind.getValue() == "multiple_of") {
        auto modulus = guard.getAs<IntegerAttr>("modulus");
        if (!modulus || modulus.getInt() < 1)
          return fail("a multiple_of guard needs a positive 'modulus'");
      } else if (kind.getValue() == "in_range") {
        if (!guard.getAs<IntegerAttr>("lo") || !guard.getAs<IntegerAttr>("hi"))
          return fail("an in_range guard needs 'lo' and 'hi'");
      } else {
        return fail("a guard's kind is multiple_of or in_range");
      }
      for (Attribute t : terms) {
        auto term = dyn_cast<ArrayAttr>(t);
        auto value = term && term.size() == 3 ? dyn_cast<StringAttr>(term[0])
                                              : StringAttr();
        auto dim = term && term.size() == 3 ? dyn_cast<IntegerAttr>(term[1])
                                            : IntegerAttr();
        if (!value || !knownValue(value.getValue()) || !dim ||
            !isa<IntegerAttr>(term[2]) || dim.getInt() < 0 ||
            dim.getInt() >= std::max<int64_t>(rank, 1))
          return fail("a guard term is [value, dimension below the "
                      "buffer's rank, coefficient]");
      }
    }
    return true;
  }

  /// The memref kernel argument 'global_arg' names, or null (after fail).
  MemRefType globalBuffer(gpu::GPUFuncOp kernel) {
    int64_t globalArg = map.getAs<IntegerAttr>("global_arg").getInt();
    if (globalArg < 0 ||
        globalArg >= static_cast<int64_t>(kernel.getNumArguments())) {
      fail("'global_arg' " + Twine(globalArg) +
           " is not an argument of the kernel");
      return {};
    }
    auto type = dyn_cast<MemRefType>(kernel.getArgument(globalArg).getType());
    if (!type)
      fail("'global_arg' " + Twine(globalArg) + " is not a memref");
    return type;
  }

  /// An im2col map: its own fields; sizes and strides come from the buffer.
  bool checkIm2col(gpu::GPUFuncOp kernel) {
    for (StringRef key :
         {"arg", "global_arg", "data_type_enum", "rank", "swizzle",
          "l2_promotion", "oob_fill", "element_bytes", "channels_per_pixel",
          "pixels_per_column"})
      if (!integer(key))
        return false;
    for (StringRef key : {"lower_corner", "upper_corner", "element_strides"})
      if (!array(key))
        return false;
    int64_t rank = map.getAs<IntegerAttr>("rank").getInt();
    MemRefType type = globalBuffer(kernel);
    if (!type)
      return false;
    if (type.getRank() != rank)
      return fail("'global_arg' " +
                  Twine(map.getAs<IntegerAttr>("global_arg").getInt()) +
                  " is not a memref of rank " + Twine(rank));
    return true;
  }

  bool check(gpu::GPUFuncOp kernel) {
    if (auto mode = map.getAs<StringAttr>("mode")) {
      if (mode.getValue() == "im2col")
        return checkIm2col(kernel);
      return fail("'mode' is \"" + mode.getValue() +
                  "\"; expected \"im2col\" or no mode (tiled)");
    }
    for (StringRef key :
         {"arg", "global_arg", "data_type_enum", "rank", "interleave",
          "swizzle", "l2_promotion", "oob_fill", "base_offset_bytes"})
      if (!integer(key))
        return false;
    for (StringRef key :
         {"global_dim", "global_strides", "box_dim", "element_strides"})
      if (!array(key))
        return false;
    if (map.get("offset_scale") && !integer("offset_scale"))
      return false;
    size_t rank = map.getAs<DenseI64ArrayAttr>("global_dim").size();
    MemRefType type = globalBuffer(kernel);
    if (!type)
      return false;
    return runtimeFields("runtime_global_dim", rank, type.getRank()) &&
           runtimeFields("runtime_global_strides", rank == 0 ? 0 : rank - 1,
                         type.getRank()) &&
           guards(type.getRank());
  }
};
} // namespace

LogicalResult mlir::tile::verifyTensorMapsAttr(Operation *op, Attribute value) {
  auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
  auto maps = dyn_cast<ArrayAttr>(value);
  if ((!kernel && !isa<LLVM::LLVMFuncOp>(op)) || !maps)
    return op->emitOpError() << "tma: '" << kTensorMapsAttr
                             << "' must be a list of maps on a kernel";
  for (auto [i, attr] : llvm::enumerate(maps)) {
    auto map = dyn_cast<DictionaryAttr>(attr);
    MapChecker checker{map, {}};
    if (!map)
      checker.why = "it is not a dictionary";
    // A lowered kernel (llvm.func) only keeps the record for embedders; the
    // host encodes from the gpu.func.
    if (map && !kernel)
      continue;
    if (!map || !checker.check(kernel))
      return op->emitOpError()
             << "tma: map #" << i << " of '" << kTensorMapsAttr
             << "' cannot be encoded by a host: " << checker.why;
  }
  return success();
}
