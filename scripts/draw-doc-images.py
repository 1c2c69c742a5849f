#!/usr/bin/env python3
"""Draws the pictures of the docs' worked examples into a folder.

    scripts/draw-doc-images.py --build BUILD --out DIR

writes

- ``layout-demo.svg``: the 128B-swizzled 8x256 f16 layout of docs/layout.md
  (``tile_mlir.Layout.to_svg``, through the build's libTileCAPI.so);
- ``plan-demo.svg``: the reference demo's copy
  (examples/copy_async_tma.mlir) as ``tile-opt --tile-draw-copy-plans``
  draws it, for README.md and docs/plan-report.md.

``ninja -C build tile-doc-images`` writes them into docs/images/;
test/docs-images.test draws them again and compares, so the committed
pictures never drift from the code.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = "examples/copy_async_tma.mlir"
DEMO_LAYOUT = "#tile.layout<(8, 4, 64) : (64, 512, 1), swizzle = 128B>"


def draw_layout(build, out):
    env = dict(os.environ, TILE_BUILD_DIR=build)
    env.pop("TILE_MLIR_LIB_DIR", None)
    code = ("import sys; sys.path.insert(0, %r); import tile_mlir; "
            "sys.stdout.write(tile_mlir.Layout.parse(%r).to_svg("
            "element_bytes=2, shape=(8, 256)))"
            % (os.path.join(ROOT, "python"), DEMO_LAYOUT))
    svg = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    with open(os.path.join(out, "layout-demo.svg"), "w") as f:
        f.write(svg)


def draw_plan(build, out):
    with tempfile.TemporaryDirectory() as tmp:
        # Run from the checkout so the picture names the example by its
        # relative path.
        subprocess.run([os.path.join(build, "bin", "tile-opt"), DEMO,
                        "--tile-draw-copy-plans=output-dir=" + tmp, "-o",
                        os.devnull], cwd=ROOT, check=True)
        shutil.copyfile(os.path.join(tmp, "examples_copy_async_tma.mlir_33_9"
                                     ".svg"),
                        os.path.join(out, "plan-demo.svg"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    os.makedirs(args.out, exist_ok=True)
    draw_layout(build, args.out)
    draw_plan(build, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
