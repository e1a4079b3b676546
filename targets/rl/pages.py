"""Page conventions checked before and after ``rlc``: the play function and the hooks.

Exactly one page defines ``act play() -> Game:`` marked ``@classes``; the pages
together define the four hooks the engine calls, with these signatures (checked by
their mangled names in the Python wrapper ``rlc`` generates)::

    fun get_current_player(Game g) -> Int     # -1 = chance
    fun get_num_players() -> Int
    fun score(Game g, Int player) -> Float
    fun pretty_print(Game g)
"""

from __future__ import annotations

import re
from pathlib import Path

from rulebook2game.targets.rl.action_text import rl_to_action
from rulebook2game.targets.rl.diagnostics import Diagnostic, page_diagnostic
from rulebook2game.targets.rl.lexical import code_of
from rulebook2game.targets.rl.names import rl_name

_PLAY = re.compile(r"^\s*act\s+play\s*\(\s*\)\s*->\s*(?P<type>[A-Za-z_][A-Za-z0-9_]*)\s*:")
_UNDEFINED = re.compile(r"undefined symbol: (?P<symbol>\S+)")
_NOT_ENUMERABLE = re.compile(
    r"ERROR: Game(?P<action>[A-Za-z0-9_]+)\.(?P<arg>[A-Za-z0-9_.\[\]]+) is of type (?P<type>\w+)"
)

HOOKS: dict[str, tuple[str, str]] = {
    "get_current_player": (
        "rl_get_current_player__Game_r_int64_t",
        "fun get_current_player(Game g) -> Int",
    ),
    "get_num_players": ("rl_get_num_players__r_int64_t", "fun get_num_players() -> Int"),
    "score": ("rl_score__Game_int64_t_r_double", "fun score(Game g, Int player) -> Float"),
    "pretty_print": ("rl_pretty_print__Game", "fun pretty_print(Game g)"),
}
"""Hook name -> (mangled name in the wrapper, the signature it must have)."""


def _lines(page: Path) -> list[str]:
    return page.read_text(encoding="utf-8", errors="replace").splitlines()


def find_play_page(root: Path, pages: list[Path]) -> str | Diagnostic:
    """The name of the one page defining ``act play() -> Game``, or a diagnostic."""
    found: list[tuple[Path, int, str]] = []
    for page in pages:
        for number, line in enumerate(_lines(page), start=1):
            match = _PLAY.match(code_of(line))
            if match:
                found.append((page, number, match.group("type")))
    if not found:
        return page_diagnostic(
            root, pages[0], 1, "no page defines the game: add `@classes` and `act play() -> Game:`"
        )
    if len(found) > 1:
        where = ", ".join(f"{p.parent.name}/{p.name}:{n}" for p, n, _ in found)
        page, number, _ = found[1]
        return page_diagnostic(
            root, page, number, f"`act play()` is defined more than once ({where}); keep one"
        )
    page, number, name = found[0]
    if name != "Game":
        return page_diagnostic(
            root, page, number, f"the game must be `act play() -> Game:` (not -> {name})"
        )
    if not _marked_classes(_lines(page), number):
        return page_diagnostic(
            root, page, number, "mark the game with `@classes` on the line before `act play()`"
        )
    return page.stem


def _marked_classes(lines: list[str], play_line: int) -> bool:
    for line in reversed(lines[: play_line - 1]):
        code = code_of(line).strip()
        if code:
            return code == "@classes"
    return False


def _definition(pages: list[Path], name: str) -> tuple[Path, int] | None:
    pattern = re.compile(rf"^\s*(?:ext\s+)?fun\s+{re.escape(name)}\s*\(")
    for page in pages:
        for number, line in enumerate(_lines(page), start=1):
            if pattern.match(line):
                return page, number
    return None


def check_hooks(root: Path, pages: list[Path], wrapper_text: str) -> list[Diagnostic]:
    """A diagnostic per required hook that is missing or has the wrong signature."""
    out: list[Diagnostic] = []
    for name, (mangled, signature) in HOOKS.items():
        if f"def {mangled}(" in wrapper_text:
            continue
        where = _definition(pages, name)
        if where is not None:
            message = f"hook `{name}` has the wrong signature; it must be `{signature}`"
            out.append(page_diagnostic(root, where[0], where[1], message))
        else:
            message = f"required hook `{name}` is missing; define `{signature}`"
            out.append(page_diagnostic(root, pages[0], 1, message))
    return out


def undefined_symbol_diagnostic(root: Path, pages: list[Path], loader_error: str) -> Diagnostic:
    """Explain a library that does not load (typically an ``ext fun`` with no definition)."""
    match = _UNDEFINED.search(loader_error)
    if match is None:
        return _load_failure(root, pages, loader_error)
    symbol = match.group("symbol")
    name = re.sub(r"^rl_(?:m_)?", "", symbol).split("__", 1)[0]
    message = (
        f"`{name}` is declared but never defined, so the compiled library does not load "
        f"(undefined symbol {symbol}); define it or remove the `ext fun`"
    )
    where = _definition(pages, name)
    if where is None:
        return Diagnostic("rlc", 0, 0, message)
    return page_diagnostic(root, where[0], where[1], message)


_WRAPPER_LINE = re.compile(r'File "[^"]*wrapper\.py", line (?P<line>\d+)')
_WRAPPER_DEF = re.compile(r"^\s*(?:def|class)\s+(?:can_)?(?P<name>\w+)")


def _load_failure(root: Path, pages: list[Path], loader_error: str) -> Diagnostic:
    """A wrapper that does not load: the Python error, the wrapper line and, when that
    line defines something a page declares, the page and line of that declaration."""
    lines = [line for line in loader_error.splitlines() if line.strip()]
    detail = lines[-1].strip() if lines else "unknown reason"
    where = [m.group("line") for m in _WRAPPER_LINE.finditer(loader_error)]
    code = next((ln.strip() for ln in lines if _WRAPPER_DEF.match(ln)), "")
    if where:
        detail += f" at wrapper.py line {where[-1]}" + (f" (`{code}`)" if code else "")
    message = f"the compiled library does not load: {detail}"
    definition = _WRAPPER_DEF.match(code)
    found = None
    if definition is not None:
        name = definition.group("name")
        found = _definition(pages, name) or action_declaration(pages, name)
    if found is None:
        return Diagnostic("rlc", 0, 0, message)
    return page_diagnostic(root, found[0], found[1], message)


def _snake(camel: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()


def enumeration_diagnostics(root: Path, pages: list[Path], output: str) -> list[Diagnostic]:
    """One diagnostic per action argument whose type cannot be enumerated (``Int``)."""
    out: list[Diagnostic] = []
    for match in _NOT_ENUMERABLE.finditer(output):
        action, arg, kind = _snake(match.group("action")), match.group("arg"), match.group("type")
        message = (
            f"argument `{arg}` of action `{action}` is {kind}, which cannot be enumerated: "
            "use BInt<lo, hi> (hi excluded), Bool or an enum"
        )
        where = action_declaration(pages, action)
        if where is None:
            out.append(Diagnostic("rlc", 0, 0, message))
        else:
            out.append(page_diagnostic(root, where[0], where[1], message))
    if not out:
        lines = [line for line in output.splitlines() if line.strip()]
        detail = lines[0] if lines else "unknown reason"
        out.append(Diagnostic("rlc", 0, 0, f"the actions cannot be enumerated: {detail}"))
    return out


def action_declaration(pages: list[Path], action: str) -> tuple[Path, int] | None:
    """Page and line of the first action statement of the canonical name ``action``."""
    pattern = re.compile(rf"^\s*act\s+{re.escape(rl_name(action))}\s*\(")
    for page in pages:
        for number, line in enumerate(_lines(page), start=1):
            if pattern.match(line) and "->" not in code_of(line):
                return page, number
    return None


def action_text_diagnostics(root: Path, pages: list[Path], output: str) -> list[Diagnostic]:
    """Actions whose text has no canonical form (an argument that is a class or a vector)."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    for line in output.splitlines():
        if not line.startswith("action: "):
            continue
        text = line[len("action: ") :]
        name = text.split("{", 1)[0].strip()
        if name in seen:
            continue
        try:
            rl_to_action(text)
        except ValueError:
            seen.add(name)
            message = (
                f"action `{name}` takes an argument that is not a BInt, Bool or enum "
                f"({text}); give it one such argument per value"
            )
            where = action_declaration(pages, name)
            if where is None:
                out.append(Diagnostic("rlc", 0, 0, message))
            else:
                out.append(page_diagnostic(root, where[0], where[1], message))
    return out
