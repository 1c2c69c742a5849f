"""The offline install of docs/python.md into the virtual environments a
Python user has: a plain venv (no system packages, so no `wheel`), one with
system site packages, and one from which setuptools was removed, for each
CPython on the machine (Debian's and the first `python3` on PATH, which need
not be Debian's). Each installed package is imported from outside the
checkout and plans a copy with its own copy of the C API library."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import SRC


def interpreters():
    found = []
    for candidate in (sys.executable, "/usr/bin/python3",
                      shutil.which("python3")):
        if not candidate or not os.path.exists(candidate):
            continue
        real = os.path.realpath(subprocess.run(
            [candidate, "-c", "import sys; print(sys.executable)"],
            capture_output=True, text=True, check=True).stdout.strip())
        if real not in [r for r, _ in found]:
            found.append((real, candidate))
    return [candidate for _, candidate in found]


PLAN = """
import os, tile_mlir, tile_mlir._capi as c
plan = tile_mlir.plan(tile_mlir.SharedBuffer((8, 256), "(8, 4, 64) : "
                                           "(64, 512, 1), swizzle = 128B"),
                      tile_mlir.GlobalTensor((8, 256), "f16"))
print(plan.box_dim)
print(c.find_library(c.CAPI_NAME))
print(os.path.isfile(os.path.join(os.path.dirname(tile_mlir.__file__),
                                  "py.typed")))
"""


def venv_python(tmp_path, interpreter, kind):
    venv = tmp_path / "venv"
    args = [interpreter, "-m", "venv", str(venv)]
    if kind == "system-site-packages":
        args.insert(3, "--system-site-packages")
    subprocess.run(args, check=True, capture_output=True)
    python = str(venv / "bin" / "python")
    if kind == "no-setuptools":
        subprocess.run([python, "-m", "pip", "uninstall", "-q", "-y",
                        "setuptools"], check=True, capture_output=True)
    return python


@pytest.mark.parametrize("kind", ["plain", "system-site-packages",
                                  "no-setuptools"])
@pytest.mark.parametrize("interpreter", interpreters())
def test_offline_install(tmp_path, build, interpreter, kind):
    python = venv_python(tmp_path, interpreter, kind)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "TILE_BUILD_DIR", "TILE_MLIR_LIB_DIR",
                        "LD_LIBRARY_PATH", "PIP_FIND_LINKS")}
    if kind == "plain":
        # What the issue was: a venv without `wheel` could not build.
        probe = subprocess.run([python, "-c", "import wheel"],
                               capture_output=True, env=env)
        assert probe.returncode != 0
    install = subprocess.run(
        [python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
         os.path.join(SRC, "python")], cwd=tmp_path,
        env=dict(env, TILE_BUILD_DIR=build), capture_output=True, text=True)
    assert install.returncode == 0, install.stdout + install.stderr
    run = subprocess.run([python, "-c", PLAN], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    box, library, typed = run.stdout.split("\n")[:3]
    assert box == "[64, 8, 4]"
    assert typed == "True"  # PEP 561: the package says it is typed
    assert library.startswith(str(tmp_path / "venv"))
    assert library.endswith("/tile_mlir/_lib/libTileCAPI.so")


def test_missing_build_names_the_library(tmp_path):
    """Without a build the install stops with the path it looked for, not a
    traceback."""
    python = venv_python(tmp_path, "/usr/bin/python3", "plain")
    env = dict(os.environ, TILE_BUILD_DIR=str(tmp_path / "nowhere"))
    install = subprocess.run(
        [python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
         os.path.join(SRC, "python")], cwd=tmp_path, env=env,
        capture_output=True, text=True)
    assert install.returncode != 0
    assert ("tile_mlir: %s not found: build tile-mlir first or set "
            "TILE_BUILD_DIR" % (tmp_path / "nowhere" / "lib" / "CAPI" /
                                "libTileCAPI.so")) in install.stderr + \
        install.stdout
    assert "Traceback" not in install.stderr


def test_wheel_contents(tmp_path, build, monkeypatch):
    """The wheel: the sources, both libraries, and metadata naming every
    file with its hash."""
    sys.path.insert(0, os.path.join(SRC, "python", "build_backend"))
    try:
        import tile_mlir_build
    finally:
        sys.path.pop(0)
    monkeypatch.setenv("TILE_BUILD_DIR", build)
    name = tile_mlir_build.build_wheel(str(tmp_path))
    import zipfile
    with zipfile.ZipFile(tmp_path / name) as wheel:
        names = wheel.namelist()
        record = wheel.read("tile_mlir-0.1.0.dist-info/RECORD").decode()
        metadata = wheel.read("tile_mlir-0.1.0.dist-info/METADATA").decode()
    assert name.startswith("tile_mlir-0.1.0-py3-none-linux_")
    assert "tile_mlir/_lib/libTileCAPI.so" in names
    assert "tile_mlir/_lib/libtile_runtime.so" in names
    assert "tile_mlir/compiler.py" in names
    assert "tile_mlir/_session.py" in names
    assert "tile_mlir/py.typed" in names
    for entry in names:
        assert entry in record
    assert "Requires-Python: >=3.9" in metadata.splitlines()


def test_editable_wheel_points_at_the_typed_source(tmp_path):
    """The editable wheel's .pth puts the source folder on the path: the
    package imported from there has its py.typed."""
    sys.path.insert(0, os.path.join(SRC, "python", "build_backend"))
    try:
        import tile_mlir_build
    finally:
        sys.path.pop(0)
    name = tile_mlir_build.build_editable(str(tmp_path))
    import zipfile
    with zipfile.ZipFile(tmp_path / name) as wheel:
        [pth] = [n for n in wheel.namelist() if n.endswith(".pth")]
        [folder] = wheel.read(pth).decode().split()
    assert os.path.isfile(os.path.join(folder, "tile_mlir", "py.typed"))
    assert os.path.isfile(os.path.join(folder, "tile_mlir", "__init__.py"))
