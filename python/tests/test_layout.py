"""tile_mlir.Layout against the C++ layout library and tile-opt."""

import re

import pytest

import tile_mlir
from tile_mlir import Layout

# The forms of docs/layout.md, as the dialect prints them.
DOC_LAYOUTS = [
    "#tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>",
    "#tile.layout<(8, 256)>",
    "#tile.layout<(256, 8) : (1, 256)>",
    "#tile.layout<(3, 128, 64) : (8192, 64, 1), swizzle = 128B>",
    "#tile.layout<(1, 128, 1, 64) : (0, 64, 0, 1)>",
    "#tile.layout<(32)>",
]


@pytest.mark.parametrize("text", DOC_LAYOUTS)
def test_round_trip(text):
    layout = Layout.parse(text)
    # Row-major strides print in the short form (as the dialect prints them:
    # test_same_text_as_tile_opt).
    assert str(layout) == text.replace(" : (8192, 64, 1)", "")
    assert Layout.parse(str(layout)) == layout
    # The bare syntax inside the brackets parses to the same value.
    assert Layout.parse(text[len("#tile.layout<"):-1]) == layout
    assert Layout(layout.shape, layout.stride, layout.swizzle) == layout


def test_same_text_as_tile_opt(tile_opt):
    """The dialect's printer and the package agree on every spelling,
    including the redundant explicit row-major strides."""
    inputs = DOC_LAYOUTS + [
        "#tile.layout<(8, 256) : (256, 1)>",
        "#tile.layout<(64, 64) : (64, 1), swizzle = 64B>",
        "#tile.layout<(2, 512) : (512, 1), swizzle = 32B>",
    ]
    args = ", ".join("%%a%d: memref<%s, %s>" % (
        i, "x".join(map(str, Layout.parse(t).shape)) + "xf16", t)
        for i, t in enumerate(inputs))
    printed = tile_opt("-", stdin="func.func @f(%s) {\n  return\n}\n" % args)
    ours = [str(Layout.parse(t)) for t in inputs]
    theirs = re.findall(r"#tile\.layout<[^>]*>", printed)
    assert theirs == ours


def test_constructor():
    assert str(Layout((8, 256))) == "#tile.layout<(8, 256)>"
    layout = Layout((8, 4, 64), stride=(64, 512, 1), swizzle="128B")
    assert layout.shape == (8, 4, 64)
    assert layout.stride == (64, 512, 1)
    assert layout.swizzle == "128B"
    assert layout.rank == 3 and layout.size == 2048 and layout.cosize == 2048
    assert Layout((8, 256), swizzle=128) == Layout((8, 256), swizzle="128B")
    assert Layout((4,), offset=3).offset == 3
    assert str(Layout((4,), offset=3)) == "#tile.layout<(4), offset = 3>"
    assert hash(Layout((8, 256))) == hash(Layout.parse("(8, 256)"))


@pytest.mark.parametrize("make, message", [
    (lambda: Layout((0, 8)), "shard 0 has extent 0"),
    (lambda: Layout((8, 4), stride=(0, 1)), "shard 0 has stride 0 but "
     "extent 8"),
    (lambda: Layout((8, 4), stride=(1,)), "2 extents but 1 strides"),
    (lambda: Layout((8,), swizzle="16B"), "unknown swizzle"),
    (lambda: Layout.parse("(8, 4"), "at column 6"),
    (lambda: Layout.parse("(8) : (1, 2)"), "stride count 2"),
    (lambda: Layout.parse("(8), swizzle = 16B"), "unknown swizzle '16B'"),
    (lambda: Layout.parse("#tile.layout<(8)"), "expected '>'"),
])
def test_invalid(make, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        make()


def test_worked_example():
    """docs/layout.md: the demo's 128B-swizzled 8x256 f16 tile."""
    layout = Layout.parse(DOC_LAYOUTS[0])
    shape = (8, 256)
    assert layout.offset_of((1, 0), shape=shape) == 64
    assert layout.address_of((1, 0), 2, shape=shape) == 144
    assert layout.offset_of((0, 64), shape=shape) == 512
    assert layout.address_of((0, 64), 2, shape=shape) == 1024
    # A flat index is row-major over the grouped shape.
    assert layout.address_of(256, 2) == 144
    # Per shard: (row, panel, column).
    assert layout.offset_of((0, 1, 0)) == 512


def reference_offset(shape, stride, offset, index):
    """The mixed-radix formula of docs/layout.md, innermost shard last."""
    result = offset
    for extent, step in reversed(list(zip(shape, stride))):
        result += (index % extent) * step
        index //= extent
    return result


def reference_address(swizzle_bits, byte):
    """docs/layout.md: bits [4, 4+B) XORed with bits [7, 7+B)."""
    mask = (1 << swizzle_bits) - 1
    return byte ^ (((byte >> 7) & mask) << 4)


@pytest.mark.parametrize("text", DOC_LAYOUTS[:4] + [
    "#tile.layout<(4, 2, 16) : (16, 64, 1), swizzle = 32B>",
    "#tile.layout<(16, 32) : (32, 1), swizzle = 64B>"])
def test_addresses_follow_the_formula(text):
    layout = Layout.parse(text)
    bits = {None: 0, "32B": 1, "64B": 2, "128B": 3}[layout.swizzle]
    base = 4096
    for index in range(0, layout.size, 7):
        offset = reference_offset(layout.shape, layout.stride, 0, index)
        assert layout.offset_of(index) == offset
        for element_bytes in (1, 2, 4):
            assert layout.address_of(index, element_bytes, base) == \
                reference_address(bits, base + offset * element_bytes)


def test_address_errors():
    layout = Layout.parse(DOC_LAYOUTS[0])
    with pytest.raises(ValueError, match="out of range"):
        layout.offset_of(2048)
    with pytest.raises(ValueError, match="out of range for size 256"):
        layout.offset_of((0, 256), shape=(8, 256))
    with pytest.raises(ValueError, match="cannot group shard extents"):
        layout.offset_of((0, 0), shape=(8, 100))
    with pytest.raises(ValueError, match="swizzle: .* divides 16 bytes"):
        layout.address_of(0, 3)
    with pytest.raises(ValueError, match="coordinates"):
        layout.offset_of((0, 0), shape=(8, 4, 64))


def test_library_search(monkeypatch, tmp_path):
    assert tile_mlir._capi.find_library("libTileCAPI.so").endswith(
        "libTileCAPI.so")
    monkeypatch.setenv("TILE_MLIR_LIB_DIR", str(tmp_path))
    with pytest.raises(OSError, match=re.escape(str(tmp_path))):
        tile_mlir._capi.find_library("libTileCAPI.so")


def test_planner_queries():
    """What the planner asks of a layout: its canonical shards, overlap,
    whether its swizzle holds an element type, and the chunk an element
    lands in."""
    demo = Layout((8, 4, 64), stride=(64, 512, 1), swizzle="128B")
    # The demo's shards are not contiguous neighbours: nothing fuses.
    assert demo.canonicalize() == demo
    assert Layout((4, 1, 8), stride=(8, 5, 1)).canonicalize() == Layout((32,))
    assert str(Layout((2, 3, 4), stride=(12, 4, 1)).canonicalize()) == \
        "#tile.layout<(24)>"
    assert not demo.has_overlap
    assert Layout((4, 4), stride=(1, 1)).has_overlap
    demo.check_swizzle(2)
    with pytest.raises(ValueError) as error:
        demo.check_swizzle(32)
    assert str(error.value) == ("swizzle: swizzle 128B needs an element size "
                                "that divides 16 bytes, got 32 bytes")
    # Row 1 of the 8x256 tile: 128 bytes in, chunk 0 XORed with 1.
    assert demo.chunk_of((1, 0), 2, shape=(8, 256)) == (1, 1)
    assert demo.chunk_of((1, 8), 2, shape=(8, 256)) == (1, 0)
    assert demo.chunk_of((7, 0), 2, shape=(8, 256)) == (7, 7)
    assert Layout((8, 64)).chunk_of((7, 0), 2) == (7, 0)
