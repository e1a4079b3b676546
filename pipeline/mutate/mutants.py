"""Mutants of a game's rule pages: deterministic enumeration, sampling, application.

A mutant is one small edit of one page (see :mod:`rulebook2game.mutate.operators`),
recorded with its page, line, operator, a description and the unified diff, so a
surviving mutant can be reviewed as equivalent or as a weakness of the checks.
"""

from __future__ import annotations

import difflib
import hashlib
import random
import re
import shutil
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.mutate.operators import OPERATORS, Edit, Operator
from rulebook2game.mutate.source import PageSource
from rulebook2game.targets import page_suffix_for

PRESENTATION_ONLY = frozenset({"pretty_print"})
"""Definitions not mutated: rendering is not a rule, and no check compares it.

Functions called only from these (directly or through each other) are presentation
too (:func:`presentation_closure`): a ``card_name`` used only by ``pretty_print``.
"""

_DEF = re.compile(r"^(?:fun|act)\s+(?:<[^>]*>\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_CALL = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _callers(pages: Mapping[str, str]) -> dict[str, set[str]]:
    """Top-level definition name -> the top-level definitions that call it (``""``: a
    line outside every definition, a RulePage clause such as ``offer``)."""
    callers: dict[str, set[str]] = {}
    for text in pages.values():
        page = PageSource.parse("", text)
        for mask, owner in zip(page.masks, page.owners, strict=True):
            for match in _CALL.finditer(mask):
                if not _DEF.match(mask.lstrip()):
                    callers.setdefault(match.group(1), set()).add(owner)
    return callers


def presentation_closure(pages: Mapping[str, str], roots: frozenset[str]) -> frozenset[str]:
    """``roots`` and every top-level function called only from them (a fixpoint)."""
    defined = {
        m.group(1)
        for text in pages.values()
        for line in text.split("\n")
        if len(line) - len(line.lstrip()) <= 4 and (m := _DEF.match(line.lstrip()))
    }
    callers = _callers(pages)
    found = set(roots)
    changed = True
    while changed:
        changed = False
        for name in defined - found:
            who = callers.get(name, set()) - {name}
            if who and who <= found:
                found.add(name)
                changed = True
    return frozenset(found)


@dataclass(frozen=True)
class Mutant:
    """One edit of one page."""

    id: str
    """``page:line:operator:n`` — stable for a given set of pages."""
    page: str
    line: int
    """1-based line of the first changed line."""
    operator: str
    description: str
    source: str
    """The whole mutated page."""
    diff: str
    """Unified diff against the original page."""
    before: str = ""
    """The original text of the first changed line (stripped), to recognise the mutant
    after unrelated lines moved."""
    column: int = 0
    """1-based column of the first changed character on ``line`` (0: unknown)."""

    @property
    def where(self) -> str:
        """``page:line:column``, as a reader looks it up."""
        return (
            f"{self.page}:{self.line}:{self.column}" if self.column else f"{self.page}:{self.line}"
        )


def first_change(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """``(line offset, 1-based column)`` of the first difference of two line runs."""
    for k, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            col = next((j for j, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
            return k, (min(len(a), len(b)) if col is None else col) + 1
    k = min(len(old), len(new))
    line = (new[k] if k < len(new) else old[k]) if k < max(len(old), len(new)) else ""
    return k, len(line) - len(line.lstrip()) + 1


def _apply(page: PageSource, edit: Edit) -> str:
    lines = list(page.lines)
    lines[edit.start : edit.end] = edit.new_lines
    return "\n".join(lines)


def _only_slash_comments(lines: Sequence[str]) -> bool:
    """Lines that are all ``//`` comments (the comment of targets such as ``rbg``, whose
    ``#`` starts a definition): an edit there changes no rule."""
    return bool(lines) and all(line.strip().startswith("//") for line in lines)


def page_mutants(
    name: str,
    text: str,
    operators: Sequence[str] | None = None,
    skip: frozenset[str] = PRESENTATION_ONLY,
    extra: Mapping[str, Operator] | None = None,
    suffix: str = ".rl",
) -> list[Mutant]:
    """Every mutant of one page, in a fixed order (operator, then position).

    ``extra``: the target's own operators (see ``Target.mutation_operators``), after
    the common ones.
    """
    page = PageSource.parse(name, text)
    out: list[Mutant] = []
    seen: set[str] = {text}
    every = {**OPERATORS, **(extra or {})}
    for op_name in operators or list(every):
        for n, edit in enumerate(every[op_name](page, skip)):
            if _only_slash_comments(page.lines[edit.start : edit.end]):
                continue
            source = _apply(page, edit)
            if source in seen:
                continue
            seen.add(source)
            diff = "".join(
                difflib.unified_diff(
                    text.splitlines(keepends=True),
                    source.splitlines(keepends=True),
                    f"a/pages/{name}{suffix}",
                    f"b/pages/{name}{suffix}",
                    n=1,
                )
            )
            offset, column = first_change(page.lines[edit.start : edit.end], edit.new_lines)
            out.append(
                Mutant(
                    id=f"{name}:{edit.start + 1}:{op_name}:{n}",
                    page=name,
                    line=edit.start + 1,
                    operator=op_name,
                    description=edit.description,
                    source=source,
                    diff=diff,
                    before=page.lines[edit.start].strip(),
                    column=column if offset == 0 else 0,
                )
            )
    return out


def enumerate_mutants(
    pages: Mapping[str, str],
    *,
    operators: Sequence[str] | None = None,
    cap: int | None = None,
    seed: int = 0,
    skip: frozenset[str] = PRESENTATION_ONLY,
    extra: Mapping[str, Operator] | None = None,
    suffix: str = ".rl",
) -> list[Mutant]:
    """Every mutant of every page (pages by name), optionally a seeded sample of ``cap``.

    The sample keeps the enumeration order, so the same pages, cap and seed always
    give the same mutants. ``extra``: the target's own operators.
    """
    unknown = set(operators or ()) - set(OPERATORS) - set(extra or {})
    if unknown:
        raise ValueError(f"unknown mutation operators: {', '.join(sorted(unknown))}")
    skip = presentation_closure(pages, skip)
    every = [
        m
        for name in sorted(pages)
        for m in page_mutants(name, pages[name], operators, skip, extra, suffix)
    ]
    if cap is None or cap >= len(every):
        return every
    keep = sorted(random.Random(seed).sample(range(len(every)), cap))
    return [every[i] for i in keep]


def read_pages(pages_dir: Path) -> dict[str, str]:
    """The pages of a game directory by name (file stem)."""
    suffix = page_suffix_for(pages_dir.parent)
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(pages_dir.glob(f"*{suffix}"))}


GAME_FILES = (
    "game.toml",
    "interface.toml",
    "rulebook.json",
    "rules.md",
    "oracle.toml",
    "gdl.toml",
    "rbg.toml",
)
GAME_DIRS = ("traces", "scenarios")


def _second_opinion(game_dir: Path) -> str | None:
    """``game.toml``'s ``second_opinion`` (a path relative to the game directory), if any."""
    try:
        with (game_dir / "game.toml").open("rb") as f:
            name = tomllib.load(f).get("second_opinion")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return name if isinstance(name, str) and name else None


def materialize(game_dir: Path, mutant: Mutant, dest: Path) -> Path:
    """A copy of the game directory at ``dest`` with the mutant applied; returns ``dest``.

    Copies what a check reads (game.toml, interface.toml, the rule text, the oracle
    binding, GDL and RBG maps, pages, traces, scenarios, and the second translation
    ``game.toml`` names, with its build cache) and nothing else (no build or reports of
    the game itself), so a mutant meets the same evidence ``rulebook2game check`` uses.
    A second translation outside the game directory is named by its absolute path.
    """
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "pages").mkdir(parents=True)
    for name in GAME_FILES:
        if (game_dir / name).is_file():
            shutil.copy2(game_dir / name, dest / name)
    for name in GAME_DIRS:
        if (game_dir / name).is_dir():
            shutil.copytree(game_dir / name, dest / name)
    _copy_second(game_dir, dest)
    suffix = page_suffix_for(game_dir)
    for page in sorted((game_dir / "pages").glob(f"*{suffix}")):
        shutil.copy2(page, dest / "pages" / page.name)
    (dest / "pages" / f"{mutant.page}{suffix}").write_text(mutant.source, encoding="utf-8")
    return dest


def _copy_second(game_dir: Path, dest: Path) -> None:
    name = _second_opinion(game_dir)
    if name is None:
        return
    source = (game_dir / name).resolve()
    inside = source.is_relative_to(game_dir.resolve()) and source != game_dir.resolve()
    if inside and source.is_dir():
        relative = source.relative_to(game_dir.resolve())
        ignore = shutil.ignore_patterns("reports", "mutants", "mutant-jobs")
        shutil.copytree(source, dest / relative, ignore=ignore, symlinks=True)
        return
    from rulebook2game.second_opinion import set_second_opinion

    set_second_opinion(dest / "game.toml", str(source))


def evidence_fingerprint(game_dir: Path) -> str:
    """A hash of everything but the pages that a mutant's check reads (see
    :func:`materialize`): a journaled mutant outcome is reused only while it is unchanged."""
    digest = hashlib.sha256()
    roots = [game_dir / n for n in (*GAME_FILES, *GAME_DIRS)]
    second = _second_opinion(game_dir)
    if second is not None:
        roots += [game_dir / second / "pages", game_dir / second / "game.toml"]
        roots += [game_dir / second / "interface.toml"]
    for root in roots:
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for path in files:
            if path.is_file():
                digest.update(str(path.relative_to(game_dir)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def operator_counts(mutants: Iterable[Mutant]) -> dict[str, int]:
    """How many mutants each operator produced."""
    counts: dict[str, int] = {}
    for m in mutants:
        counts[m.operator] = counts.get(m.operator, 0) + 1
    return counts
