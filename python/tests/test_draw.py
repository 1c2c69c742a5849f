"""Pictures of layouts and plans from Python (tile_mlir.Layout.to_svg,
tile_mlir.Plan.to_svg) against the layout library, the plan and the
pictures tile-opt --tile-draw-copy-plans writes."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import tile_mlir
from tile_mlir import GlobalTensor, Layout, SharedBuffer

SVG = "{http://www.w3.org/2000/svg}"
DEMO_LAYOUT = "#tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>"


def index(text):
    return tuple(int(v) for v in text.split(","))


def elements(svg):
    """The element cells of a picture: a dict of their data attributes."""
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG + "svg"
    return [dict(r.attrib) for r in root.iter(SVG + "rect")
            if "data-element" in r.attrib]


def boxes(svg):
    root = ET.fromstring(svg.encode("utf-8"))
    return [dict(p.attrib) for p in root.iter(SVG + "path")
            if "data-box" in p.attrib]


def check_renders(src, tmp_path, svgs):
    """scripts/check-svg.py: valid XML, renders to PNG, consistent."""
    paths = []
    for n, svg in enumerate(svgs):
        path = tmp_path / ("picture%d.svg" % n)
        path.write_text(svg)
        paths.append(str(path))
    proc = subprocess.run([sys.executable,
                           os.path.join(src, "scripts", "check-svg.py")]
                          + paths, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count(": valid (") == len(svgs)


def test_layout_picture_places_elements_at_their_addresses(src, tmp_path):
    layout = Layout.parse(DEMO_LAYOUT)
    svg = layout.to_svg(element_bytes=2, shape=(8, 256))
    got = {(index(e["data-element"]), int(e["data-chunk"]))
           for e in elements(svg)}
    want = {((r, c), layout.address_of((r, c), 2, shape=(8, 256)) // 16)
            for r in range(8) for c in range(256)}
    assert got == want
    # docs/layout.md: element (1, 0) at byte 144, (0, 64) at byte 1024.
    assert ((1, 0), 9) in got and ((0, 64), 64) in got
    assert layout._repr_svg_() == layout.to_svg()
    check_renders(src, tmp_path, [svg])


def test_layout_picture_defaults_to_the_shards():
    svg = Layout((4, 8), swizzle=None).to_svg(element_bytes=4)
    got = {(index(e["data-element"]), int(e["data-chunk"]))
           for e in elements(svg)}
    assert got == {((r, c), (r * 8 + c) * 4 // 16)
                   for r in range(4) for c in range(8)}


def test_layout_picture_errors():
    with pytest.raises(ValueError, match="element size 3 B does not divide"):
        Layout((8, 64), swizzle="128B").to_svg(element_bytes=3)
    with pytest.raises(ValueError, match=r"\(8, 64\)"):
        Layout((8, 64)).to_svg(shape=(7, 64))


def test_plan_picture_of_the_demo(src, tmp_path, tile_opt):
    shared = SharedBuffer((8, 256), DEMO_LAYOUT)
    plan = tile_mlir.plan(shared, GlobalTensor((8, 256), "f16"))
    svg = plan.to_svg()
    assert plan._repr_svg_() == svg
    cells = elements(svg)
    assert len(cells) == 2048
    assert all(c["data-box"] == "0" and "data-oob" not in c for c in cells)
    moved = {(index(c["data-global"]), int(c["data-chunk"])) for c in cells}
    assert ((1, 0), 9) in moved and ((0, 64), 64) in moved
    [box] = boxes(svg)
    assert index(box["data-coords"]) == tuple(plan.issues[0].coords)
    assert len(box["data-chunks"].split()) == 256
    # The same picture as the pass draws for the same copy, but for the
    # location in the title.
    source = tmp_path / "demo.mlir"
    source.write_text(tile_mlir.copy_source(shared,
                                            GlobalTensor((8, 256), "f16")))
    out = tmp_path / "pictures"
    tile_opt(str(source), "--tile-draw-copy-plans=output-dir=%s" % out,
             "-o", os.devnull)
    [name] = [n for n in os.listdir(out) if n.endswith(".svg")]
    from_pass = (out / name).read_text()
    assert elements(from_pass) == cells and boxes(from_pass) == [box]
    check_renders(src, tmp_path, [svg, from_pass])


def test_plan_picture_of_two_instructions():
    shared = SharedBuffer((2, 2, 2, 2, 64),
                          "(2, 2, 2, 2, 2, 32) : (256, 128, 64, 32, 512, 1), "
                          "swizzle = 64B")
    tensor = GlobalTensor((2, 2, 2, 2, 64), "f16",
                          strides=(736, 352, 160, 72, 1))
    plan = tile_mlir.plan(shared, tensor)
    assert len(plan.issues) == 2
    svg = plan.to_svg()
    drawn = boxes(svg)
    assert [index(b["data-coords"]) for b in drawn] == [
        tuple(i.coords) for i in plan.issues]
    assert [int(b["data-smem"]) for b in drawn] == [
        i.smem_byte_offset for i in plan.issues]
    for cell in elements(svg):
        column = index(cell["data-global"])[-1]
        assert cell["data-box"] == ("0" if column < 32 else "1")


def test_plan_picture_marks_out_of_bounds_elements(src, tmp_path):
    plan = tile_mlir.plan(SharedBuffer((8, 64), "(8, 64), swizzle = 128B"),
                          GlobalTensor((10, 64), "f16"), src_offsets=(4, 0))
    svg = plan.to_svg()
    filled = [index(c["data-global"]) for c in elements(svg)
              if c.get("data-oob") == "1"]
    assert sorted(filled) == [(r, c) for r in (10, 11) for c in range(64)]
    assert "filled by the TMA" in svg
    check_renders(src, tmp_path, [svg])
