"""Copies libTileCAPI.so and libtile_runtime.so from the tile-mlir build tree into the package
(``tile_mlir/_lib/``), so that an installed package finds it next to itself.

The build tree is ``$TILE_BUILD_DIR``, else the ``build/`` folder beside this
one. The package holds no Python extension: the library is loaded with
ctypes, so one build serves every Python 3 version.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARIES = [("lib/CAPI", "libTileCAPI.so"),
             ("lib/Runtime", "libtile_runtime.so")]


class BuildPyWithLibraries(build_py):
    """build_py, then the libraries into the built package."""

    def run(self):
        super().run()
        build = os.environ.get("TILE_BUILD_DIR") or os.path.join(
            os.path.dirname(HERE), "build")
        target = os.path.join(self.build_lib, "tile_mlir", "_lib")
        os.makedirs(target, exist_ok=True)
        for folder, name in LIBRARIES:
            path = os.path.join(build, folder, name)
            if not os.path.isfile(path):
                raise SystemExit("tile_mlir: %s not found: build tile-mlir "
                                 "first or set TILE_BUILD_DIR" % path)
            shutil.copy2(path, target)


setup(cmdclass={"build_py": BuildPyWithLibraries})
