"""The package's annotations, checked at run time: every annotation of
every function, method, property and class of ``tile_mlir`` resolves with
:func:`typing.get_type_hints` (the modules use ``from __future__ import
annotations``, so an annotation is evaluated only there, and must be valid
on every supported CPython, 3.9 included: no ``X | Y``), and every public
callable is annotated in full.

Imported by test_typing.py; as a script (``python typing_check.py``, with
the package on the path) it checks the interpreter that runs it and prints
one line per problem, exiting non-zero when there is any. Needs nothing
but the package (no pytest, no compiler library)."""

import importlib
import inspect
import os
import pkgutil
import sys
import typing

PACKAGE = "tile_mlir"
# Public callables allowed to lack annotations (none today).
UNANNOTATED: set = set()


def modules():
    """Every module of the package, the package first."""
    package = importlib.import_module(PACKAGE)
    found = [package]
    for info in pkgutil.iter_modules(package.__path__):
        found.append(importlib.import_module("%s.%s" % (PACKAGE,
                                                         info.name)))
    return found


def _own(obj, module_name):
    return getattr(obj, "__module__", None) == module_name


def callables():
    """(qualified name, function, public) of every function, method and
    property getter defined in the package, and (name, class, public) of
    every class (for its field annotations). `public`: reached through
    names without a leading underscore (dunder methods count as public)."""
    seen, out = set(), []

    def public(name):
        return not name.startswith("_") or (name.startswith("__")
                                            and name.endswith("__"))

    def add(qualname, obj, is_public):
        if id(obj) not in seen:
            seen.add(id(obj))
            out.append((qualname, obj, is_public))

    for module in modules():
        for name, obj in vars(module).items():
            if not _own(obj, module.__name__):
                continue
            qualname = "%s.%s" % (module.__name__, name)
            if inspect.isfunction(obj):
                add(qualname, obj, public(name))
            elif inspect.isclass(obj):
                add(qualname, obj, public(name))
                for attr, member in vars(obj).items():
                    if isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    if isinstance(member, property):
                        member = member.fget
                    if inspect.isfunction(member) and _own(
                            member, module.__name__):
                        add("%s.%s" % (qualname, attr), member,
                            public(name) and public(attr))
    return out


def _generated(function):
    """Whether `function` was written by the dataclass machinery (a frozen
    dataclass's ``__setattr__``), not in a file of the package."""
    folder = os.path.dirname(importlib.import_module(PACKAGE).__file__)
    return not os.path.abspath(function.__code__.co_filename).startswith(
        folder + os.sep)


def problems():
    """What is wrong with the package's annotations, one line each."""
    found = []
    for qualname, obj, is_public in callables():
        try:
            hints = typing.get_type_hints(obj)
        except Exception as error:  # NameError, TypeError, SyntaxError
            found.append("%s: get_type_hints fails: %r" % (qualname, error))
            continue
        raw = getattr(obj, "__annotations__", {})
        for key, text in raw.items():
            if isinstance(text, str) and "|" in text:
                found.append("%s: %s: %r needs Python 3.10 (use Union or "
                             "Optional)" % (qualname, key, text))
        if (not inspect.isfunction(obj) or not is_public
                or qualname in UNANNOTATED or _generated(obj)):
            continue
        params = list(inspect.signature(obj).parameters.values())
        if "." in obj.__qualname__ and params and params[0].name in (
                "self", "cls"):
            params = params[1:]
        missing = [p.name for p in params if p.name not in hints]
        if "return" not in hints:
            missing.append("return")
        if missing:
            found.append("%s: not annotated: %s" % (qualname,
                                                     ", ".join(missing)))
    return found


def main():
    sys.path.insert(0, os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    found = problems()
    for line in found:
        print(line)
    print("%s: %d callables checked, %d problems (Python %s)"
          % (PACKAGE, len(callables()), len(found),
             ".".join(map(str, sys.version_info[:3]))))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
