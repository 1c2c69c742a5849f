"""The code blocks of a Markdown page, and running them.

``python`` blocks run on any machine; ``python gpu`` blocks need a CUDA
device. :func:`run_page` runs a page's blocks in order in one namespace
(from the checkout's root): all of them where `gpu` is true, else the
``python`` ones, with the ``python gpu`` ones only compiled. As a script it
runs pages on a GPU machine: ``python doc_blocks.py docs/python.md ...``
(:func:`run_page_on_gpu`).
"""

import os
import re
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
_BLOCK = re.compile(r"^```(\w+)((?: \w+)*)\n(.*?)^```$",
                    re.MULTILINE | re.DOTALL)


def blocks(path, language):
    """(tags, code) of every block of `language` in the page at `path`."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return [(tags.split(), code) for lang, tags, code in _BLOCK.findall(text)
            if lang == language]


def run_page(path, gpu=False, report=None):
    """Runs the page's Python blocks; returns (ran, compiled only)."""
    namespace = {}
    ran = compiled = 0
    cwd = os.getcwd()
    os.chdir(SRC)
    try:
        for number, (tags, code) in enumerate(blocks(path, "python")):
            name = "%s:python block %d" % (os.path.relpath(path, SRC),
                                           number + 1)
            program = compile(code, name, "exec")
            if "gpu" in tags and not gpu:
                compiled += 1
                continue
            exec(program, namespace)
            ran += 1
            if report:
                report(name)
    finally:
        os.chdir(cwd)
    return ran, compiled


def run_page_on_gpu(path):
    """Runs every block of a page in order, where a GPU is and the compiler
    may not be (modules come from the compile cache): a ``python`` block
    that needs the compiler's library stops where it calls it, reported as
    SKIP, as is a later ``python`` block that needs a name it would have
    defined; anything else failing is a FAIL. Returns (passed, skipped,
    failed)."""
    namespace = {}
    counts = [0, 0, 0]
    cwd = os.getcwd()
    os.chdir(SRC)
    try:
        for number, (tags, code) in enumerate(blocks(path, "python")):
            name = "%s:python block %d%s" % (os.path.relpath(path, SRC),
                                             number + 1,
                                             " (gpu)" if "gpu" in tags else "")
            try:
                exec(compile(code, name, "exec"), namespace)
            except OSError as error:
                if "gpu" in tags or "libTileCAPI.so" not in str(error):
                    raise
                counts[1] += 1
                print("SKIP %s: needs the compiler library" % name)
                continue
            except NameError as error:
                # A name a skipped block would have defined.
                if "gpu" in tags or not counts[1]:
                    raise
                counts[1] += 1
                print("SKIP %s: needs a skipped block (%s)" % (name, error))
                continue
            except Exception as error:  # report it, go on with the page
                counts[2] += 1
                print("FAIL %s: %r" % (name, error))
                continue
            counts[0] += 1
            print("PASS %s" % name)
    finally:
        os.chdir(cwd)
    return tuple(counts)


def main():
    sys.path.insert(0, os.path.join(SRC, "python"))
    total = [0, 0, 0]
    for page in sys.argv[1:]:
        for i, n in enumerate(run_page_on_gpu(os.path.abspath(page))):
            total[i] += n
    print("doc blocks: %d passed, %d skipped, %d failed" % tuple(total))
    return 1 if total[2] else 0


if __name__ == "__main__":
    sys.exit(main())
