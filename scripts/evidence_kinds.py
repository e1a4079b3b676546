"""Which kind of evidence catches each hand-made corpus mistranslation.

Runs the full check (seeded, small budgets) on each mistranslation of
``tests/test_check_mistranslations.py`` and ``evals/mistranslations.toml`` and
records which stages found something: fuzz (with invariants), golden traces
(replay), scenarios, a second opinion (the lockstep walk against the game's RulePage
gold pages, ``corpora/rulepage/GAME``, as an independent second translation) and the
reference engine (oracle). Prints a row per case and the catch rate of each kind
alone, of the kinds a game without a reference engine has (fuzz, scenarios, golden
traces, second opinion), and of all.

    python scripts/evidence_kinds.py [GAME ...]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook2game.check.run import ALL_STAGES, against_stage, run_check  # noqa: E402
from rulebook2game.workspace import open_workspace  # noqa: E402
from tests.test_check_mistranslations import (  # noqa: E402
    CASES,
    OPTIONS,
    Mistranslation,
    _mutated_game,
)

SEMANTIC = ROOT / "evals" / "mistranslations.toml"


def all_cases() -> list[Mistranslation]:
    """The test suite's cases, then the semantic ones of ``evals/mistranslations.toml``."""
    with SEMANTIC.open("rb") as fh:
        extra = tomllib.load(fh)["case"]
    more = [
        Mistranslation(c["game"], c["what"], c["page"], c["old"], c["new"], 1000) for c in extra
    ]
    return [*CASES, *more]


KINDS = {
    "fuzz": "fuzz",
    "replay": "traces",
    "scenarios": "scenarios",
    "against": "second",
    "oracle": "reference",
}
BLIND = ("fuzz", "scenarios", "traces", "second")
"""What a game without a reference engine can have."""
RULEPAGE = ROOT / "corpora" / "rulepage"


def main(games: list[str]) -> None:
    rows: list[tuple[str, set[str]]] = []
    seconds = Path(tempfile.mkdtemp(prefix="second-opinions-"))
    for case in all_cases():
        if games and case.game not in games:
            continue
        # the second translation is copied once, so its build is not in the source tree
        second = seconds / case.game
        if not second.is_dir():
            shutil.copytree(RULEPAGE / case.game, second, ignore=shutil.ignore_patterns("build"))
        options = {**OPTIONS, "against": str(second)}
        with tempfile.TemporaryDirectory() as tmp:
            ws = open_workspace(_mutated_game(Path(tmp), case))
            report = run_check(ws, (*ALL_STAGES, against_stage), seed=0, options=options)
        caught = {KINDS[f.stage] for f in report.findings if f.stage in KINDS}
        rows.append((str(case), caught))
    names = list(KINDS.values())
    width = max(28, *(len(name) + 1 for name, _ in rows))
    print(f"{'case':<{width}} " + " ".join(f"{n:>9}" for n in names))
    for name, caught in rows:
        print(f"{name:<{width}} " + " ".join(f"{'x' if n in caught else '.':>9}" for n in names))
    total = len(rows)

    def rate(kinds: tuple[str, ...]) -> str:
        n = sum(1 for _, caught in rows if caught & set(kinds))
        return f"{n}/{total}"

    print()
    for kind in names:
        print(f"{kind + ' alone':<40} {rate((kind,))}")
    print(f"{'fuzz + scenarios':<40} {rate(('fuzz', 'scenarios'))}")
    print(f"{'fuzz + scenarios + second':<40} {rate(('fuzz', 'scenarios', 'second'))}")
    print(f"{'no reference (all but the reference)':<40} {rate(BLIND)}")
    print(f"{'all':<40} {rate(tuple(names))}")
    print(f"{'not caught':<40} " + ", ".join(n for n, caught in rows if not caught))


if __name__ == "__main__":
    main(sys.argv[1:])
