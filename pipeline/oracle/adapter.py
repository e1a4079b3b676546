"""Per-game adapters: OpenSpiel action ids and strings -> canonical action text.

An adapter is a short, ordered table of :class:`Rule` rows. For one OpenSpiel action
(seen from a state, by a player, as an id and its ``action_to_string`` text) the first
row whose ``when`` phase holds and whose ``pattern`` matches the action string renders
``template`` with Python's ``str.format``. The template may use ``{id}`` (the OpenSpiel
action id) and the pattern's named groups, after ``convert`` has turned group texts
into values::

    Rule(template="drop(col={col})", pattern=r"[xo](?P<col>\\d)")
    Rule(template="die(value={value})", pattern=r"Roll (?P<value>\\d)", chance=True)

The reverse direction needs no second table: a canonical text is mapped back by
rendering every legal id of the state and looking the text up, so an adapter only
has to be right in one direction, and a collision (two ids, one text) is reported.
Players and returns pass through unchanged: for every corpus game OpenSpiel's seat
numbers and returns are the canonical ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.errors import OracleError

Phase = Callable[[Any], bool]
"""A predicate on an OpenSpiel state (``pyspiel.State``)."""
Converter = Callable[[str], int | str]


@dataclass(frozen=True)
class Rule:
    """One row of an adapter table."""

    template: str
    """Canonical text with ``{id}`` and ``{group}`` fields: ``mark(row={row}, col={col})``."""
    pattern: str = r".*"
    """Regular expression the whole OpenSpiel action string must match."""
    chance: bool | None = None
    """Only for chance actions (True), only for player actions (False), or both (None)."""
    when: Phase | None = None
    """An extra condition on the state, for games whose action strings are ambiguous."""
    convert: Mapping[str, Converter] = field(default_factory=dict)
    """Group name -> function from the matched text to the value put in the template."""

    def render(self, state: Any, chance: bool, action_id: int, text: str) -> str | None:
        """The canonical text for this action, or ``None`` when the row does not apply."""
        if self.chance is not None and self.chance != chance:
            return None
        if self.when is not None and not self.when(state):
            return None
        match = re.fullmatch(self.pattern, text)
        if match is None:
            return None
        values: dict[str, int | str] = {"id": action_id}
        for name, raw in match.groupdict().items():
            conv = self.convert.get(name, _int_or_text)
            values[name] = conv(raw)
        return self.template.format(**values)


def _int_or_text(raw: str) -> int | str:
    return int(raw) if re.fullmatch(r"-?\d+", raw) else raw


@dataclass(frozen=True)
class Adapter:
    """How one OpenSpiel game speaks canonical action text."""

    game: str
    """OpenSpiel short name (``connect_four``)."""
    rules: tuple[Rule, ...]

    def to_canonical(self, state: Any, player: int, action_id: int) -> str:
        """Canonical text of OpenSpiel action ``action_id`` taken by ``player`` in ``state``."""
        text = state.action_to_string(player, action_id)
        chance = player < 0
        for rule in self.rules:
            out = rule.render(state, chance, action_id, text)
            if out is not None:
                return out
        raise OracleError(
            f"openspiel:{self.game}: no adapter rule for action {action_id} ({text!r})"
        )


def index_of(symbols: str | tuple[str, ...]) -> Converter:
    """A converter mapping a symbol to its position (``index_of("abc")("b") == 1``)."""
    return lambda raw: symbols.index(raw)
