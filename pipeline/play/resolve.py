"""Turn what a person typed into one legal action: a number, a full text or a prefix."""

from __future__ import annotations

from rulebook2game.errors import BadInputError


class PlayError(BadInputError):
    """A move or command that cannot be carried out (shown as one line, the game goes on)."""


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def resolve_action(typed: str, legal: list[str]) -> str:
    """The legal action ``typed`` names.

    ``typed`` is a number (1-based, as the actions are listed), a canonical text (spacing
    ignored) or a prefix of exactly one legal action.

    Raises:
        PlayError: nothing legal matches, or the prefix matches several actions.
    """
    text = typed.strip()
    if not text:
        raise PlayError("type a number or an action")
    if not legal:
        raise PlayError("no action is legal now")
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise PlayError(f"no action number {number}: choose 1 to {len(legal)}")
    wanted = _squash(text)
    exact = [a for a in legal if _squash(a) == wanted]
    if exact:
        return exact[0]
    matches = [a for a in legal if _squash(a).startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise PlayError(f"{text!r} is not a legal action here (type a number 1-{len(legal)})")
    shown = ", ".join(matches[:4]) + (" ..." if len(matches) > 4 else "")
    raise PlayError(f"{text!r} is ambiguous: {len(matches)} actions match ({shown})")
