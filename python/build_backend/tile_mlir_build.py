"""The package's PEP 517 build backend, written with the standard library
alone, so that ``pip install --no-build-isolation --no-index ./python``
works offline in any CPython >= 3.9 environment, whether or not setuptools
and wheel are installed there.

A wheel holds the ``tile_mlir`` sources (``py.typed`` with them: the
package is typed, PEP 561) and, under ``tile_mlir/_lib/``, the
two libraries the package loads with ctypes (``libTileCAPI.so``,
``libtile_runtime.so``), copied from the tile-mlir build tree:
``$TILE_BUILD_DIR``, else the ``build/`` folder beside this package's
folder. The package holds no Python extension, so the wheel is tagged
``py3-none-<platform>``: one build serves every Python 3. An editable
install (``pip install -e``) puts the source folder on the path instead;
the package then finds the libraries in the build tree itself.
"""

import base64
import hashlib
import io
import os
import re
import sys
import sysconfig
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)  # the python/ folder
PACKAGE = "tile_mlir"
LIBRARIES = [("lib/CAPI", "libTileCAPI.so"),
             ("lib/Runtime", "libtile_runtime.so")]
# Where the sources of an sdist come from, relative to PROJECT.
SDIST_FILES = ["pyproject.toml", "README.md", "build_backend/tile_mlir_build.py"]


class BuildError(Exception):
    """A wheel that cannot be built, with the reason."""


def _project_table():
    """The string fields of pyproject.toml's [project] table (the only ones
    the metadata needs), read without a TOML library (3.9 and 3.10 have
    none)."""
    fields, table = {}, None
    with open(os.path.join(PROJECT, "pyproject.toml"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            header = re.match(r"^\[([^\]]+)\]$", line)
            if header:
                table = header.group(1).strip()
                continue
            value = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*"([^"]*)"$', line)
            if table == "project" and value:
                fields[value.group(1)] = value.group(2)
    for key in ("name", "version"):
        if key not in fields:
            raise BuildError("pyproject.toml: [project] has no %s" % key)
    return fields


def _dist_name(fields):
    return re.sub(r"[-_.]+", "_", fields["name"])


def _metadata(fields):
    lines = ["Metadata-Version: 2.1", "Name: " + fields["name"],
             "Version: " + fields["version"]]
    if "description" in fields:
        lines.append("Summary: " + fields["description"])
    if "requires-python" in fields:
        lines.append("Requires-Python: " + fields["requires-python"])
    readme = fields.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(PROJECT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _platform_tag():
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: tile_mlir_build\n"
            "Root-Is-Purelib: false\nTag: %s\n" % tag)


def _build_dir():
    return os.environ.get("TILE_BUILD_DIR") or os.path.join(
        os.path.dirname(PROJECT), "build")


def _package_files():
    """(path in the wheel, path on disk) of the package's sources and its
    ``py.typed`` marker."""
    root = os.path.join(PROJECT, PACKAGE)
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "_lib"))
        for name in sorted(names):
            if name.endswith((".py", ".typed")):
                path = os.path.join(folder, name)
                files.append((os.path.relpath(path, PROJECT).replace(
                    os.sep, "/"), path))
    return files


def _library_files():
    build = _build_dir()
    files = []
    for folder, name in LIBRARIES:
        path = os.path.join(build, folder, name)
        if not os.path.isfile(path):
            raise BuildError("tile_mlir: %s not found: build tile-mlir first "
                             "or set TILE_BUILD_DIR" % path)
        files.append(("%s/_lib/%s" % (PACKAGE, name), path))
    return files


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (name, digest.rstrip(b"=").decode(), len(data))


def _write_wheel(directory, contents, fields):
    """Writes a wheel of `contents` ((name in the wheel, bytes, mode)) and
    its dist-info; returns the wheel's file name."""
    dist = _dist_name(fields)
    tag = "py3-none-" + _platform_tag()
    info = "%s-%s.dist-info" % (dist, fields["version"])
    contents = list(contents) + [
        (info + "/METADATA", _metadata(fields).encode(), 0o644),
        (info + "/WHEEL", _wheel_file(tag).encode(), 0o644),
        (info + "/top_level.txt", (PACKAGE + "\n").encode(), 0o644)]
    record = [_record_line(name, data) for name, data, _ in contents]
    record.append(info + "/RECORD,,")
    contents.append((info + "/RECORD", ("\n".join(record) + "\n").encode(),
                     0o644))
    wheel = "%s-%s-%s.whl" % (dist, fields["version"], tag)
    with zipfile.ZipFile(os.path.join(directory, wheel), "w",
                         zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in contents:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return wheel


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _fail(error):
    # pip shows the backend's stderr; a traceback would bury the reason.
    sys.stderr.write("%s\n" % error)
    raise SystemExit(1)


# PEP 517 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    try:
        fields = _project_table()
        contents = [(name, _read(path), 0o644)
                    for name, path in _package_files()]
        contents += [(name, _read(path), 0o755)
                     for name, path in _library_files()]
        return _write_wheel(wheel_directory, contents, fields)
    except BuildError as error:
        _fail(error)


def build_editable(wheel_directory, config_settings=None,
                   metadata_directory=None):
    """PEP 660: a wheel whose .pth file puts the source folder on the path;
    the package finds the libraries in the build tree."""
    try:
        fields = _project_table()
        pth = (PROJECT + "\n").encode()
        return _write_wheel(wheel_directory,
                            [("__editable__.%s.pth" % _dist_name(fields), pth,
                              0o644)], fields)
    except BuildError as error:
        _fail(error)


def build_sdist(sdist_directory, config_settings=None):
    try:
        fields = _project_table()
    except BuildError as error:
        _fail(error)
    base = "%s-%s" % (_dist_name(fields), fields["version"])
    files = [(name, os.path.join(PROJECT, name)) for name in SDIST_FILES]
    files += _package_files()
    pkg_info = _metadata(fields).encode()
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz",
                      format=tarfile.PAX_FORMAT) as archive:
        for arcname, path in files:
            archive.add(path, arcname="%s/%s" % (base, arcname),
                        recursive=False)
        entry = tarfile.TarInfo("%s/PKG-INFO" % base)
        entry.size = len(pkg_info)
        archive.addfile(entry, io.BytesIO(pkg_info))
    return name
