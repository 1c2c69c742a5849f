#!/usr/bin/env python3
"""Random kernels through tile-opt: no input may crash it. Each case must
either lower or fail with a diagnostic. A case holds a tile.copy_async and a
tile.copy of random layouts, and now and then a tile.copy_im2col, a
tile.wgmma_descriptor, the wgmma register fragments (a_fragment,
register_a guarded or not, fence_operand), one of the sm_100a forms (cta_group, tile::gather4,
tile::scatter4), a tile.pipeline (random stages, forms, attributes and
misuses) and a device map (tile.device_map, an update to a random view,
staged in shared memory or not, fences or none, a copy through it; random
misuses), lowered for sm_90a or sm_100a.

    scripts/fuzz-tile-opt.py --tile-opt build/bin/tile-opt --cases 200 [--seed S]
"""
import argparse
import random
import subprocess
import sys

TYPES = [("f16", 2), ("bf16", 2), ("f32", 4), ("i8", 1), ("i32", 4),
         ("ui32", 4), ("f64", 8), ("i64", 8), ("f8E4M3FN", 1)]
SWIZZLES = [None, "32B", "64B", "128B"]


def rand_shape(rng, rank):
    return [rng.choice([1, 2, 4, 8, 16, 32, 64]) for _ in range(rank)]


def shared_layout(rng, shape, eb):
    """A #tile.layout for `shape`: row-major, permuted, padded or swizzled."""
    rank = len(shape)
    kind = rng.random()
    if kind < 0.4:
        swz = rng.choice(SWIZZLES)
        inner_bytes = shape[-1] * eb
        if swz and inner_bytes % 16 == 0:
            return "#tile.layout<(%s), swizzle = %s>" % (", ".join(map(str, shape)), swz), swz
        return "#tile.layout<(%s)>" % ", ".join(map(str, shape)), None
    order = list(range(rank))
    rng.shuffle(order)
    strides = [0] * rank
    s = 1
    for d in reversed(order):
        strides[d] = s
        s *= shape[d] + (rng.choice([0, 0, 1, 8]) if rng.random() < 0.3 else 0)
    for d in range(rank):
        if shape[d] == 1:
            strides[d] = 0 if rng.random() < 0.5 else strides[d]
    return "#tile.layout<(%s) : (%s)>" % (", ".join(map(str, shape)),
                                          ", ".join(map(str, strides))), None


def case(rng):
    ty, eb = rng.choice(TYPES)
    rank = rng.randint(1, 4)
    sshape = rand_shape(rng, rank)
    layout, swz = shared_layout(rng, sshape, eb)
    grank = rng.randint(1, 4)
    count = 1
    for e in sshape:
        count *= e
    # A global region with the same element count (a reshape), maybe offset.
    gsizes = [1] * grank
    rem = count
    for d in reversed(range(grank)):
        f = rng.choice([f for f in (1, 2, 4, 8, 16, 32, 64, 128, 256) if rem % f == 0])
        gsizes[d] = f if d > 0 else rem
        rem //= gsizes[d] if d > 0 else rem
    gshape = [g + rng.choice([0, 0, 8, 16]) for g in gsizes]
    goff = [rng.choice([0, 0, 1, 4, 8, -4]) for _ in range(grank)]
    load = rng.random() < 0.6
    attrs = []
    if load and rng.random() < 0.2 and ty in ("f16", "bf16", "f32", "f64"):
        attrs.append('oob = "nan"')
    if not load and rng.random() < 0.3:
        attrs.append('reduce = "%s"' % rng.choice(["add", "min", "max", "and", "xor", "inc"]))
    if rng.random() < 0.2:
        attrs.append('cache_hint = "evict_first"')
    if rng.random() < 0.15:
        attrs.append('dispatch = "%s"' % rng.choice(["tma", "simt"]))
    attr = (" {%s}" % ", ".join(attrs)) if attrs else ""
    smem = "memref<%sx%s, %s, #gpu.address_space<workgroup>>" % (
        "x".join(map(str, sshape)), ty, layout)
    gmem = "memref<%sx%s>" % ("x".join(map(str, gshape)), ty)
    soff = ", ".join(["0"] * rank)
    ssz = ", ".join(map(str, sshape))
    gof = ", ".join(map(str, goff if load else [0] * grank))
    gsz = ", ".join(map(str, gsizes))
    bars = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    if load:
        copy = ("tile.copy_async %%s[%s] [%s], %%g[%s] [%s] barrier(%%bar[%%c0])%s : %s, %s, %s"
                % (soff, ssz, gof, gsz, attr, smem, gmem, bars))
    else:
        copy = ("tile.copy_async %%g[%s] [%s], %%s[%s] [%s]%s : %s, %s"
                % (gof, gsz, soff, ssz, attr, gmem, smem))
    coll = ("tile.copy %%s[%s] [%s], %%g[%s] [%s] {scope = \"%s\"} : %s, %s"
            % (soff, ssz, ", ".join(["0"] * grank), gsz,
               rng.choice(["thread", "warp", "warpgroup", "cta"]), smem, gmem))
    offset = 1024 * rng.randint(0, 4)
    extra_args, extra_ops = [], []
    for make in (im2col_load, wgmma_descriptor, wgmma_fragments, sm100_form,
                 pipeline, device_map):
        if rng.random() < 0.3:
            args_text, ops_text = make(rng, offset + 65536)
            extra_args.append(args_text)
            extra_ops.append(ops_text)
    chip = rng.choice(["sm_90a", "sm_90a", "sm_100a"])
    return chip, """module attributes {gpu.container_module} {
  func.func @host(%%g: %s%s) {
    %%c1 = arith.constant 1 : index
    %%c128 = arith.constant 128 : index
    gpu.launch blocks(%%bx, %%by, %%bz) in (%%gx = %%c1, %%gy = %%c1, %%gz = %%c1)
               threads(%%tx, %%ty, %%tz) in (%%sx = %%c128, %%sy = %%c1, %%sz = %%c1) {
      %%c0 = arith.constant 0 : index
      %%s = tile.arena_view [%d] : %s
      %%bar = nvgpu.mbarrier.create -> %s
      %s
      %s
%s
      gpu.terminator
    }
    return
  }
}
""" % (gmem, "".join(", " + a for a in extra_args if a), offset, smem, bars, copy,
       coll, "\n".join(extra_ops))


def im2col_load(rng, arena):
    """A tile.copy_im2col of random rank, channels, corners, traversal
    strides and offsets (in range or not): (host argument, kernel ops)."""
    ty, eb = rng.choice([("f16", 2), ("bf16", 2), ("f32", 4), ("i8", 1)])
    rank = rng.randint(3, 5)
    spatial = rank - 2
    # Mostly a load the rules accept (whole 16-byte pixels, corners and
    # strides in range), so that it reaches the lowering; else anything.
    valid = rng.random() < 0.7
    dims = [rng.choice([1, 2])] + [rng.choice([3, 5, 9, 17])
                                   for _ in range(spatial)]
    if valid:
        dims.append(rng.choice([16, 32, 64, 128]) // eb)
        channels = dims[-1]
        swz = "" if channels * eb > 128 else rng.choice(
            ["", ", swizzle = 128B"])
    else:
        dims.append(rng.choice([4, 8, 16, 32, 64, 128]))
        channels = rng.choice([dims[-1], 8, 16, 64, 256, 300])
        swz = rng.choice(["", ", swizzle = 64B", ", swizzle = 128B"])
    pixels = rng.choice([8, 16, 32, 64, 128])
    tile = ("memref<%dx%dx%s, #tile.layout<(%d, %d)%s>, "
            "#gpu.address_space<workgroup>>" % (pixels, channels, ty, pixels,
                                                channels, swz))
    tensor = "memref<%sx%s>" % ("x".join(map(str, dims)), ty)
    corner = lambda: rng.choice(  # noqa: E731
        [-1, 0] if valid else [-1, -1, 0, -2, 1, -129, 200])
    lower = [corner() for _ in range(spatial)]
    upper = [corner() for _ in range(spatial)]
    attrs = ["lower = array<i64: %s>" % ", ".join(map(str, lower)),
             "upper = array<i64: %s>" % ", ".join(map(str, upper))]
    if rng.random() < 0.3:
        attrs.append("strides = array<i64: %s>" % ", ".join(
            str(rng.choice([1, 2] if valid else [1, 2, 8, 9]))
            for _ in range(spatial)))
    if rng.random() < 0.2:
        attrs.append('oob = "nan"')
    offsets = ", ".join("%%c%d" % rng.choice([0, 1, 2]) for _ in range(spatial))
    coords = ", ".join(["%c0"] + ["%%c%d" % rng.choice([0, 1, 2])
                                  for _ in range(spatial)] + ["%c0"])
    bars = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    ops = """      %%c2 = arith.constant 2 : index
      %%im = tile.arena_view [%d] : %s
      tile.copy_im2col %%im, %%x[%s] offsets [%s] barrier(%%bar[%%c0])
          {%s} : %s, %s, %s""" % (arena, tile, coords, offsets, ", ".join(attrs),
                                  tile, tensor, bars)
    return "%%x: %s" % tensor, ops


def wgmma_descriptor(rng, arena):
    """A tile.wgmma_descriptor of a random operand layout and start."""
    ty = rng.choice(["bf16", "f16", "f32", "i8", "f8E4M3FN"])
    rows, cols = rng.choice([(64, 64), (128, 64), (64, 32), (64, 128)])
    swz = rng.choice(["", ", swizzle = 32B", ", swizzle = 64B",
                      ", swizzle = 128B"])
    order = rng.choice(["(%d, 1)" % cols, "(1, %d)" % rows])
    buf = ("memref<%dx%dx%s, #tile.layout<(%d, %d) : %s%s>, "
           "#gpu.address_space<workgroup>>" % (rows, cols, ty, rows, cols,
                                               order, swz))
    ops = """      %%c1d = arith.constant %d : index
      %%wb = tile.arena_view [%d] : %s
      %%wd = tile.wgmma_descriptor %%wb[%%c0, %%c1d] {rows = %d, k = %d} : %s -> i64""" % (
        rng.choice([0, 8, 16, 3]), arena + 32768, buf, rng.choice([64, 128]),
        rng.choice([8, 16, 32]), buf)
    return None, ops


def wgmma_fragments(rng, arena):
    """The register-fragment ops: an f32 accumulator of random N (in range
    or not), tile.wgmma_a_fragment of a random k-step, tile.wgmma_register_a
    with a B descriptor of random major and rows, guarded (`if`) or not,
    and tile.wgmma_fence_operand on both values."""
    # Mostly what the verifiers accept, so that it reaches the lowering.
    valid = rng.random() < 0.6
    n = rng.choice([16, 32, 64, 128, 256] + ([] if valid else [8, 24, 264]))
    acc = "!llvm.struct<(%s)>" % ", ".join(["f32"] * (n // 2))
    el = rng.choice(["bf16", "f16"])
    frag = "vector<8x%s>" % el
    step = rng.randrange(n // 16) if valid else rng.choice(
        [0, n // 16, -1, 99])
    major = rng.choice(["k", "mn"])
    rows = n if valid else rng.choice([n, 64, 128])
    b_el = el if valid else rng.choice(["f16", "bf16"])
    # K-major B: N rows of 16 elements; MN-major: 16 rows of N.
    shape = (rows, 16) if major == "k" else (16, max(rows, 8))
    buf = ("memref<%dx%dx%s, #tile.layout<(%d, %d), swizzle = 32B>, "
           "#gpu.address_space<workgroup>>" % (shape + (b_el,) + shape))
    guard = " if %wg_issue" if rng.random() < 0.5 else ""
    ops = """      %%wg_acc = llvm.mlir.zero : %s
      %%wg_a = tile.wgmma_a_fragment %%wg_acc[%d] : %s -> %s
      %%wg_buf = tile.arena_view [%d] : %s
      %%wg_b = tile.wgmma_descriptor %%wg_buf[%%c0, %%c0] {rows = %d, k = 16, major = #tile.wgmma_major<%s>} : %s -> i64
      %%wg_issue = arith.cmpi eq, %%bx, %%c0 : index
      nvvm.wgmma.fence.aligned
      %%wg_d = tile.wgmma_register_a %%wg_a, %%wg_b, %%wg_acc%s {b_major = #tile.wgmma_major<%s>} : %s, %s
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 0
      %%wg_dh = tile.wgmma_fence_operand %%wg_d : %s
      %%wg_ah = tile.wgmma_fence_operand %%wg_a : %s""" % (
        acc, step, acc, frag, arena + 49152, buf, rows, major, buf, guard,
        major if valid else rng.choice(["k", "mn"]), frag, acc, acc, frag)
    return None, ops


def sm100_form(rng, arena):
    """A cta_group = 2 load or a tile::gather4 / scatter4 copy (sm_100a
    only: diagnosed elsewhere)."""
    t = ("memref<4x64xf16, #tile.layout<(4, 64)>, "
         "#gpu.address_space<workgroup>>")
    table = "memref<256x64xf16>"
    bars = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    kind = rng.choice(["cta_group", "gather4", "scatter4"])
    head = """      %%t4 = tile.arena_view [%d] : %s
      %%r0 = arith.constant %d : index""" % (arena + 49152, t,
                                              rng.choice([0, 3, 255, 256]))
    if kind == "cta_group":
        op = ("tile.copy_async %%t4[0, 0] [4, 64], %%tb[0, 0] [4, 64] "
              "barrier(%%bar[%%c0]) {cta_group = %d : i32} : %s, %s, %s"
              % (rng.choice([1, 2, 3]), t, table, bars))
    elif kind == "gather4":
        op = ("tile.copy_async %%t4[0, 0] [4, 64], %%tb[0, 0] [4, 64] "
              "rows(%%r0, %%r0, %%c0, %%r0) barrier(%%bar[%%c0]) : %s, %s, %s"
              % (t, table, bars))
    else:
        op = ("tile.copy_async %%tb[0, 0] [4, 64], %%t4[0, 0] [4, 64] "
              "rows(%%r0, %%c0, %%r0, %%r0) : %s, %s" % (table, t))
    return "%%tb: %s" % table, head + "\n      " + op


def device_map(rng, arena):
    """A device map of a global template, pointed at a random view (right or
    wrong type), with or without fences, and a load or a store through it
    (of the template or, now and then, of another buffer)."""
    ty = rng.choice(["bf16", "f32", "i8"])
    cols = rng.choice([64, 128, 48])
    templ = "memref<?x%dx%s>" % (cols, ty)
    view_cols = cols if rng.random() < 0.8 else cols // 2
    vstride = cols if rng.random() < 0.85 else cols + 16
    view = "memref<?x%dx%s, strided<[%d, 1], offset: ?>>" % (view_cols, ty,
                                                             vstride)
    box = rng.choice([(64, 64), (32, 16), (8, cols)])
    tile_t = ("memref<%dx%dx%s, #tile.layout<(%d, %d)>, "
              "#gpu.address_space<workgroup>>" % (box[0], box[1], ty, box[0],
                                                  box[1]))
    mtype = "!tile.device_map<%s>" % templ
    ops = ["      %%dmt = tile.arena_view [%d] : %s" % (arena + 98304, tile_t)]
    if rng.random() < 0.9:
        ops.append("      %%dm = tile.device_map %%dmg : %s" % templ)
    else:  # misplaced: inside a loop
        ops.append("      scf.for %%dmi = %%c0 to %%c1 step %%c1 {\n"
                   "        %%dmx = tile.device_map %%dmg : %s\n      }" % templ)
        ops.append("      %%dm = tile.device_map %%dmg : %s" % templ)
    ops.append("      %%dmc = arith.constant %d : index" %
               rng.choice([0, 1, 64, 100]))
    ops.append("      %%dmv = memref.reinterpret_cast %%dmg to offset: [%%dmc], "
               "sizes: [%%dmc, %d], strides: [%d, 1] : %s to %s"
               % (view_cols, vstride, templ, view))
    order = rng.choice(["update-copy", "copy-update", "copy-only"])
    update = ("      %%dmok = tile.device_map_update %%dm to %%dmv : %s, %s"
              % (mtype, view))
    fences = ("      tile.device_map_release %%dm : %s\n"
              "      tile.device_map_acquire %%dm : %s" % (mtype, mtype))
    if rng.random() < 0.3:
        # Staged in shared memory: a stage of 128 bytes (or not), on a
        # 128-byte boundary (or not); the update releases the map itself.
        stage = "memref<%s, #gpu.address_space<workgroup>>" % rng.choice(
            ["128xi8", "128xi8", "32xf32", "64xi8"])
        ops.insert(0, "      %%dms = tile.arena_view [%d] : %s"
                   % (arena + 131072 + rng.choice([0, 0, 0, 64]), stage))
        update = ("      %%dmok = tile.device_map_update %%dm to %%dmv staged "
                  "in %%dms : %s, %s, %s" % (mtype, view, stage))
        fences = "      tile.device_map_acquire %%dm : %s" % mtype
    other = rng.random() < 0.1
    glob = "%dmo" if other else "%dmg"
    load = rng.random() < 0.5
    bars = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    if load:
        copy = ("      tile.copy_async %%dmt[0, 0] [%d, %d], %s[0, 0] [%d, %d] "
                "barrier(%%bar[%%c0]) through(%%dm : %s) : %s, %s, %s"
                % (box[0], box[1], glob, box[0], box[1], mtype, tile_t, templ,
                   bars))
    else:
        copy = ("      tile.copy_async %s[0, 0] [%d, %d], %%dmt[0, 0] [%d, %d] "
                "through(%%dm : %s) : %s, %s\n"
                "      tile.bulk_commit_group\n      tile.bulk_wait_group 0"
                % (glob, box[0], box[1], box[0], box[1], mtype, templ,
                   tile_t))
    if order == "update-copy":
        ops.append(update)
        if rng.random() < 0.5:
            ops.append(fences)
        ops.append(copy)
    elif order == "copy-update":
        ops += [copy, update]
    else:
        ops.append(copy)
    args_text = "%%dmg: %s" % templ
    if other:
        args_text += ", %%dmo: %s" % templ
    return args_text, "\n".join(ops)


def pipeline(rng, arena):
    """A tile.pipeline: random stage count and buffer, form, attributes, trip
    count, and now and then a misuse its verifier must diagnose (a load with
    its own barrier, a store in produce, a write of a stage in consume)."""
    ty, eb = rng.choice([("f32", 4), ("f16", 2), ("i8", 1), ("bf16", 2)])
    stages = rng.choice([0, 1, 2, 3, 4])
    rows, cols = rng.choice([(8, 64), (4, 16), (16, 128), (1, 8), (3, 5)])
    ws = "#gpu.address_space<workgroup>"
    ring = "memref<%dx%dx%dx%s, %s>" % (stages, rows, cols, ty, ws)
    view = "memref<%dx%dx%s, %s>" % (rows, cols, ty, ws)
    table = "memref<?x%dx%s>" % (cols, ty)
    attrs = ["consumers = %d" % rng.choice([0, 0, 0, 0, 1, 2, 3])]
    if rng.random() < 0.5:
        attrs.append("reads = #tile.consumer_reads<%s>"
                     % rng.choice(["generic", "wgmma"]))
    if rng.random() < 0.4:
        attrs.append("in_flight = %d" % rng.choice([0, 1, 2, 4]))
    if rng.random() < 0.2:
        attrs.append("producer_registers = %d" % rng.choice([24, 40, 41]))
        attrs.append("consumer_registers = %d" % rng.choice([232, 256, 100]))
    # The persistent form over a few work tiles, the consumers sharing every
    # tile or taking them in turn.
    persistent = rng.random() < 0.3
    if rng.random() < 0.3:
        attrs.append("schedule = #tile.consumer_schedule<%s>"
                     % rng.choice(["cooperative", "pingpong"]))
    tiles, lead = ("", "")
    if persistent:
        tiles, lead = (" tiles(%pw)", "%%pt_%s: index, ")
    misuse = rng.choice([None] * 6 + ["barrier", "store", "write"])
    load = ("tile.copy_async %%pv[0, 0] [%d, %d], %%pt[%%pr, 0] [%d, %d]"
            % (rows, cols, rows, cols))
    if misuse == "barrier":
        load += " barrier(%%bar[%%c0]) : %s, %s, " \
            "!nvgpu.mbarrier.group<memorySpace = %s>" % (view, table, ws)
    elif misuse == "store":
        load = ("tile.copy_async %%pt[%%pr, 0] [%d, %d], %%pv[0, 0] [%d, %d] "
                ": %s, %s" % (rows, cols, rows, cols, table, view))
    else:
        load += " : %s, %s" % (view, table)
    write = ""
    if misuse == "write":
        write = ("        %%pz = arith.constant %s : %s\n"
                 "        memref.store %%pz, %%cv[%%c0, %%c0] : %s\n"
                 % ("0" if ty == "i8" else "0.0", ty, view))
    ops = """      %%pn = arith.constant %d : index
      %%pw = arith.constant %d : index
      %%ps = tile.arena_view [%d] : %s
      tile.pipeline (%%pn)%s stages(%%ps : %s) attributes {%s} produce {
      ^bb0(%s%%pk: index, %%pv: %s):
        %%prows = arith.constant %d : index
        %%pr = arith.muli %%pk, %%prows : index
        %s
        tile.yield
      } consume {
      ^bb0(%s%%ck: index, %%cv: %s, %%cc: index):
%s        tile.yield
      } epilogue {
      ^bb0(%s%%ec: index):
        tile.yield
      }""" % (rng.choice([0, 1, 2, 5]), rng.choice([0, 1, 3, 4]),
              arena + 98304, ring, tiles, ring, ", ".join(attrs),
              lead % "p" if lead else "", view, rows, load,
              lead % "c" if lead else "", view, write,
              lead % "e" if lead else "")
    return "%%pt: %s" % table, ops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tile-opt", default="build/bin/tile-opt")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    outcomes = {"lowered": 0, "diagnosed": 0}
    for i in range(args.cases):
        chip, src = case(rng)
        # The kernels do not wait for their copies, so the protocol check
        # runs on its own and the lowering without it.
        for flags in (["--tile-report-copy-plans", "-o", "/dev/null"],
                      ["--tile-verify-async", "-o", "/dev/null"],
                      ["--tile-gpu-pipeline=format=none verify-async=false "
                       "chip=" + chip, "-o", "/dev/null"]):
            p = subprocess.run([args.tile_opt, "-"] + flags, input=src, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            crashed = p.returncode < 0 or "Stack dump" in p.stderr or \
                "PLEASE submit a bug report" in p.stderr
            if crashed or (p.returncode != 0 and "error:" not in p.stderr):
                print("CRASH (case %d, seed %d, %s):\n%s\n%s" %
                      (i, args.seed, flags[0], src, p.stderr[-2000:]))
                return 1
        outcomes["lowered" if p.returncode == 0 else "diagnosed"] += 1
    print("%d cases (seed %d): %d lowered, %d diagnosed, 0 crashes" %
          (args.cases, args.seed, outcomes["lowered"], outcomes["diagnosed"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
