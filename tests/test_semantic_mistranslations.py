"""The semantic mistranslations of evals/mistranslations.toml stay applicable to the gold pages."""

from __future__ import annotations

import tomllib
from collections import Counter

from rulebook2game.resources import CORPORA_DIR, EVALS_DIR
from tests.test_check_mistranslations import CASES

KINDS_WANTED = {"missing exception", "may read as must", "limit off by one", "scoring variant"}


def _cases() -> list[dict[str, str]]:
    with (EVALS_DIR / "mistranslations.toml").open("rb") as fh:
        cases: list[dict[str, str]] = tomllib.load(fh)["case"]
    return cases


def test_each_edit_matches_its_gold_page_exactly_once() -> None:
    for case in _cases():
        page = CORPORA_DIR / case["game"] / "pages" / f"{case['page']}.rl"
        count = page.read_text().count(case["old"])
        assert count == 1, f"{case['game']}-{case['what']}: {count} matches in {page.name}"
        assert case["old"] != case["new"]


def test_at_least_ten_per_game_of_the_kinds_translators_make() -> None:
    cases = _cases()
    per_game = Counter(c["game"] for c in cases) + Counter(c.game for c in CASES)
    games = {p.parent.name for p in CORPORA_DIR.glob("*/game.toml")}
    assert {g: per_game[g] for g in games} == {g: max(10, per_game[g]) for g in games}
    assert {c["kind"] for c in cases} >= KINDS_WANTED
    names = [(c["game"], c["what"]) for c in cases]
    assert len(names) == len(set(names))
