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

import functools
import re
from collections.abc import Callable, Iterable, Mapping
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
        return self.matched(action_id, text)

    def matched(self, action_id: int, text: str) -> str | None:
        """The template rendered for an action string, or ``None`` when the pattern does not
        match it (the part of :meth:`render` that does not look at the state)."""
        match = _compiled(self.pattern).fullmatch(text)
        if match is None:
            return None
        values: dict[str, int | str] = {"id": action_id}
        for name, raw in match.groupdict().items():
            conv = self.convert.get(name, _int_or_text)
            values[name] = conv(raw)
        return self.template.format(**values)


_compiled = functools.lru_cache(maxsize=1024)(re.compile)
_MISSING = object()
MEMO_LIMIT = 200_000
"""How many rendered (row, action id, action string) texts an adapter keeps."""


def _int_or_text(raw: str) -> int | str:
    return int(raw) if re.fullmatch(r"-?\d+", raw) else raw


@dataclass(frozen=True)
class Adapter:
    """How one OpenSpiel game speaks canonical action text."""

    game: str
    """OpenSpiel short name (``connect_four``)."""
    rules: tuple[Rule, ...]

    _memo: dict[tuple[int, int, str], str | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def to_canonical(self, state: Any, player: int, action_id: int) -> str:
        """Canonical text of OpenSpiel action ``action_id`` taken by ``player`` in ``state``."""
        return self.canonical_texts(state, player, (action_id,))[0]

    def canonical_texts(self, state: Any, player: int, action_ids: Iterable[int]) -> list[str]:
        """:meth:`to_canonical` of several actions of one state, in order.

        Each row's ``when`` is asked at most once (it looks at the state only), and what a
        row renders for an action id and string is remembered (it looks at nothing else).
        """
        chance = player < 0
        phases: dict[int, bool] = {}
        out: list[str] = []
        for action_id in action_ids:
            text = state.action_to_string(player, action_id)
            for k, rule in enumerate(self.rules):
                if rule.chance is not None and rule.chance != chance:
                    continue
                if rule.when is not None:
                    holds = phases.get(k)
                    if holds is None:
                        holds = phases[k] = bool(rule.when(state))
                    if not holds:
                        continue
                key = (k, action_id, text)
                rendered = self._memo.get(key, _MISSING)
                if rendered is _MISSING:
                    rendered = rule.matched(action_id, text)
                    if len(self._memo) < MEMO_LIMIT:
                        self._memo[key] = rendered
                if rendered is not None:
                    out.append(str(rendered))
                    break
            else:
                raise OracleError(
                    f"openspiel:{self.game}: no adapter rule for action {action_id} ({text!r})"
                )
        return out


def index_of(symbols: str | tuple[str, ...]) -> Converter:
    """A converter mapping a symbol to its position (``index_of("abc")("b") == 1``)."""
    return lambda raw: symbols.index(raw)
