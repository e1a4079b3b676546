"""The reserve hunt: walks not kept as candidates are replayed, in order, through each
mutant no candidate kills, until one kills it (issue: regress misses what check kills)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rulebook2game.mutate import read_pages
from rulebook2game.oracle import load_oracle
from rulebook2game.traces.adequacy import MutantKills
from rulebook2game.traces.search import SELECTION_FILE, Reserve, hunt, rule_mutants, walk_of

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def test_the_hunt_finds_the_walk_that_kills_a_rare_mutant(tmp_path: Path) -> None:
    game = shutil.copytree(
        CORPORA / "pig", tmp_path / "pig", ignore=shutil.ignore_patterns("build", "reports")
    )
    pages = read_pages(game / "pages")
    # The turn total starting at 1: only a game where player 0 banks a first turn and
    # later stands where the extra point decides tells it apart.
    (mutant,) = [m for m in rule_mutants(game) if m.id == "turn:12:off_by_one:1"]
    kills = {mutant.id: MutantKills(mutant, True, frozenset(), True)}
    engine = load_oracle("openspiel:pig")
    specs = tuple(walk_of(n) for n in ("uniform-0003", "uniform-0004", "uniform-0005"))
    reserve = Reserve(engine, "pig", 2000, specs)
    cache = tmp_path / "cache.json"
    found, joined = hunt(game, pages, kills, reserve, cache=cache)
    assert found[mutant.id].killers == {"uniform-0004"}
    assert [c.name for c in joined] == ["uniform-0004"]
    assert (
        joined[0].trace.to_jsonl()
        == (CORPORA / "pig" / "traces" / "uniform-0004.jsonl").read_text()
    )
    # uniform-0003 was replayed and did not kill it; uniform-0005 was never needed
    store = json.loads(cache.read_text())
    (entry,) = store.values()
    assert sorted(entry["kills"].values()) == [False, True]
    # with a limit of one walk per mutant, only uniform-0003 (cached: no compile) is tried
    shut, none = hunt(game, pages, kills, reserve, cache=cache, limit=1)
    assert shut[mutant.id].killers == frozenset() and none == []
    # a mutant some candidate kills is not hunted
    killed = {mutant.id: MutantKills(mutant, True, frozenset({"x"}), False)}
    assert hunt(game, pages, killed, reserve, cache=cache) == (killed, [])


def test_pig_and_breakthrough_traces_kill_what_the_oracle_walks_reach() -> None:
    for game, hard in (("pig", "turn:12:off_by_one:1"), ("breakthrough", "board:48:delete_stmt:6")):
        record = json.loads((CORPORA / game / "traces" / SELECTION_FILE).read_text())
        assert hard not in record["mutants"]["killed_by_no_candidate"], game
        killed = {
            m for page in record["mutants"]["pages"].values() for m in page.get("not_killed", [])
        }
        assert hard not in killed, game


def test_rule_mutants_leave_the_game_toml_invariants_alone() -> None:
    # tic-tac-toe's `marks_alternate` is declared in game.toml: evidence, not a rule.
    board = (CORPORA / "tic_tac_toe" / "pages" / "board.rl").read_text().split("\n")
    start = next(i for i, line in enumerate(board, 1) if "fun marks_alternate" in line)
    inside = [
        m.id
        for m in rule_mutants(CORPORA / "tic_tac_toe")
        if m.page == "board" and start <= m.line < start + 11
    ]
    assert inside == []
