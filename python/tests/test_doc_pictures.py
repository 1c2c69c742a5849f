"""The picture commands and images of README.md and docs/plan-report.md:
the documented commands run as written and draw the committed pictures."""

import os
import re
import shutil
import subprocess

from conftest import SRC


def sh_blocks(path):
    with open(os.path.join(SRC, path)) as f:
        text = f.read()
    return re.findall(r"^```sh\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)


def workspace(tmp_path, build):
    """A folder with build/ and examples/ as in the checkout."""
    os.symlink(build, tmp_path / "build")
    os.symlink(os.path.join(SRC, "examples"), tmp_path / "examples")
    return tmp_path


def run(command, cwd):
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", command],
                          cwd=cwd, capture_output=True, text=True)
    assert proc.returncode == 0, command + "\n" + proc.stderr


def test_plan_report_picture_command(tmp_path, build):
    [command] = [b for b in sh_blocks("docs/plan-report.md")
                 if "--tile-draw-copy-plans" in b]
    cwd = workspace(tmp_path, build)
    run(command, cwd)
    pictures = cwd / "pictures"
    assert sorted(os.listdir(pictures)) == [
        "examples_copy_async_tma.mlir_33_9.svg", "index.html"]
    # The committed picture is the one the documented command draws.
    with open(os.path.join(SRC, "docs", "images", "plan-demo.svg")) as f:
        assert (pictures / "examples_copy_async_tma.mlir_33_9.svg"
                ).read_text() == f.read()
    index = (pictures / "index.html").read_text()
    assert "<h2>examples/copy_async_tma.mlir:33:9</h2>" in index
    assert '<img src="examples_copy_async_tma.mlir_33_9.svg"' in index


def test_readme_picture_command(tmp_path, build):
    [line] = [l for b in sh_blocks("README.md") for l in b.splitlines()
              if "--tile-draw-copy-plans" in l]
    cwd = workspace(tmp_path, build)
    shutil.copyfile(os.path.join(SRC, "examples", "copy_async_tma.mlir"),
                    cwd / "input.mlir")
    run(line.split("#")[0], cwd)
    assert sorted(os.listdir(cwd / "pictures")) == [
        "index.html", "input.mlir_33_9.svg"]


def test_image_links_exist():
    for doc in ("README.md", "docs/layout.md", "docs/plan-report.md"):
        with open(os.path.join(SRC, doc)) as f:
            links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", f.read())
        assert links, doc
        for link in links:
            path = os.path.join(SRC, os.path.dirname(doc), link)
            assert os.path.isfile(path), "%s: %s" % (doc, link)
