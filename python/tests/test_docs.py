"""Runs every code block of docs/python.md and docs/tutorial.md: the shell
block of python.md (the offline install into a fresh venv) in a scratch
folder, the Python blocks of each page in order in one namespace (the
``python gpu`` ones only where torch has CUDA; doc_blocks.py)."""

import os
import subprocess

import pytest

from conftest import SRC
from doc_blocks import blocks as page_blocks
from doc_blocks import run_page

DOC = os.path.join(SRC, "docs", "python.md")
TUTORIAL = os.path.join(SRC, "docs", "tutorial.md")


def blocks(language):
    return [code for _, code in page_blocks(DOC, language)]


def cuda_available():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.fixture
def doc_cache(tmp_path, monkeypatch):
    """The pages compile into a cache of their own."""
    from tile_mlir import compiler
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    compiler._memo.clear()
    yield
    compiler._memo.clear()


@pytest.mark.parametrize("page, cpu_blocks, gpu_blocks",
                         [(DOC, 18, 2), (TUTORIAL, 6, 3)])
def test_python_blocks(doc_cache, page, cpu_blocks, gpu_blocks):
    gpu = cuda_available()
    ran, compiled = run_page(page, gpu=gpu)
    assert (ran, compiled) == ((cpu_blocks + gpu_blocks, 0) if gpu
                               else (cpu_blocks, gpu_blocks))


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
    # The installed package compiles and loads a module on its own: the
    # runtime it links against is in the package too.
    demo = os.path.join(SRC, "examples", "copy_async_tma.mlir")
    compiled = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "python"), "-c",
         "import tile_mlir, tile_mlir._capi as c; "
         "m = tile_mlir.compile(%r); print(m.plans[0].box_dim); "
         "print(c.find_library('libtile_runtime.so'))" % demo],
        cwd=tmp_path, env=dict(env, TILE_MLIR_CACHE_DIR=str(tmp_path / "c")),
        capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    box, runtime = compiled.stdout.split("\n")[:2]
    assert box == "[64, 8, 4]"
    assert runtime == os.path.join(os.path.dirname(module), "_lib",
                                   "libtile_runtime.so")


def test_tutorial_kernel_excerpts():
    """The tutorial's MLIR excerpts are the example's text, verbatim."""
    with open(os.path.join(SRC, "examples", "dynamic_tiled_copy.mlir"),
              encoding="utf-8") as handle:
        example = handle.read()
    excerpts = [code for _, code in page_blocks(TUTORIAL, "mlir")]
    assert len(excerpts) == 2
    for code in excerpts:
        assert code in example
