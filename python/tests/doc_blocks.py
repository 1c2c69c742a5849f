"""The code blocks of a Markdown page, and running them.

``python`` blocks run on any machine; ``python gpu`` blocks need a CUDA
device. :func:`run_page` runs a page's blocks in order in one namespace
(from the checkout's root): all of them where `gpu` is true, else the
``python`` ones, with the ``python gpu`` ones only compiled. As a script it
runs pages on a GPU machine: ``python doc_blocks.py docs/python.md ...``.
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


def main():
    sys.path.insert(0, os.path.join(SRC, "python"))
    failed = 0
    for page in sys.argv[1:]:
        try:
            ran, _ = run_page(os.path.abspath(page), gpu=True,
                              report=lambda name: print("PASS", name))
        except Exception as error:  # report the page, go on with the next
            failed += 1
            print("FAIL %s: %r" % (page, error))
    print("doc blocks: %d pages failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
