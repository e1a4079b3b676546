"""Where each line of the generated rl program came from, and rewriting messages with it.

Every generated line is recorded with the page file and line it was written from and
the column shift between the two, so an ``rlc`` error or a runtime abort at
``pages/generated.rl:LINE:COL`` is reported at the page line the user wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

GENERATED = "pages/generated.rl"
"""The generated program's path inside its own build workspace (as rlc prints it)."""

_AT = re.compile(r"(?:\S*/)?pages/generated\.rl:(\d+)(?::(\d+))?")


@dataclass(frozen=True)
class Origin:
    """A page line: generated column ``c`` is page column ``c + shift``."""

    file: str
    line: int
    shift: int = 0
    written: bool = True
    """False for a line the target wrote on its own (glue), which only inherits the
    origin of the line before it so that a message about it points somewhere near."""


@dataclass(frozen=True)
class SourceMap:
    """Origins of the generated lines (index 0 is line 1)."""

    origins: tuple[Origin, ...]

    def find(self, line: int, column: int = 1) -> tuple[str, int, int] | None:
        """The page file, line and column of a generated line and column."""
        if not 1 <= line <= len(self.origins):
            return None
        origin = self.origins[line - 1]
        return origin.file, origin.line, max(column + origin.shift, 1)

    def written(self, line: int) -> tuple[str, int] | None:
        """The page file and line a generated line was written from; ``None`` for a line
        the target wrote on its own (line coverage counts only the former)."""
        if not 1 <= line <= len(self.origins):
            return None
        origin = self.origins[line - 1]
        return (origin.file, origin.line) if origin.written else None

    def rewrite(self, text: str) -> str:
        """``text`` with every ``pages/generated.rl:L:C`` replaced by the page location."""

        def one(match: re.Match[str]) -> str:
            column = int(match.group(2) or 1)
            found = self.find(int(match.group(1)), column)
            if found is None:
                return match.group(0)
            file, line, col = found
            return f"{file}:{line}:{col}" if match.group(2) else f"{file}:{line}"

        return _AT.sub(one, text)


class Emitter:
    """Builds the generated program line by line, recording each line's origin."""

    def __init__(self, fallback: Origin) -> None:
        self.lines: list[str] = []
        self.origins: list[Origin] = []
        self.fallback = fallback

    def line(self, text: str, origin: Origin | None = None) -> None:
        """One generated line (``origin``: where it came from; default the last origin,
        marked as not written from it)."""
        self.lines.append(text)
        if origin is None:
            origin = replace(self.origins[-1] if self.origins else self.fallback, written=False)
        self.origins.append(origin)

    def user(self, prefix: str, text: str, file: str, line: int, column: int) -> None:
        """``prefix + text`` where ``text`` starts at ``line:column`` of ``file``."""
        self.line(prefix + text, Origin(file, line, column - (len(prefix) + 1)))

    def source(self) -> str:
        """The program text."""
        return "\n".join(self.lines) + "\n"

    def map(self) -> SourceMap:
        """The source map of what was emitted."""
        return SourceMap(tuple(self.origins))
