"""Compiler diagnostics of ``rlc``, as typed records that render like gcc's.

``rlc`` writes gcc-style messages::

    pages/main.rl:10:6: error: no known member cellz in struct Board
        b.cellz[row.value] = 1
         ^
    pages/main.rl:1:1: remark: Candidate: (Int) -> Int

A ``remark`` belongs to the error before it. The echoed source lines are dropped and
re-read from the page itself, so a record renders the same wherever it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_MESSAGE = re.compile(
    r"^(?P<file>[^\s:][^:\n]*?):(?P<line>\d+):(?P<col>\d+):?\s+"
    r"(?P<severity>error|warning|remark|note):\s*(?P<text>.*)$"
)

ONE_ERROR_NOTE = "rlc stops at its first error, so more may follow: fix this and compile again"
"""Said after a compile that rlc failed: the list of errors is not complete."""


MAX_REMARKS_SHOWN = 8
"""Remarks (``Candidate: ...``) rendered under a diagnostic; rlc can list a hundred."""


@dataclass(frozen=True)
class Remark:
    """A note attached to a diagnostic (``remark: Candidate: ...``)."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: remark: {self.message}"


@dataclass(frozen=True)
class Diagnostic:
    """One compiler message mapped to a page file, line and column.

    ``file`` is workspace-relative (``pages/board.rl``) for rule pages; other files
    (the rl standard library, the runtime) keep the path ``rlc`` printed.
    """

    file: str
    line: int
    column: int
    message: str
    severity: str = "error"
    remarks: tuple[Remark, ...] = ()
    source_line: str | None = field(default=None, compare=False)
    """The offending line of source, when the file could be read."""

    @property
    def page(self) -> str | None:
        """The page name (file stem) when the file is a rule page, else ``None``."""
        path = Path(self.file)
        return path.stem if path.parent.name == "pages" and path.suffix == ".rl" else None

    @property
    def location(self) -> str:
        """``file:line:column`` (just ``file`` when there is no line)."""
        if self.line <= 0:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"

    def __str__(self) -> str:
        out = [f"{self.location}: {self.severity}: {self.message}"]
        if self.source_line is not None:
            out.append(f"    {self.source_line.rstrip()}")
            caret = " " * max(self.column - 1, 0) + "^"
            out.append(f"    {caret}")
        out.extend(f"  {remark}" for remark in self.remarks[:MAX_REMARKS_SHOWN])
        if len(self.remarks) > MAX_REMARKS_SHOWN:
            out.append(f"  ({len(self.remarks) - MAX_REMARKS_SHOWN} more remarks not shown)")
        return "\n".join(out)


def _source_line(path: Path, line: int) -> str | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if 1 <= line <= len(lines):
        return lines[line - 1].expandtabs(4)
    return None


def _relative(file: str, root: Path) -> tuple[str, Path]:
    path = Path(file)
    absolute = path if path.is_absolute() else root / path
    try:
        return absolute.resolve().relative_to(root.resolve()).as_posix(), absolute
    except ValueError:
        return file, absolute


def parse_diagnostics(output: str, root: Path) -> list[Diagnostic]:
    """Every error and warning in ``output`` (rlc's stderr), without repetitions.

    Paths are made relative to ``root`` (the workspace) when they lie inside it.
    """
    found: list[Diagnostic] = []
    for raw in output.splitlines():
        match = _MESSAGE.match(raw.strip())
        if match is None:
            continue
        file, absolute = _relative(match.group("file"), root)
        line, col = int(match.group("line")), int(match.group("col"))
        text = match.group("text").strip()
        if match.group("severity") in ("remark", "note"):
            if found:
                last = found[-1]
                remarks = (*last.remarks, Remark(file, line, col, text))
                found[-1] = Diagnostic(
                    last.file,
                    last.line,
                    last.column,
                    last.message,
                    last.severity,
                    remarks,
                    last.source_line,
                )
            continue
        found.append(
            Diagnostic(
                file, line, col, text, match.group("severity"), (), _source_line(absolute, line)
            )
        )
    return list(dict.fromkeys(found))


def page_diagnostic(
    root: Path, page: Path, line: int, message: str, column: int | None = None
) -> Diagnostic:
    """A diagnostic of our own about a page (missing hook, two ``play`` functions, ...).

    The column defaults to the first non-blank character of the line.
    """
    file, absolute = _relative(str(page), root)
    source = _source_line(absolute, line)
    if column is None:
        column = len(source) - len(source.lstrip()) + 1 if source else 1
    return Diagnostic(file, line, column, message, "error", (), source)
