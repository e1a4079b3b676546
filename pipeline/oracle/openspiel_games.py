"""The adapter tables of the OpenSpiel games the corpus is checked against.

Canonical vocabulary (it matches each game's ``interface.toml``):

=============  ==============================================  ===========================
game           player actions                                  chance actions
=============  ==============================================  ===========================
tic_tac_toe    ``mark(row=0..2, col=0..2)``                    —
connect_four   ``drop(col=0..6)``                              —
breakthrough   ``move(from_file=0..7, from_rank=1..8,          —
               to_file=0..7)`` (file 0 = a)
pig            ``roll()``, ``hold()``                          ``die(value=1..6)``
hearts         ``pass_card(card=0..51)``, ``play(card=0..51)``  ``pass_direction(dir=0..3)``,
                                                               ``deal(card=0..51)``
=============  ==============================================  ===========================

Hearts cards are OpenSpiel's ids, ``card = 4 * rank + suit`` with ranks 2..A as
0..12 and suits C, D, H, S as 0..3 (``0`` = 2C, ``3`` = 2S, ``43`` = QS, ``51`` = AS);
pass directions are 0 no pass, 1 left, 2 across, 3 right.
"""

from __future__ import annotations

from typing import Any

from rulebook2game.oracle.adapter import Adapter, Rule, index_of

FILES = "abcdefgh"
HEARTS_DEAL_STEPS = 1 + 52
"""The pass-direction chance step, then one chance step per card dealt."""
HEARTS_PASS_STEPS = 4 * 3


def _hearts_passing(state: Any) -> bool:
    """Whether a hearts player action passes a card (rather than plays one)."""
    history = state.history()
    return bool(history[0] != 0 and len(history) < HEARTS_DEAL_STEPS + HEARTS_PASS_STEPS)


ADAPTERS: dict[str, Adapter] = {
    adapter.game: adapter
    for adapter in (
        Adapter(
            "tic_tac_toe",
            (Rule("mark(row={row}, col={col})", r"[xo]\((?P<row>\d),(?P<col>\d)\)"),),
        ),
        Adapter("connect_four", (Rule("drop(col={col})", r"[xo](?P<col>\d)"),)),
        Adapter(
            "breakthrough",
            (
                Rule(
                    "move(from_file={from_file}, from_rank={from_rank}, to_file={to_file})",
                    r"(?P<from_file>[a-h])(?P<from_rank>[1-8])(?P<to_file>[a-h])[1-8]\*?",
                    convert={"from_file": index_of(FILES), "to_file": index_of(FILES)},
                ),
            ),
        ),
        Adapter(
            "pig",
            (
                Rule("die(value={value})", r"Roll (?P<value>\d+)", chance=True),
                Rule("roll()", "roll", chance=False),
                Rule("hold()", "stop", chance=False),
            ),
        ),
        Adapter(
            "hearts",
            (
                Rule("pass_direction(dir={id})", "No Pass|Left|Across|Right", chance=True),
                Rule("deal(card={id})", "[2-9TJQKA][CDHS]", chance=True),
                Rule("pass_card(card={id})", chance=False, when=_hearts_passing),
                Rule("play(card={id})", chance=False),
            ),
        ),
    )
}
"""OpenSpiel short name -> adapter."""
