"""Runs every code block of docs/python.md: the shell block (the offline
install into a fresh venv) in a scratch folder, the Python blocks in order
in one namespace."""

import os
import re
import subprocess

from conftest import SRC

DOC = os.path.join(SRC, "docs", "python.md")


def blocks(language):
    with open(DOC) as f:
        text = f.read()
    return re.findall(r"^```%s\n(.*?)^```$" % language, text,
                      re.MULTILINE | re.DOTALL)


def test_python_blocks():
    found = blocks("python")
    assert len(found) >= 6
    namespace = {}
    for number, code in enumerate(found):
        exec(compile(code, "%s:python block %d" % (DOC, number + 1), "exec"),
             namespace)


def test_install_block(tmp_path, build):
    """The install as documented, then an import from outside the checkout
    with no library path in the environment."""
    [script] = blocks("sh")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "TILE_BUILD_DIR", "TILE_MLIR_LIB_DIR",
                        "LD_LIBRARY_PATH")}
    env.update(SRC=SRC, BUILD=build, PATH="/usr/bin:/bin")
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", script],
                          cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "#tile.layout<(8, 256)>"
    site = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "python"), "-c",
         "import tile_mlir, tile_mlir._capi as c; print(tile_mlir.__file__); "
         "print(c.find_library(c.CAPI_NAME))"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    module, library = site.stdout.split()
    assert module.startswith(str(tmp_path / "venv"))
    assert library == os.path.join(os.path.dirname(module), "_lib",
                                   "libTileCAPI.so")
