"""tile_mlir.plan against the report pass (tile-opt
--tile-report-copy-plans) on the same copies."""

import json
import os

import pytest

import tile_mlir
from tile_mlir import GlobalTensor, SharedBuffer, TileDeclined
from tile_mlir.plan import IM2COL_FIELDS, TENSOR_MAP_FIELDS

DEMO_LAYOUT = "#tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>"
SW64 = "(64, 64) : (64, 1), swizzle = 128B"


def report_lines(tile_opt, path=None, source=None):
    """The report pass's lines for a file or for MLIR text."""
    out = tile_opt(path or "-", "--tile-report-copy-plans", "-o",
                   os.devnull, stdin=source)
    return [json.loads(line) for line in out.splitlines()]


def without_loc(report):
    return {k: v for k, v in report.items() if k != "loc"}


def check_plan_fields(plan, report):
    """Every report field is on the plan object, with the report's value."""
    assert plan.report == report
    assert plan.direction == report["direction"]
    assert plan.selected == "tma"
    assert plan.declined == report["declined"]
    for key, value in report["tensor_map"].items():
        assert getattr(plan, key) == value
    assert [list(i) for i in plan.issues] == [
        [i["smem_byte_offset"], i["coords"]] for i in report["issues"]]
    assert [tuple(g) for g in plan.guards] == [
        (g["rule"], g["expr"]) for g in report["guards"]]
    assert plan.bytes == report["bytes"]


def test_demo(tile_opt, src):
    """The reference demo's copy, described in Python, plans exactly as the
    report pass plans the demo file."""
    [expected] = report_lines(
        tile_opt, os.path.join(src, "examples", "copy_async_tma.mlir"))
    plan = tile_mlir.plan(SharedBuffer((8, 256), DEMO_LAYOUT),
                          GlobalTensor((8, 256), "f16"))
    assert without_loc(plan.report) == without_loc(expected)
    check_plan_fields(plan, plan.report)
    assert plan.rank == 3
    assert plan.global_dim == [64, 8, 4]
    assert plan.global_strides == [512, 128]
    assert plan.box_dim == [64, 8, 4]
    assert plan.swizzle == 3
    assert plan.issues == [tile_mlir.Issue(0, [0, 0, 0])]
    assert plan.guards == [] and plan.bytes == 4096


CASES = {
    "store": (GlobalTensor((8, 256), "f16"),
              SharedBuffer((8, 256), DEMO_LAYOUT), {}),
    "partial-oob": (SharedBuffer((4, 64)), GlobalTensor((8, 64), "i32"),
                    {"src_offsets": (6, 32)}),
    "reduce-add": (GlobalTensor((8, 64), "i32"), SharedBuffer((8, 64)),
                   {"reduce": "add"}),
    "dynamic": (SharedBuffer((64, 64), SW64),
                GlobalTensor((None, None), "f16"),
                {"src_offsets": (None, 0)}),
    "dynamic-strided": (SharedBuffer((64, 64), SW64),
                        GlobalTensor((64, None), "bf16", strides=(None, 1),
                                     offset=None),
                        {"src_offsets": (0, 64)}),
    "cut-row": (SharedBuffer((2, 512), "(2, 512) : (512, 1)"),
                GlobalTensor((None, None), "f32"), {}),
    "nan-fill": (SharedBuffer((64, 64), SW64), GlobalTensor((100, 128),
                                                            "f16"),
                 {"src_offsets": (64, 64), "oob": "nan",
                  "cache_hint": "evict_first"}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_answer_as_report_pass(tile_opt, name):
    dst, src, options = CASES[name]
    source = tile_mlir.copy_source(dst, src, **options)
    [expected] = report_lines(tile_opt, source=source)
    plan = tile_mlir.plan(dst, src, **options)
    assert without_loc(plan.report) == without_loc(expected)
    check_plan_fields(plan, plan.report)


def test_dynamic_fields():
    dst, src, options = CASES["dynamic"]
    plan = tile_mlir.plan(dst, src, **options)
    assert plan.global_dim == [None, None]
    assert plan.global_strides == [None]
    assert plan.issues == [tile_mlir.Issue(0, [0, None])]
    assert tile_mlir.Guard("global-align", "address % 16 == 0") in plan.guards
    assert {g.rule for g in plan.guards} == {"global-dim", "global-stride",
                                             "global-align"}


@pytest.mark.parametrize("dst, src, options, rule, reason", [
    # A transposed shared tile: the elementwise rule.
    (SharedBuffer((64, 32), "(64, 32) : (1, 64)"),
     GlobalTensor((32, 64), "f16"), {}, "elementwise",
     "elementwise: the shared stride-1 run of 64 elements has global stride "
     "64; the TMA reads the innermost dimension contiguously"),
    # A run-time inner offset not known to be 16-byte aligned.
    (SharedBuffer((64, 64), SW64), GlobalTensor((None, None), "f16"),
     {"src_offsets": (None, None)}, "inner-coord-align",
     "inner-coord-align: inner coordinate s1 x 2 B is not provably a "
     "multiple of 16 B"),
    # Rows of 100 f16: 200 bytes apart.
    (SharedBuffer((64, 64), SW64), GlobalTensor((100, 100), "f16"), {},
     "global-stride",
     "global-stride: dimension 1 stride 200 B is not a multiple of 16"),
])
def test_declined(tile_opt, dst, src, options, rule, reason):
    with pytest.raises(TileDeclined) as info:
        tile_mlir.plan(dst, src, **options)
    assert info.value.rule == rule
    assert str(info.value) == reason
    [expected] = report_lines(tile_opt, source=tile_mlir.copy_source(
        dst, src, **options))
    assert without_loc(info.value.report) == without_loc(expected)
    assert {"variant": "tma", "reason": reason, "rule": rule} in \
        expected["declined"]
    assert expected["selected"] == "simt"


def test_plan_is_a_frozen_dataclass():
    """Plan(report, source): every other field read from the report, none
    assignable after; plans compare and hash by identity."""
    import dataclasses
    shared = SharedBuffer((8, 256), DEMO_LAYOUT)
    plan = tile_mlir.plan(shared, GlobalTensor((8, 256), "f16"))
    assert plan.source == tile_mlir.copy_source(shared,
                                                GlobalTensor((8, 256), "f16"))
    fields = {f.name: f for f in dataclasses.fields(tile_mlir.Plan)}
    assert [n for n, f in fields.items() if f.init] == ["report", "source"]
    assert set(TENSOR_MAP_FIELDS + IM2COL_FIELDS) <= set(fields)
    again = tile_mlir.Plan(plan.report, plan.source)
    declined = tile_mlir.Plan(dict(plan.report, selected="simt",
                                   tensor_map=None, issues=[], guards=[]))
    for each in (plan, again, declined):
        for name in fields:  # every field is set
            getattr(each, name)
    assert (again.box_dim, again.issues, again.to_svg()) == (
        plan.box_dim, plan.issues, plan.to_svg())
    assert (declined.tensor_map, declined.box_dim, declined.mode,
            declined.issues, declined.source) == (None, None, "tile", [],
                                                  None)
    with pytest.raises(ValueError, match="no source to draw from"):
        declined.to_svg()
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.source = None
    assert plan == plan and plan != again
    assert len({plan, again}) == 2
    assert repr(plan) == "Plan(%s)" % json.dumps(plan.report)
    moved = dataclasses.replace(plan, source=None)
    assert moved.box_dim == plan.box_dim and moved.source is None


def test_invalid_copy():
    with pytest.raises(ValueError, match="nan-fill-type: NaN fill needs"):
        tile_mlir.plan(SharedBuffer((8, 64)), GlobalTensor((8, 64), "i32"),
                       oob="nan")
    with pytest.raises(TypeError, match="one side must be a GlobalTensor"):
        tile_mlir.plan(SharedBuffer((8, 64)), SharedBuffer((8, 64)))
    with pytest.raises(ValueError, match="2 strides for a shape of rank 1"):
        GlobalTensor((8,), "f16", strides=(1, 1))


def test_query_many(tile_opt, src):
    """query() answers every copy of a module, as the report pass does."""
    path = os.path.join(src, "test", "Transforms", "report-copy-plans.mlir")
    with open(path) as f:
        source = f.read()
    expected = report_lines(tile_opt, path)
    got = tile_mlir.query(source)
    assert len(got) == len(expected) == 6
    assert [without_loc(r) for r in got] == [without_loc(r) for r in expected]


def random_case(rng):
    """A random copy between a global tensor and a shared buffer: the
    region's sizes, a row-major or swizzled shared layout, a padded global
    tensor and an offset region (sometimes past the edge), a load or a
    store."""
    dtype = rng.choice(["f16", "bf16", "f32", "i8", "f64", "i32"])
    size = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1, "f64": 8, "i32": 4}[dtype]
    rank = rng.randint(1, 3)
    sizes = [rng.choice([1, 2, 4, 8, 16]) for _ in range(rank - 1)]
    sizes.append(rng.choice([8, 16, 32, 64, 128]) * 16 // size // 8 or 1)
    swizzle = None
    if rank >= 2 and rng.random() < 0.5:
        swizzle = rng.choice(["32B", "64B", "128B"])
        sizes[-1] = int(swizzle[:-1]) // size
    layout = tile_mlir.Layout(tuple(sizes), swizzle=swizzle)
    shape = tuple(s * rng.choice([1, 2, 3]) + rng.choice([0, 0, 3])
                  for s in sizes)
    load = rng.random() < 0.5
    # A load may run past the edge (zero fill); a store stays inside.
    offsets = tuple(rng.randrange(0, d - s + (2 if load else 1))
                    for d, s in zip(shape, sizes))
    tensor = GlobalTensor(shape, dtype)
    shared = SharedBuffer(tuple(sizes), layout)
    if load:
        return shared, tensor, {"src_offsets": offsets}
    return tensor, shared, {"dst_offsets": offsets}


def test_random_copies_answer_like_report_pass(tile_opt):
    """Random copies (fixed seed): plan() gives the report pass's answer,
    field for field, whether the TMA takes the copy or declines it."""
    import random
    rng = random.Random(2026)
    taken = declined = 0
    for _ in range(60):
        dst, src, options = random_case(rng)
        source = tile_mlir.copy_source(dst, src, **options)
        [expected] = report_lines(tile_opt, source=source)
        try:
            plan = tile_mlir.plan(dst, src, **options)
        except TileDeclined as error:
            declined += 1
            assert without_loc(error.report) == without_loc(expected)
            assert expected["declined"][0]["reason"].startswith(error.rule + ": ")
            continue
        taken += 1
        assert without_loc(plan.report) == without_loc(expected)
        check_plan_fields(plan, plan.report)
    # The seed covers both answers.
    assert taken >= 15 and declined >= 15, (taken, declined)
