"""Every command README.md shows runs somewhere: the lines of its `sh`
blocks run here, one test each, on the reference demo (with `input.mlir`,
`PREFIX` and `build/` standing for a copy of it, a scratch prefix and the
build tree); its MLIR snippet verifies and plans as the text says; and each
command it names inline is either run here or by CI, as the table below
says. A command added to the README without a place that runs it fails
`test_every_inline_command_runs`."""

import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import SRC

README = os.path.join(SRC, "README.md")
DEMO = os.path.join(SRC, "examples", "copy_async_tma.mlir")
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"

# Inline commands of the README and what runs each.
INLINE = {
    "make": "CI (`make test` and `make demo` build first)",
    "make test": "CI's test stage (scripts/ci.py)",
    "make demo": "CI's demo stage, its output checked (scripts/check-demo.py)",
    "make sanitize": "CI's sanitize stage (scripts/ci.py)",
    "make fuzz": "CI's fuzz stage, as `make fuzz FUZZ_CI=1` (scripts/ci.py)",
    "make fuzz FUZZ_CI=1": "CI's fuzz stage (scripts/ci.py)",
    "mlir-opt": "the plugin line of the sh block (test_sh_command)",
    "make mutation": "make test's mutation suite, narrowed to a sample "
                     "(scripts/run-tests.py)",
    "pip install --no-build-isolation --no-index ./python":
        "python/tests/test_install.py",
    "ninja -C build check-tile": "test_check_tile_target below",
}


def readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def sh_commands():
    """The command lines of the README's sh blocks, continuation lines
    joined and trailing comments dropped."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```$", readme(), re.M | re.S):
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line:
                commands.append(re.sub(r"\s+", " ", line))
    return commands


def inline_commands():
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```$", "", readme(),
                                              flags=re.M | re.S))
    return sorted({s for s in spans if re.match(
        r"^(make|cmake|ninja|pip|python3|mlir-opt|build/bin/)( |$)", s)})


def test_readme_lists_the_commands_this_file_knows():
    """The extraction itself: the README's sh blocks hold these commands."""
    assert sh_commands() == [
        "build/bin/tile-opt input.mlir",
        "build/bin/tile-opt input.mlir --tile-report-copy-plans -o /dev/null",
        "build/bin/tile-opt input.mlir --tile-draw-copy-plans=output-dir="
        "pictures -o /dev/null",
        "build/bin/tile-opt input.mlir --tile-gpu-pipeline",
        "build/bin/tile-opt input.mlir --tile-gpu-pipeline=format=bin",
        "cmake --install build --prefix PREFIX",
        "mlir-opt --load-dialect-plugin=build/lib/TilePlugin.so "
        "--load-pass-plugin=build/lib/TilePlugin.so "
        "--pass-pipeline='builtin.module(tile-gpu-pipeline)' input.mlir",
        "build/bin/tile-lsp-server",
    ]


def test_every_inline_command_runs():
    missing = [c for c in inline_commands() if c not in INLINE]
    assert not missing, ("README.md names commands nothing runs: %s (run "
                         "them in a test and add them to INLINE)" % missing)


def lsp_session():
    """initialize, shutdown and exit, framed as the protocol frames them."""
    out = b""
    for i, (method, params) in enumerate([
            ("initialize", {"processId": None, "rootUri": None,
                            "capabilities": {}}),
            ("shutdown", None), ("exit", None)]):
        message = {"jsonrpc": "2.0", "method": method}
        if method != "exit":
            message["id"] = i + 1
        if params is not None:
            message["params"] = params
        body = json.dumps(message).encode()
        out += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return out


def expected_output(command, tmp):
    """What a command's run must show, as (stdout pattern, file that must
    exist)."""
    if "--tile-report-copy-plans" in command:
        return r'"op":"tile\.copy_async","direction":"g2s","selected":"tma"', \
            None
    if "--tile-draw-copy-plans" in command:
        return None, os.path.join(tmp, "pictures", "index.html")
    if "tile-gpu-pipeline" in command:
        return r"gpu\.binary @copy_async_kernel", None
    if command.startswith("cmake --install"):
        return None, os.path.join(tmp, "prefix", "lib", "cmake", "TileMLIR",
                                  "TileMLIRConfig.cmake")
    if "tile-lsp-server" in command:
        return r'"capabilities"', None
    return r"tile\.copy_async %\w+\[0, 0\] \[8, 256\]", None


@pytest.mark.parametrize("command", sh_commands())
def test_sh_command(tmp_path, build, command):
    if "format=bin" in command and not shutil.which(
            "ptxas", path="/usr/local/cuda/bin:" + os.environ["PATH"]):
        pytest.skip("needs ptxas (the CUDA toolkit)")
    shutil.copy(DEMO, tmp_path / "input.mlir")
    run = command.replace("PREFIX", str(tmp_path / "prefix"))
    run = re.sub(r"(^| |=)build(/| )", lambda m: m.group(1) + build +
                 m.group(2), run)
    if run.startswith("mlir-opt "):
        run = MLIR_OPT + run[len("mlir-opt"):]
    stdin = lsp_session() if "tile-lsp-server" in run else None
    env = dict(os.environ, PATH="/usr/local/cuda/bin:" + os.environ["PATH"])
    proc = subprocess.run(["bash", "-c", run], cwd=tmp_path, input=stdin,
                          capture_output=True, env=env)
    output = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    pattern, path = expected_output(command, str(tmp_path))
    if pattern:
        assert re.search(pattern, output), output[:2000]
    if path:
        assert os.path.isfile(path)


def test_mlir_snippet(tile_opt):
    """The README's first block, in a kernel of its own, is the rank-3 TMA
    load the text says: global_dim and box [64, 8, 4], 128B swizzle."""
    [snippet] = re.findall(r"^```mlir\n(.*?)^```$", readme(), re.M | re.S)
    definitions = "\n".join(l for l in snippet.splitlines()
                            if l.startswith("#"))
    body = "\n".join(l for l in snippet.splitlines()
                     if not l.startswith("#"))
    module = """%s
func.func @snippet(%%A: memref<8x256xf16>,
    %%bar: !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>) {
  %%c0 = arith.constant 0 : index
%s
  return
}
""" % (definitions, body)
    [line] = tile_opt("--tile-report-copy-plans", "-o", "/dev/null", "-",
                      stdin=module).splitlines()
    report = json.loads(line)
    assert report["selected"] == "tma"
    m = report["tensor_map"]
    assert (m["rank"], m["global_dim"], m["box_dim"], m["swizzle"]) == \
        (3, [64, 8, 4], [64, 8, 4], 3)
    assert len(report["issues"]) == 1


def test_check_tile_target(build):
    """`ninja -C build check-tile` runs the lit suite (narrowed here to one
    test: make test runs them all)."""
    env = dict(os.environ, LIT_OPTS="--filter=offset-chains")
    proc = subprocess.run(["ninja", "-C", build, "check-tile"], env=env,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"Passed\s*:\s*1\b", proc.stdout), proc.stdout



def test_demo_check_fails_on_a_missing_line():
    """CI's demo check (scripts/check-demo.py) fails when the output lacks
    one of the lines the README promises, or when the demo failed."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "check_demo", os.path.join(SRC, "scripts", "check-demo.py"))
    check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check)
    good = "\n".join([
        '{"loc":"examples/copy_async_tma.mlir:33:9","op":"tile.copy_async",'
        '"direction":"g2s","selected":"tma","declined":[]}',
        "call tileTensorMapGetCached(data_type=6 (f16), rank=3, base=x)",
        "then: gpu.launch_func @k::@k",
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile [%rd1]",
        "skipped: tileRuntimeInit: no CUDA driver: cannot load libcuda.so.1"])
    assert all(ok for _, ok in check.check_output(0, good))
    assert [what for what, ok in check.check_output(2, good) if not ok] == \
        ["make demo exits 0"]
    no_ptx = good.replace("cp.async.bulk.tensor", "cp.async.bulk")
    assert [what for what, ok in check.check_output(0, no_ptx) if not ok] == \
        ["the PTX TMA instruction"]
    differs = good.replace("skipped: tileRuntimeInit: no CUDA driver",
                           "copy_async: B differs from A")
    assert [what for what, ok in check.check_output(0, differs) if not ok] \
        == ["the host program's run (exact on a GPU, a skip without a "
            "driver)"]
