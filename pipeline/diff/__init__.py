"""``rulebook2game diff``: what a change to a game's rule pages says and what it does.

Per page: added, removed or changed, the unified diff, and the rulebook sentences
the page cites, so rule and code are read side by side. Then the behaviour diff:
both sides are compiled (each into its own ``build/``), both sides' golden traces
and a shared set of seeded random trajectories are walked through both engines in
lockstep, and the first step where they disagree is reported (legal moves gained
and lost, player, chance, terminal flag, returns), with a shrunk counterexample.

Sides are game directories, git revisions (``corpora/pig@HEAD~1``) or agent runs
(``GAME/runs/<id>``); see :mod:`rulebook2game.diff.sides`.
"""

from rulebook2game.diff.compare import DiffOptions, diff_games
from rulebook2game.diff.model import BehaviourDiff, Citation, GameDiff, PageReview
from rulebook2game.diff.render import render_html, render_json, render_markdown, render_rich

__all__ = [
    "BehaviourDiff",
    "Citation",
    "DiffOptions",
    "GameDiff",
    "PageReview",
    "diff_games",
    "render_html",
    "render_json",
    "render_markdown",
    "render_rich",
]
