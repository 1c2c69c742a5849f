"""The errors tile_mlir raises: about a program (:class:`TileError` and its
subclasses :class:`TileCompileError`, and :class:`TileDeclined` in
:mod:`tile_mlir.plan`) and about a run (:class:`TileRuntimeError`,
:class:`NoDriverError`)."""

from __future__ import annotations

from typing import Iterable, List, NamedTuple, Optional


class Diagnostic(NamedTuple):
    """One compiler diagnostic: `location` ("file:line:col", or "" where the
    compiler has none), `severity` ("error", "warning", ...), `message`,
    `rule` (the id of the rule it reports, docs/rules.md, as the compiler
    hands it over; None for a diagnostic about no rule, e.g. a syntax error)
    and `notes` (their lines)."""

    location: str
    severity: str
    message: str
    rule: Optional[str]
    notes: List[str]


def parse_diagnostic(location: str, text: str,
                     rule: Optional[str] = None) -> Diagnostic:
    """A :class:`Diagnostic` from what mlirTileCompile hands back: a
    "diagnostic" product's location and text, and the rule id of the "rule"
    product that came right before it (None where none did)."""
    lines = text.split("\n")
    severity, _, message = lines[0].partition(": ")
    return Diagnostic(location, severity, message, rule, lines[1:])


def format_diagnostic(diag: Diagnostic) -> str:
    """`file:line:col: error: message`, then its notes, as the tools print."""
    head = "%s: %s" % (diag.severity, diag.message)
    if diag.location:
        head = "%s: %s" % (diag.location, head)
    return "\n".join([head] + list(diag.notes))


class TileError(Exception):
    """Base of the errors tile_mlir raises about a program."""


class TileCompileError(TileError):
    """A module did not compile. `diagnostics` lists every
    :class:`Diagnostic`; `location`, `rule` and `message` are the first
    error's (`rule` None where the message carries no rule id, e.g. a syntax
    error)."""

    def __init__(self, diagnostics: Iterable[Diagnostic],
                 summary: Optional[str] = None) -> None:
        self.diagnostics: List[Diagnostic] = list(diagnostics)
        errors = [d for d in self.diagnostics if d.severity == "error"]
        first = errors[0] if errors else None
        self.location: str = first.location if first else ""
        self.rule: Optional[str] = first.rule if first else None
        self.message: str = first.message if first else (summary or "")
        text = "\n".join(format_diagnostic(d) for d in self.diagnostics)
        super().__init__(text or summary or "compile failed")


class TileRuntimeError(RuntimeError):
    """A run failed: `status` is the runtime's status name
    ("TILE_ERROR_DRIVER", ...), the message the runtime's."""

    def __init__(self, message: str,
                 status: str = "TILE_ERROR_DRIVER") -> None:
        super().__init__(message)
        self.status: str = status


class NoDriverError(TileRuntimeError):
    """No CUDA driver (or no device) on this machine: nothing can launch."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "TILE_ERROR_NO_DRIVER")
