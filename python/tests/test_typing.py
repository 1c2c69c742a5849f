"""The package's annotations (it ships ``py.typed``): they resolve at run
time with typing.get_type_hints, on this interpreter and on every other
CPython found here (the oldest supported, 3.9, included where one is), and
the public API is annotated in full (typing_check.py)."""

import glob
import os
import shutil
import subprocess
import sys

import pytest

import tile_mlir
import typing_check
from conftest import SRC


def test_annotations_resolve_and_are_complete():
    assert typing_check.problems() == []


def test_every_exported_name_is_checked():
    checked = {obj for _, obj, _ in typing_check.callables()}
    for name in tile_mlir.__all__:
        assert getattr(tile_mlir, name) in checked, name
    # Methods and properties too.
    assert tile_mlir.Layout.offset_of in checked
    assert tile_mlir.Layout.shape.fget in checked
    assert tile_mlir.Plan.to_svg in checked


def test_checker_finds_problems(monkeypatch):
    """A `X | Y` annotation, an annotation naming nothing and a public
    function without annotations are each reported."""
    from tile_mlir import layout

    def newer(x: "int | None") -> "Missing":  # noqa: F821
        return x

    def bare(x):
        return x

    for name, fn in (("newer", newer), ("bare", bare)):
        fn.__module__ = layout.__name__
        monkeypatch.setattr(layout, name, fn, raising=False)
    monkeypatch.setattr(typing_check, "_generated", lambda fn: False)
    found = typing_check.problems()
    assert any(p.startswith("tile_mlir.layout.newer: get_type_hints fails")
               for p in found), found
    assert "tile_mlir.layout.bare: not annotated: x, return" in found


def test_py_typed_is_in_the_package():
    package = os.path.dirname(tile_mlir.__file__)
    assert os.path.isfile(os.path.join(package, "py.typed"))


def interpreters():
    """(version, path) of the CPython >= 3.9 interpreters on this machine
    that run, each once."""
    candidates = [sys.executable, "/usr/bin/python3",
                  shutil.which("python3"), shutil.which("python3.9")]
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(pyenv, "versions", "3.9*",
                                                "bin", "python3")))
    found = {}
    for candidate in candidates:
        if not candidate or not os.path.exists(candidate):
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys; print(sys.version_info[:2] >= "
             "(3, 9), '%d.%d' % sys.version_info[:2], sys.executable)"],
            capture_output=True, text=True)
        if probe.returncode != 0:
            continue
        supported, version, real = probe.stdout.split()
        if supported == "True":
            found.setdefault(os.path.realpath(real), (version, candidate))
    return sorted(found.values())


@pytest.mark.parametrize("version, interpreter", interpreters())
def test_annotations_resolve_on(version, interpreter):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run(
        [interpreter, os.path.join(SRC, "python", "tests", "typing_check.py")],
        capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 problems (Python %s." % version in proc.stdout
