//===- Layout.cpp - C API: shard layouts ----------------------------------===//

#include "tile-c/Layout.h"
#include "tile/Layout/Layout.h"

#include <string>
#include <string_view>
#include <vector>

using tile::Layout;

namespace {

Layout *unwrap(MlirTileLayout layout) {
  return static_cast<Layout *>(layout.ptr);
}

MlirTileLayout wrap(Layout *layout) { return MlirTileLayout{layout}; }

void report(MlirStringCallback callback, void *userData,
            const std::string &text) {
  if (callback)
    callback(MlirStringRef{text.data(), text.size()}, userData);
}

MlirLogicalResult failed() { return MlirLogicalResult{0}; }

MlirLogicalResult succeed() { return MlirLogicalResult{1}; }

/// Takes ownership of a verified layout, or reports why it does not verify.
MlirTileLayout adopt(Layout layout, MlirStringCallback error, void *userData) {
  if (std::optional<std::string> why = layout.verify()) {
    report(error, userData, "invalid layout: " + *why);
    return wrap(nullptr);
  }
  return wrap(new Layout(std::move(layout)));
}

/// Checks that `index` is a flat index of `layout`.
bool checkFlatIndex(const Layout &layout, int64_t index,
                    MlirStringCallback error, void *userData) {
  if (index >= 0 && index < layout.size())
    return true;
  report(error, userData,
         "index " + std::to_string(index) +
             " is out of range for a layout of " +
             std::to_string(layout.size()) + " elements");
  return false;
}

/// Groups `layout` onto `shape` and checks `index` against it.
std::optional<tile::GroupedLayout>
groupForIndex(const Layout &layout, intptr_t rank, const int64_t *shape,
              const int64_t *index, MlirStringCallback error, void *userData) {
  std::vector<int64_t> dims(shape, shape + rank);
  std::string why;
  std::optional<tile::GroupedLayout> grouped =
      tile::groupOnto(layout, dims, &why);
  if (!grouped) {
    report(error, userData, why);
    return std::nullopt;
  }
  for (intptr_t d = 0; d < rank; ++d) {
    if (index[d] >= 0 && index[d] < shape[d])
      continue;
    report(error, userData,
           "index " + std::to_string(index[d]) + " of dimension " +
               std::to_string(d) + " is out of range for size " +
               std::to_string(shape[d]));
    return std::nullopt;
  }
  return grouped;
}

bool checkSwizzle(const Layout &layout, int64_t elementBytes,
                  MlirStringCallback error, void *userData) {
  if (elementBytes <= 0) {
    report(error, userData,
           "element size must be positive, got " +
               std::to_string(elementBytes));
    return false;
  }
  if (std::optional<std::string> why = layout.verifySwizzle(elementBytes)) {
    report(error, userData, "swizzle: " + *why);
    return false;
  }
  return true;
}

} // namespace

MlirTileLayout mlirTileLayoutCreate(intptr_t rank, const int64_t *extents,
                                    const int64_t *strides, int swizzle,
                                    int64_t elementOffset,
                                    MlirStringCallback error, void *userData) {
  if (swizzle < 0 || swizzle > 3) {
    report(error, userData,
           "invalid layout: swizzle " + std::to_string(swizzle) +
               " is not one of 0 (none), 1 (32B), 2 (64B), 3 (128B)");
    return wrap(nullptr);
  }
  std::vector<int64_t> shape(extents, extents + rank);
  Layout layout = Layout::rowMajor(shape);
  if (strides)
    layout =
        Layout::strided(shape, std::vector<int64_t>(strides, strides + rank));
  return adopt(Layout(layout.shards(), static_cast<tile::Swizzle>(swizzle),
                      elementOffset),
               error, userData);
}

MlirTileLayout mlirTileLayoutParse(MlirStringRef text, MlirStringCallback error,
                                   void *userData) {
  std::string_view body(text.data, text.length);
  constexpr std::string_view prefix = "#tile.layout<";
  size_t first = body.find_first_not_of(" \t\n");
  size_t last = body.find_last_not_of(" \t\n");
  if (first != std::string_view::npos) {
    body = body.substr(first, last - first + 1);
    if (body.substr(0, prefix.size()) == prefix) {
      if (body.back() != '>') {
        report(error, userData,
               "expected '>' at the end of '" + std::string(body) + "'");
        return wrap(nullptr);
      }
      body = body.substr(prefix.size(), body.size() - prefix.size() - 1);
    }
  }
  std::string why;
  std::optional<Layout> layout = Layout::parse(body, &why);
  if (!layout) {
    report(error, userData, "cannot parse layout: " + why);
    return wrap(nullptr);
  }
  return adopt(std::move(*layout), error, userData);
}

void mlirTileLayoutDestroy(MlirTileLayout layout) { delete unwrap(layout); }

void mlirTileLayoutPrint(MlirTileLayout layout, MlirStringCallback callback,
                         void *userData) {
  report(callback, userData, "#tile.layout<" + unwrap(layout)->str() + ">");
}

intptr_t mlirTileLayoutGetRank(MlirTileLayout layout) {
  return static_cast<intptr_t>(unwrap(layout)->rank());
}

int64_t mlirTileLayoutGetExtent(MlirTileLayout layout, intptr_t pos) {
  return unwrap(layout)->shards()[pos].extent;
}

int64_t mlirTileLayoutGetStride(MlirTileLayout layout, intptr_t pos) {
  return unwrap(layout)->shards()[pos].stride;
}

int mlirTileLayoutGetSwizzle(MlirTileLayout layout) {
  return static_cast<int>(unwrap(layout)->swizzle());
}

int64_t mlirTileLayoutGetElementOffset(MlirTileLayout layout) {
  return unwrap(layout)->elementOffset();
}

int64_t mlirTileLayoutGetSize(MlirTileLayout layout) {
  return unwrap(layout)->size();
}

int64_t mlirTileLayoutGetCosize(MlirTileLayout layout) {
  return unwrap(layout)->cosize();
}

MlirTileLayout mlirTileLayoutCanonicalize(MlirTileLayout layout) {
  return wrap(new Layout(unwrap(layout)->canonicalize()));
}

bool mlirTileLayoutHasOverlap(MlirTileLayout layout) {
  return unwrap(layout)->hasOverlap();
}

MlirLogicalResult mlirTileLayoutCheckSwizzle(MlirTileLayout layout,
                                             int64_t elementBytes,
                                             MlirStringCallback error,
                                             void *userData) {
  return checkSwizzle(*unwrap(layout), elementBytes, error, userData)
             ? succeed()
             : failed();
}

MlirLogicalResult mlirTileLayoutOffsetOf(MlirTileLayout layout, int64_t index,
                                         int64_t *offset,
                                         MlirStringCallback error,
                                         void *userData) {
  const Layout &l = *unwrap(layout);
  if (!checkFlatIndex(l, index, error, userData))
    return failed();
  *offset = l.offsetOf(index);
  return succeed();
}

MlirLogicalResult
mlirTileLayoutByteAddressOf(MlirTileLayout layout, int64_t index,
                            int64_t elementBytes, int64_t baseByteAddress,
                            int64_t *address, MlirStringCallback error,
                            void *userData) {
  const Layout &l = *unwrap(layout);
  if (!checkFlatIndex(l, index, error, userData) ||
      !checkSwizzle(l, elementBytes, error, userData))
    return failed();
  *address = l.byteAddressOf(index, elementBytes, baseByteAddress);
  return succeed();
}

MlirLogicalResult
mlirTileLayoutOffsetOfIndex(MlirTileLayout layout, intptr_t rank,
                            const int64_t *shape, const int64_t *index,
                            int64_t *offset, MlirStringCallback error,
                            void *userData) {
  std::optional<tile::GroupedLayout> grouped =
      groupForIndex(*unwrap(layout), rank, shape, index, error, userData);
  if (!grouped)
    return failed();
  *offset = grouped->offsetOf(std::vector<int64_t>(index, index + rank));
  return succeed();
}

MlirLogicalResult mlirTileLayoutByteAddressOfIndex(
    MlirTileLayout layout, intptr_t rank, const int64_t *shape,
    const int64_t *index, int64_t elementBytes, int64_t baseByteAddress,
    int64_t *address, MlirStringCallback error, void *userData) {
  const Layout &l = *unwrap(layout);
  std::optional<tile::GroupedLayout> grouped =
      groupForIndex(l, rank, shape, index, error, userData);
  if (!grouped || !checkSwizzle(l, elementBytes, error, userData))
    return failed();
  *address = grouped->byteAddressOf(std::vector<int64_t>(index, index + rank),
                                    elementBytes, baseByteAddress);
  return succeed();
}
