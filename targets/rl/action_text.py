"""rlc's action text (``drop {col: 3}``) to and from canonical text (``drop(col=3)``).

rlc prints an action of ``AnyGameAction`` as its name followed by its arguments in a
brace list, in declaration order: ``mark {row: 0, col: 2}``, ``pick {suit: hearts}``,
``hold {}``. Bounded integers print as their value, enums as their member name,
booleans as ``true``/``false``. Arguments of other types (classes, vectors) have no
canonical form; actions must take ``BInt``, ``Bool`` or enum arguments.

Names are mapped as :mod:`rulebook2game.targets.rl.names` says: rlc's ``pass_ {}`` (an
rl keyword written with a trailing underscore) and ``r2g_kw_raise {r2g_kw_from: 1}``
(a name renamed for rlc) are the canonical ``pass()`` and ``raise(from=1)``.
"""

from __future__ import annotations

import re

from rulebook2game.actions import Action, format_action, parse_action
from rulebook2game.targets.rl.names import canonical_name, mangle_name, rl_name, unmangle_text

_RL_ACTION = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\{(.*)\})?\s*$", re.DOTALL)
_RL_ARG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(-?[0-9]+|[A-Za-z0-9_]+)\s*$")


def rl_to_action(text: str) -> Action:
    """Parse rlc's text of an action; ``ValueError`` for nested or odd arguments."""
    match = _RL_ACTION.match(unmangle_text(text))
    if match is None:
        raise ValueError(f"not an rl action text: {text!r}")
    name, body = canonical_name(match.group(1)), (match.group(2) or "").strip()
    args: list[tuple[str, int | str]] = []
    if body:
        if "{" in body or "[" in body:
            raise ValueError(
                f"action {name!r} has an argument that is not a number, Bool or enum: {text!r}"
            )
        for part in body.split(","):
            arg = _RL_ARG.match(part)
            if arg is None:
                raise ValueError(f"bad argument {part.strip()!r} in rl action {text!r}")
            raw = arg.group(2)
            args.append(
                (canonical_name(arg.group(1)), int(raw) if re.fullmatch(r"-?[0-9]+", raw) else raw)
            )
    return Action(name, tuple(args))


def rl_to_canonical(text: str) -> str:
    """``drop {col: 3}`` -> ``drop(col=3)``."""
    return format_action(rl_to_action(text))


def action_to_rl(action: Action) -> str:
    """An action in rlc's text form."""
    inner = ", ".join(f"{_rlc_name(k)}: {mangle_name(str(v))}" for k, v in action.args)
    return f"{_rlc_name(action.name)} {{{inner}}}"


def _rlc_name(canonical: str) -> str:
    return mangle_name(rl_name(canonical))


def canonical_to_rl(text: str) -> str:
    """``drop(col=3)`` -> ``drop {col: 3}``."""
    return action_to_rl(parse_action(text))
