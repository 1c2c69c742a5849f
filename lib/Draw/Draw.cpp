//===- Draw.cpp - SVG pictures of layouts and TMA copy plans --------------===//

#include "tile/Draw/Draw.h"

#include "tile/Layout/Format.h"
#include "tile/TMA/HardwareModel.h"

#include <algorithm>
#include <map>
#include <set>

namespace tile::draw {

namespace {

// Geometry (pixels): one byte is kByteW wide, a 128-byte row kRowH high.
constexpr int kByteW = 6;
constexpr int kChunkW = 16 * kByteW;
constexpr int kGridW = 8 * kChunkW;
constexpr int kRowH = 20;
constexpr int kLeft = 76;
constexpr int kLineH = 15;
constexpr int kCharW = 7;
constexpr int kPanelW = 300;
constexpr int kPanelGap = 40;
// Elements and box bytes walked at most (larger copies are not drawn).
constexpr int64_t kMaxElements = int64_t(1) << 20;

// Cell colours by logical 16-byte chunk along the innermost dimension (mod
// 8), in two shades alternating with the next-outer index.
const char *const kFill[2][8] = {{"#fbb4ae", "#b3cde3", "#ccebc5", "#decbe4",
                                  "#fed9a6", "#ffffcc", "#e5d8bd", "#fddaec"},
                                 {"#f4877d", "#86aed0", "#a3d99a", "#c3a5cf",
                                  "#fdbd6b", "#f2f28c", "#cdb88f", "#f9a9d2"}};
const char *const kOutside = "#e8e8e8";
const char *const kBoxColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#17becf", "#e377c2", "#8c564b",
                                   "#bcbd22", "#393b79"};
constexpr int kNumBoxColours = sizeof(kBoxColours) / sizeof(kBoxColours[0]);

std::string joinComma(const std::vector<int64_t> &values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? "," : "") + std::to_string(values[i]);
  return s;
}

int64_t product(const std::vector<int64_t> &v) {
  int64_t n = 1;
  for (int64_t x : v) {
    if (x <= 0 || n > kMaxElements)
      return x <= 0 ? 0 : kMaxElements + 1;
    n *= x;
  }
  return n;
}

/// One element of a shared buffer, placed at its physical bytes.
struct Cell {
  int64_t byte = 0; // from the buffer's start, swizzle applied
  std::vector<int64_t> index;
  const char *fill = kOutside;
  // Copies only.
  bool inRegion = false;
  std::vector<int64_t> global;
  int box = -1;
  bool oob = false;
};

/// The drawn part of a shared buffer.
struct Grid {
  int64_t elementBytes = 1;
  int64_t bufferBytes = 0; // extent of the buffer's bytes
  int64_t drawnBytes = 0;  // multiple of 128, at most kMaxDrawnBytes
  std::vector<Cell> cells;
  std::map<int64_t, size_t> cellAt; // byte -> cell
  std::vector<std::string> notes;

  int rows() const { return static_cast<int>(drawnBytes / 128); }
  Cell *find(int64_t byte) {
    auto it = cellAt.find(byte);
    return it == cellAt.end() ? nullptr : &cells[it->second];
  }
};

const char *logicalFill(const std::vector<int64_t> &index, int64_t eb) {
  if (index.empty())
    return kFill[0][0];
  int64_t perChunk = std::max<int64_t>(1, 16 / eb);
  int64_t hue = (index.back() / perChunk) % 8;
  int64_t shade = index.size() >= 2 ? index[index.size() - 2] % 2 : 0;
  return kFill[shade][hue];
}

/// Places every element of the grouped buffer at its bytes.
std::optional<std::string> buildGrid(const GroupedLayout &g, int64_t eb,
                                     int64_t base, Grid &grid) {
  grid.elementBytes = eb;
  int64_t count = product(g.shape);
  if (count > kMaxElements)
    return "the buffer has more than " + std::to_string(kMaxElements) +
           " elements: not drawn";
  Layout flat = g.flatten();
  grid.bufferBytes = (flat.elementOffset() + flat.cosize()) * eb;
  grid.drawnBytes =
      std::min<int64_t>((grid.bufferBytes + 127) / 128 * 128, kMaxDrawnBytes);
  if (grid.bufferBytes > kMaxDrawnBytes)
    grid.notes.push_back("showing the first " + std::to_string(kMaxDrawnBytes) +
                         " of " + std::to_string(grid.bufferBytes) + " bytes");
  for (int64_t i = 0; i < count; ++i) {
    Cell c;
    c.index = tma::unravelIndex(i, g.shape);
    c.byte = g.byteAddressOf(c.index, eb, base) - base;
    if (c.byte < 0 || c.byte >= grid.drawnBytes)
      continue;
    c.fill = logicalFill(c.index, eb);
    grid.cellAt[c.byte] = grid.cells.size();
    grid.cells.push_back(std::move(c));
  }
  return std::nullopt;
}

/// An SVG document being written: text lines on top, then the drawing.
class Svg {
public:
  std::string body;
  int width = 0;
  int height = 0;

  void text(int x, int y, const std::string &s, const std::string &attrs = "",
            int size = 11) {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
            "\" font-size=\"" + std::to_string(size) + "\"" +
            (attrs.empty() ? "" : " " + attrs) + ">" + escapeXml(s) +
            "</text>\n";
    width = std::max<int>(width, x + static_cast<int>(s.size()) * kCharW + 8);
  }

  std::string finish(const std::string &kind) const {
    std::string w = std::to_string(width), h = std::to_string(height);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
           w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" font-family=\"monospace\" data-kind=\"" + kind +
           "\">\n"
           "<defs><pattern id=\"tile-oob-hatch\" width=\"4\" height=\"4\" "
           "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
           "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" stroke=\"#333\" "
           "stroke-width=\"1.2\"/></pattern></defs>\n"
           "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
           body + "</svg>\n";
  }
};

std::string num(double v) {
  char buf[32];
  snprintf(buf, sizeof(buf), "%.2f", v);
  std::string s = buf;
  while (s.back() == '0')
    s.pop_back();
  if (s.back() == '.')
    s.pop_back();
  return s;
}

/// Draws the grid with its top-left corner at (kLeft, top).
void drawGrid(Svg &svg, const Grid &grid, int top, bool copy) {
  int rows = grid.rows();
  for (int c = 0; c < 8; ++c)
    svg.text(kLeft + c * kChunkW + 2, top - 4, "chunk " + std::to_string(c),
             "fill=\"#555\"", 9);
  for (int r = 0; r < rows; ++r) {
    int y = top + r * kRowH;
    svg.text(4, y + 14, "+" + std::to_string(r * 128), "fill=\"#555\"", 10);
    svg.body += "<rect x=\"" + std::to_string(kLeft) + "\" y=\"" +
                std::to_string(y) + "\" width=\"" + std::to_string(kGridW) +
                "\" height=\"" + std::to_string(kRowH) +
                "\" fill=\"#fafafa\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n";
  }
  int64_t eb = grid.elementBytes;
  std::map<int64_t, const Cell *> firstInChunk;
  for (const Cell &c : grid.cells) {
    int64_t row = c.byte / 128, col = c.byte % 128;
    double x = kLeft + col * kByteW + 0.25, y = top + row * kRowH + 0.5;
    std::string attrs = " data-element=\"" + joinComma(c.index) +
                        "\" data-chunk=\"" + std::to_string(c.byte / 16) + "\"";
    if (copy && c.inRegion)
      attrs += " data-global=\"" + joinComma(c.global) + "\"";
    if (copy && c.box >= 0)
      attrs += " data-box=\"" + std::to_string(c.box) + "\"";
    if (copy && c.oob)
      attrs += " data-oob=\"1\"";
    svg.body += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                num(eb * kByteW - 0.5) + "\" height=\"" +
                std::to_string(kRowH - 1) + "\" fill=\"" +
                (copy && !c.inRegion ? kOutside : c.fill) + "\"" + attrs +
                "/>\n";
    if (copy && c.oob)
      svg.body += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                  num(eb * kByteW - 0.5) + "\" height=\"" +
                  std::to_string(kRowH - 1) +
                  "\" fill=\"url(#tile-oob-hatch)\"/>\n";
    const Cell *&first = firstInChunk[c.byte / 16];
    if (!first || c.byte < first->byte)
      first = &c;
  }
  // Each chunk is labelled with the index of the element at its start.
  for (const auto &[chunk, cell] : firstInChunk) {
    int64_t row = chunk / 8, col = chunk % 8;
    svg.body += "<text x=\"" + std::to_string(kLeft + col * kChunkW + 3) +
                "\" y=\"" + std::to_string(top + row * kRowH + 13) +
                "\" font-size=\"9\" fill=\"#222\">" +
                escapeXml(joinComma(cell->index)) + "</text>\n";
  }
  // Chunk boundaries on top of the cells.
  for (int r = 0; r < rows; ++r)
    for (int c = 1; c < 8; ++c) {
      int x = kLeft + c * kChunkW, y = top + r * kRowH;
      svg.body += "<line x1=\"" + std::to_string(x) + "\" y1=\"" +
                  std::to_string(y) + "\" x2=\"" + std::to_string(x) +
                  "\" y2=\"" + std::to_string(y + kRowH) +
                  "\" stroke=\"#666\" stroke-width=\"0.6\"/>\n";
    }
}

std::string describeLayout(const Layout &l, const std::vector<int64_t> &shape,
                           int64_t eb) {
  return "buffer " + formatTuple(shape) + " of " + std::to_string(eb) +
         "-byte elements, layout " + l.str();
}

} // namespace

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&apos;";
      break;
    default:
      // Control characters are not allowed in XML 1.0.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
        out += '?';
      else
        out += c;
    }
  }
  return out;
}

std::optional<std::string> drawLayout(const Layout &layout,
                                      const std::vector<int64_t> &shape,
                                      int64_t elementBytes, int64_t baseAddress,
                                      std::string *error) {
  auto fail = [&](std::string message) -> std::optional<std::string> {
    if (error)
      *error = std::move(message);
    return std::nullopt;
  };
  if (elementBytes < 1 || elementBytes > 16 || 16 % elementBytes != 0)
    return fail("element size " + std::to_string(elementBytes) +
                " B does not divide 16");
  if (std::optional<std::string> e = layout.verify())
    return fail(*e);
  if (std::optional<std::string> e = layout.verifySwizzle(elementBytes))
    return fail(*e);
  std::vector<int64_t> dims = shape;
  if (dims.empty())
    for (const Shard &s : layout.shards())
      dims.push_back(s.extent);
  std::string why;
  std::optional<GroupedLayout> g = groupOnto(layout, dims, &why);
  if (!g)
    return fail(why);
  Grid grid;
  if (std::optional<std::string> e =
          buildGrid(*g, elementBytes, baseAddress, grid))
    return fail(*e);

  Svg svg;
  int y = 18;
  svg.text(6, y, describeLayout(layout, dims, elementBytes),
           "font-weight=\"bold\"", 12);
  y += kLineH;
  svg.text(6, y,
           "physical bytes from the buffer's start (address " +
               std::to_string(baseAddress) +
               "): 128-byte rows of 16-byte chunks, swizzle applied");
  svg.text(6, y += kLineH,
           "colour = logical chunk along the innermost dimension, label = "
           "index of the chunk's first element");
  for (const std::string &note : grid.notes)
    svg.text(6, y += kLineH, note, "fill=\"#a00\"");
  int top = y + 22;
  drawGrid(svg, grid, top, /*copy=*/false);
  svg.width = std::max(svg.width, kLeft + kGridW + 10);
  svg.height = top + grid.rows() * kRowH + 10;
  return svg.finish("layout");
}

namespace {

/// The global panel: the region and the boxes within the tensor's last two
/// dimensions, outer dimensions as text.
void drawGlobalPanel(Svg &svg, const tma::CopyRequest &r,
                     const std::vector<int64_t> &offsets,
                     const std::vector<std::vector<int64_t>> &boxLo,
                     const std::vector<std::vector<int64_t>> &boxHi, int left,
                     int top) {
  size_t rank = r.globalShape.size();
  svg.text(left, top - 6, "global tensor " + formatTuple(r.globalShape),
           "font-weight=\"bold\"");
  if (rank == 0)
    return;
  size_t cd = rank - 1;
  bool hasRows = rank >= 2;
  size_t rd = hasRows ? rank - 2 : 0;
  int64_t tr = hasRows ? r.globalShape[rd] : 1, tc = r.globalShape[cd];
  int64_t orr = hasRows ? offsets[rd] : 0, oc = offsets[cd];
  int64_t sr = hasRows ? r.globalSizes[rd] : 1, sc = r.globalSizes[cd];
  int64_t lor = std::min<int64_t>(0, orr), loc = std::min<int64_t>(0, oc);
  int64_t hir = std::max(tr, orr + sr), hic = std::max(tc, oc + sc);
  // Columns fill the panel's width; rows are at least 20 px high when the
  // panel's height allows.
  double sx = double(kPanelW) / double(hic - loc);
  double sy = std::min(double(kPanelW) / double(hir - lor), std::max(sx, 20.0));
  auto px = [&](int64_t c) { return left + (c - loc) * sx; };
  auto py = [&](int64_t r) { return top + 4 + (r - lor) * sy; };
  auto rect = [&](int64_t r0, int64_t c0, int64_t r1, int64_t c1,
                  const std::string &style, const std::string &attrs) {
    svg.body += "<rect x=\"" + num(px(c0)) + "\" y=\"" + num(py(r0)) +
                "\" width=\"" + num((c1 - c0) * sx) + "\" height=\"" +
                num((r1 - r0) * sy) + "\" " + style + attrs + "/>\n";
  };
  rect(0, 0, tr, tc, "fill=\"#eef\" stroke=\"#669\" stroke-width=\"1\"", "");
  rect(orr, oc, orr + sr, oc + sc,
       "fill=\"none\" stroke=\"#000\" stroke-width=\"1\" "
       "stroke-dasharray=\"4 2\"",
       " data-region=\"" + joinComma(offsets) + "\"");
  for (size_t b = 0; b < boxLo.size(); ++b) {
    if (boxLo[b].empty())
      continue;
    int64_t r0 = hasRows ? boxLo[b][rd] : 0, r1 = hasRows ? boxHi[b][rd] : 1;
    rect(r0, boxLo[b][cd], r1, boxHi[b][cd],
         std::string("fill=\"none\" stroke=\"") +
             kBoxColours[b % kNumBoxColours] + "\" stroke-width=\"2\"",
         " data-global-box=\"" + std::to_string(b) + "\"");
  }
  int y = static_cast<int>(py(hir)) + 16;
  svg.text(left, y,
           "dims " + std::string(hasRows ? std::to_string(rd) + " x " : "") +
               std::to_string(cd) + " drawn; dashed: the region");
  svg.text(left, y += kLineH,
           "region " +
               std::string(hasRows ? "[" + std::to_string(orr) + ", " +
                                         std::to_string(orr + sr) + ") x "
                                   : "") +
               "[" + std::to_string(oc) + ", " + std::to_string(oc + sc) + ")");
  for (size_t b = 0; b < boxLo.size(); ++b)
    if (!boxLo[b].empty())
      svg.text(left, y += kLineH,
               "#" + std::to_string(b) + " covers " +
                   std::string(hasRows
                                   ? "[" + std::to_string(boxLo[b][rd]) + ", " +
                                         std::to_string(boxHi[b][rd]) + ") x "
                                   : "") +
                   "[" + std::to_string(boxLo[b][cd]) + ", " +
                   std::to_string(boxHi[b][cd]) + ")",
               std::string("fill=\"") + kBoxColours[b % kNumBoxColours] + "\"");
  for (size_t d = 0; d + (hasRows ? 2 : 1) < rank; ++d)
    svg.text(left, y += kLineH,
             "dim " + std::to_string(d) + ": region [" +
                 std::to_string(offsets[d]) + ", " +
                 std::to_string(offsets[d] + r.globalSizes[d]) + ") of " +
                 std::to_string(r.globalShape[d]));
  svg.height = std::max(svg.height, y + 10);
}

} // namespace

std::string drawCopy(const CopyPicture &p) {
  Svg svg;
  int y = 18;
  svg.text(6, y, p.title, "font-weight=\"bold\"", 12);
  std::string summary = (p.direction == "s2g" ? "store shared -> global"
                                              : "load global -> shared") +
                        std::string(", selected: ") +
                        (p.selected.empty() ? "none" : p.selected);
  if (p.request)
    summary += ", " + toString(p.request->elementType);
  svg.text(6, y += kLineH, summary);
  for (const auto &[variant, reason] : p.declined)
    svg.text(6, y += kLineH, "declined " + variant + ": " + reason,
             "fill=\"#a00\" data-declined=\"" + escapeXml(variant) + "\"");
  if (!p.request) {
    if (!p.requestError.empty())
      svg.text(6, y += kLineH, "no planner request: " + p.requestError,
               "fill=\"#a00\"");
    svg.height = y + 10;
    return svg.finish("copy");
  }

  const tma::CopyRequest &r = *p.request;
  int64_t eb = r.elementType.bytes;
  std::vector<int64_t> symbols = p.symbolValues;
  symbols.resize(std::max(symbols.size(), r.symbolDivisors.size()), 0);
  if (!r.symbolDivisors.empty())
    svg.text(6, y += kLineH,
             "dynamic offsets drawn with every run-time value 0",
             "fill=\"#555\"");
  svg.text(6, y += kLineH,
           "shared " + describeLayout(r.sharedLayout, r.sharedShape, eb));
  svg.text(6, y += kLineH,
           "cells = physical bytes (128-byte rows, 16-byte chunks); colour = "
           "logical chunk, label = index of the chunk's first element");

  std::vector<std::string> notes;
  Grid grid;
  std::optional<GroupedLayout> s = groupOnto(r.sharedLayout, r.sharedShape);
  int64_t base = r.sharedBaseAlignment > 0 ? r.sharedBaseAlignment : 1024;
  bool haveGrid = false;
  if (!s) {
    notes.push_back("the shared layout does not group onto its shape");
  } else if (eb < 1 || 16 % eb != 0) {
    notes.push_back("element size " + std::to_string(eb) + " B not drawn");
  } else if (std::optional<std::string> e = buildGrid(*s, eb, base, grid)) {
    notes.push_back(*e);
  } else {
    haveGrid = true;
  }
  for (const std::string &n : grid.notes)
    notes.push_back(n);

  // The copy's elements: shared index -> region element -> tensor index.
  std::vector<int64_t> gOff, sOff;
  for (const tma::SymExpr &e : r.globalOffsets)
    gOff.push_back(e.evaluate(symbols));
  for (const tma::SymExpr &e : r.sharedOffsets)
    sOff.push_back(e.evaluate(symbols));
  int64_t count = product(r.globalSizes);
  if (haveGrid && count <= kMaxElements && product(r.sharedSizes) == count) {
    for (int64_t e = 0; e < count; ++e) {
      std::vector<int64_t> si = tma::unravelIndex(e, r.sharedSizes);
      for (size_t d = 0; d < si.size() && d < sOff.size(); ++d)
        si[d] += sOff[d];
      bool inside = true;
      for (size_t d = 0; d < si.size(); ++d)
        inside = inside && si[d] >= 0 && si[d] < r.sharedShape[d];
      if (!inside)
        continue;
      Cell *c = grid.find(s->byteAddressOf(si, eb, base) - base);
      if (!c)
        continue;
      c->inRegion = true;
      c->global = tma::unravelIndex(e, r.globalSizes);
      for (size_t d = 0; d < c->global.size() && d < gOff.size(); ++d)
        c->global[d] += gOff[d];
    }
  }

  // The boxes, as the hardware model moves them.
  std::vector<std::set<int64_t>> boxChunks;
  std::vector<std::vector<int64_t>> boxLo, boxHi;
  if (p.plan && haveGrid) {
    const tma::TmaPlan &plan = *p.plan;
    if (r.symbolicGlobal) {
      notes.push_back("the global tensor has run-time sizes or strides: the "
                      "boxes are not drawn");
    } else if (std::optional<int64_t> moved = tma::planTransferBytes(plan);
               moved && *moved > kMaxElements * 8) {
      // What the boxes move (a plan written by hand may claim fewer bytes).
      notes.push_back("the copy moves more than " +
                      std::to_string(kMaxElements * 8) +
                      " bytes: the boxes are not drawn");
    } else {
      for (size_t i = 0; i < plan.issues.size(); ++i) {
        std::set<int64_t> chunks;
        std::vector<int64_t> lo, hi;
        int64_t mb = plan.map.elementBytes;
        std::optional<std::string> e =
            tma::walkBox(plan.map, plan.issues[i], r.direction, symbols, base,
                         [&](const tma::BoxElement &be) {
                           int64_t byte = be.sharedAddress - base;
                           chunks.insert(byte / 16);
                           for (int64_t b = 0; b < mb; b += eb) {
                             Cell *c = grid.find(byte + b);
                             if (!c)
                               continue;
                             c->box = static_cast<int>(i);
                             c->oob = !be.touchesGlobal;
                             if (!c->inRegion)
                               continue;
                             if (lo.empty()) {
                               lo = hi = c->global;
                               for (int64_t &h : hi)
                                 ++h;
                             }
                             for (size_t d = 0; d < lo.size(); ++d) {
                               lo[d] = std::min(lo[d], c->global[d]);
                               hi[d] = std::max(hi[d], c->global[d] + 1);
                             }
                           }
                         });
        if (e)
          notes.push_back("the hardware model rejects issue " +
                          std::to_string(i) + ": " + *e);
        boxChunks.push_back(std::move(chunks));
        boxLo.push_back(std::move(lo));
        boxHi.push_back(std::move(hi));
      }
    }
  }
  for (const std::string &n : notes)
    svg.text(6, y += kLineH, n, "fill=\"#a00\"");

  int top = y + 24;
  if (haveGrid)
    drawGrid(svg, grid, top, /*copy=*/true);
  int gridBottom = top + (haveGrid ? grid.rows() * kRowH : 0);

  // Box outlines: the edges of each box's chunk set, inset by 1.5 px.
  for (size_t b = 0; b < boxChunks.size(); ++b) {
    const std::set<int64_t> &set = boxChunks[b];
    if (set.empty())
      continue;
    std::string path;
    auto has = [&](int64_t k) { return set.count(k) != 0; };
    for (int64_t k : set) {
      if (k >= grid.drawnBytes / 16)
        continue;
      double x0 = kLeft + (k % 8) * kChunkW, y0 = top + (k / 8) * kRowH;
      double x1 = x0 + kChunkW, y1 = y0 + kRowH;
      double in = 1.5;
      bool leftEdge = k % 8 == 0 || !has(k - 1);
      bool rightEdge = k % 8 == 7 || !has(k + 1);
      if (!has(k - 8))
        path += "M" + num(x0) + " " + num(y0 + in) + "H" + num(x1);
      if (!has(k + 8))
        path += "M" + num(x0) + " " + num(y1 - in) + "H" + num(x1);
      if (leftEdge)
        path += "M" + num(x0 + in) + " " + num(y0) + "V" + num(y1);
      if (rightEdge)
        path += "M" + num(x1 - in) + " " + num(y0) + "V" + num(y1);
    }
    std::vector<int64_t> coords;
    for (const tma::SymExpr &c : p.plan->issues[b].coords)
      coords.push_back(c.evaluate(symbols));
    std::string chunkList;
    for (int64_t k : set)
      chunkList += (chunkList.empty() ? "" : " ") + std::to_string(k);
    const char *colour = kBoxColours[b % kNumBoxColours];
    svg.body +=
        "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + colour +
        "\" stroke-width=\"2.5\" data-box=\"" + std::to_string(b) +
        "\" data-coords=\"" + joinComma(coords) + "\" data-smem=\"" +
        std::to_string(p.plan->issues[b].smemByteOffset.evaluate(symbols)) +
        "\" data-chunks=\"" + chunkList + "\"/>\n";
    int64_t first = *set.begin();
    if (first < grid.drawnBytes / 16)
      svg.text(static_cast<int>(kLeft + (first % 8) * kChunkW + kChunkW - 22),
               static_cast<int>(top + (first / 8) * kRowH + 14),
               "#" + std::to_string(b),
               std::string("fill=\"") + colour + "\" font-weight=\"bold\"", 10);
  }

  // Legend.
  int ly = gridBottom + 20;
  if (p.plan) {
    const tma::TensorMapDesc &m = p.plan->map;
    std::vector<int64_t> box(m.boxDim.begin(), m.boxDim.end());
    std::vector<int64_t> dims(m.globalDim.begin(), m.globalDim.end());
    svg.text(6, ly,
             "tensor map: " + std::string(tma::toString(m.dataType)) +
                 ", rank " + std::to_string(m.rank) + ", global dims " +
                 formatList(dims) + ", box " + formatList(box) + ", swizzle " +
                 toString(m.swizzle) + " (innermost first)");
    for (size_t b = 0; b < p.plan->issues.size(); ++b) {
      std::vector<int64_t> coords;
      for (const tma::SymExpr &c : p.plan->issues[b].coords)
        coords.push_back(c.evaluate(symbols));
      svg.text(6, ly += kLineH,
               "#" + std::to_string(b) + " box at coords " +
                   formatList(coords) + ", shared +" +
                   std::to_string(
                       p.plan->issues[b].smemByteOffset.evaluate(symbols)) +
                   " B" +
                   (b < boxChunks.size()
                        ? ", " + std::to_string(boxChunks[b].size()) + " chunks"
                        : ""),
               std::string("fill=\"") + kBoxColours[b % kNumBoxColours] + "\"");
    }
    bool anyOob = false;
    for (const Cell &c : grid.cells)
      anyOob = anyOob || c.oob;
    if (anyOob)
      svg.text(6, ly += kLineH,
               r.direction == tma::Direction::GlobalToShared
                   ? "hatched = out of the tensor, filled by the TMA"
                   : "hatched = out of the tensor, not written",
               "fill=\"#333\"");
    ly += kLineH;
  }
  svg.height = ly;
  if (haveGrid || !r.globalShape.empty()) {
    int left = kLeft + kGridW + kPanelGap;
    if (!r.symbolicGlobal && gOff.size() == r.globalShape.size() &&
        r.globalSizes.size() == r.globalShape.size())
      drawGlobalPanel(svg, r, gOff, boxLo, boxHi, left, top);
    svg.width = std::max(svg.width, left + kPanelW + 20);
  }
  svg.width = std::max(svg.width, kLeft + kGridW + 10);
  return svg.finish("copy");
}

} // namespace tile::draw
