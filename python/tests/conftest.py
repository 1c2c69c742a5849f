"""Shared fixtures: the checkout, its build tree and tile-opt."""

import os
import subprocess

import pytest

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))


def build_dir():
    """The build tree `make test` passes (TILE_BUILD_DIR), else build/."""
    return os.path.abspath(os.environ.get("TILE_BUILD_DIR")
                           or os.path.join(SRC, "build"))


@pytest.fixture(scope="session")
def src():
    return SRC


@pytest.fixture(scope="session")
def build():
    return build_dir()


@pytest.fixture(scope="session")
def tile_opt(build):
    """Runs tile-opt with `args` and returns its standard output."""
    tool = os.path.join(build, "bin", "tile-opt")
    if not os.path.isfile(tool):
        pytest.fail("tile-opt not built: %s" % tool)

    def run(*args, stdin=None):
        proc = subprocess.run([tool] + list(args), input=stdin,
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout
    return run
