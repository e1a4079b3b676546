"""Mutants of rule pages: how the checks' detection power is measured.

``enumerate_mutants(read_pages(game_dir / "pages"))`` lists every small edit the
operators of :mod:`rulebook2game.mutate.operators` make; ``materialize`` writes one
mutant into a copy of the game directory so it can be compiled and checked.
"""

from rulebook2game.mutate.mutants import (
    PRESENTATION_ONLY,
    Mutant,
    enumerate_mutants,
    materialize,
    operator_counts,
    page_mutants,
    read_pages,
)
from rulebook2game.mutate.operators import OPERATORS

__all__ = [
    "OPERATORS",
    "PRESENTATION_ONLY",
    "Mutant",
    "enumerate_mutants",
    "materialize",
    "operator_counts",
    "page_mutants",
    "read_pages",
]
