"""The RulePage target: composition rules, source maps, semantics, and the gold pages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rulebook2game.check.native import native_chooser
from rulebook2game.check.run import ALL_STAGES, against_stage, run_check
from rulebook2game.engine import CHANCE
from rulebook2game.errors import EngineFault
from rulebook2game.regress import RegressSettings, regress
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rulepage.compile import lower_workspace
from rulebook2game.workspace import Workspace, open_workspace

GOLD = CORPORA_DIR / "rulepage"
REFERENCE = get_target("rulepage").reference

COUNTER_INTERFACE = """
[[actions]]
name = "add"
args = [{ name = "n", min = 1, max = 2 }]

[[actions]]
name = "stop"

[[actions]]
name = "coin"
args = [{ name = "side", min = 0, max = 1 }]

[chance]
actions = ["coin"]
"""

BASE = {
    "state": """# page: state
# implements: 1
# The running total.

state:
    Int total
    Int player
    Bool stopped
    Bool tossing
    Int side

player: g.player

end when g.stopped

returns(p): float(g.total)
""",
    "play": """# page: play
# implements: 2
# Add one or two, or stop.

offer add(n) when g.total < 10
offer stop()

on add(n):
    g.total = g.total + n

on stop():
    g.stopped = true
""",
}


def _game(root: Path, pages: dict[str, str], players: int = 1) -> Workspace:
    (root / "pages").mkdir(parents=True)
    (root / "game.toml").write_text(f'name = "counter"\nplayers = {players}\ntarget = "rulepage"\n')
    (root / "interface.toml").write_text(COUNTER_INTERFACE)
    for name, text in pages.items():
        (root / "pages" / f"{name}.page").write_text(text)
    return open_workspace(root)


def _line(ws: Workspace, page: str, needle: str) -> int:
    lines = (ws.pages_dir / f"{page}.page").read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def _play(ws: Workspace, actions: list[str]) -> tuple[list[str], list[float]]:
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        for action in actions:
            state = engine.apply(state, action)
        legal = [] if engine.is_terminal(state) else engine.legal_actions(state)
        return legal, engine.returns(state)


def test_offers_and_owners_run_a_game(tmp_path: Path) -> None:
    ws = _game(tmp_path / "g", BASE)
    legal, _ = _play(ws, [])
    assert legal == ["add(n=1)", "add(n=2)", "stop()"]
    legal, returns = _play(ws, ["add(n=2)", "add(n=1)", "stop()"])
    assert legal == [] and returns == [3.0]


def test_two_owners_are_an_error_on_both_pages(tmp_path: Path) -> None:
    pages = dict(BASE, extra="# page: extra\n# implements: 3\n# x\n\non stop():\n    g.total = 0\n")
    ws = _game(tmp_path / "g", pages)
    result = get_target("rulepage").compile(ws)
    assert not result.ok
    where = {d.location for d in result.diagnostics if "two pages reduce `stop`" in d.message}
    assert where == {
        f"pages/extra.page:{_line(ws, 'extra', 'on stop')}:1",
        f"pages/play.page:{_line(ws, 'play', 'on stop')}:1",
    }


def test_an_rlc_error_is_reported_at_the_page_line_and_column(tmp_path: Path) -> None:
    play = BASE["play"].replace("g.total = g.total + n", "g.total = g.totl + n")
    ws = _game(tmp_path / "g", dict(BASE, play=play))
    with compile_and_start(ws) as made:
        assert made.compile_failed and made.compiled is not None
        first = made.compiled.diagnostics[0]
    line = _line(ws, "play", "g.totl")
    column = play.splitlines()[line - 1].index("g.totl") + 1
    assert first.file == "pages/play.page" and first.line == line
    assert abs(first.location.count(":") - 2) == 0 and "totl" in str(first)
    assert column - 2 <= int(first.location.rsplit(":", 1)[1]) <= column + 6


def test_a_runtime_fault_is_reported_at_the_page_line(tmp_path: Path) -> None:
    state = BASE["state"].replace("    Int side\n", "    Int side\n    Int[2] slots\n")
    play = BASE["play"].replace(
        "    g.total = g.total + n\n", "    g.total = g.total + n\n    g.slots[g.total] = 1\n"
    )
    ws = _game(tmp_path / "g", dict(BASE, state=state, play=play))
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        with pytest.raises(EngineFault) as fault:
            engine.apply(engine.apply(engine.initial(), "add(n=1)"), "add(n=2)")
    line = _line(ws, "play", "g.slots[g.total]")
    assert f"pages/play.page:{line}" in str(fault.value)
    assert "generated.rl" not in str(fault.value)


BONDED = {
    "double": "# page: double\n# implements: 4\n# x\n\nmodifier\n\non stop():\n"
    "    g.total = g.total * 2\n",
    "plus_one": "# page: plus_one\n# implements: 5\n# x\n\nmodifier\n\non stop():\n"
    "    g.total = g.total + 1\n",
    "small_only": "# page: small_only\n# implements: 6\n# x\n\nmodifier\n\n"
    "require add(n) when n == 1 or g.total > 0\n",
}


@pytest.mark.parametrize(("order", "total"), [("double, plus_one", 5.0), ("plus_one, double", 6.0)])
def test_bonded_steps_run_after_the_owner_in_bond_order(
    tmp_path: Path, order: str, total: float
) -> None:
    play = BASE["play"].replace("offer stop()\n", f"offer stop()\nbonds small_only, {order}\n")
    ws = _game(tmp_path / "g", {**BASE, **BONDED, "play": play})
    legal, _ = _play(ws, [])
    assert legal == ["add(n=1)", "stop()"]  # small_only's require narrows the offer
    _, returns = _play(ws, ["add(n=1)", "add(n=1)", "stop()"])
    assert returns == [total]


def test_a_modifier_bonded_nowhere_is_an_error(tmp_path: Path) -> None:
    ws = _game(tmp_path / "g", {**BASE, "double": BONDED["double"]})
    result = get_target("rulepage").compile(ws)
    assert any("bonded to no page" in d.message for d in result.diagnostics)
    assert all(d.file == "pages/double.page" for d in result.diagnostics)


def test_follow_ups_auto_rules_chance_and_priority(tmp_path: Path) -> None:
    play = BASE["play"].replace(
        "    g.total = g.total + n\n", "    g.total = g.total + n\n    follow bump(n)\n"
    )
    extra = """# page: extra
# implements: 7
# An event, an auto rule, a coin, and a priority stop.

state:
    Int bumps
    Bool big

on bump(k):
    g.bumps = g.bumps + k

auto when !g.big and g.total >= 4:
    g.big = true
    g.tossing = true

chance when g.tossing
offer coin(side)
on coin(side):
    g.tossing = false
    g.side = side
"""
    rush = """# page: rush
# implements: 8
# Once a coin came up 1 the only move is to stop.

priority when g.side == 1
offer stop()
"""
    ws = _game(tmp_path / "g", {**BASE, "play": play, "extra": extra})
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.apply(engine.apply(engine.initial(), "add(n=2)"), "add(n=2)")
        assert engine.current_player(state) == CHANCE
        assert engine.chance_outcomes(state) == [("coin(side=0)", 0.5), ("coin(side=1)", 0.5)]
        after = engine.apply(state, "coin(side=1)")
        assert engine.current_player(after) == 0
        assert "bumps: 4" in engine.serialize(after)
    # the priority page pre-empts the ordinary offers while its condition holds
    play_without_stop_offer = play.replace("offer stop()\n", "offer stop() when g.total < 0\n")
    ws3 = _game(
        tmp_path / "g3",
        {**BASE, "play": play_without_stop_offer, "extra": extra, "rush": rush},
    )
    legal, _ = _play(ws3, ["add(n=2)", "add(n=2)", "coin(side=1)"])
    assert legal == ["stop()"]
    legal, _ = _play(ws3, ["add(n=2)", "add(n=2)", "coin(side=0)"])
    assert legal == ["add(n=1)", "add(n=2)"]


def test_an_auto_rule_that_never_settles_is_a_fault_at_its_page(tmp_path: Path) -> None:
    loop = "# page: loop\n# implements: 9\n# x\n\nauto when g.total > 2:\n    g.side = g.side + 1\n"
    ws = _game(tmp_path / "g", {**BASE, "loop": loop})
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        with pytest.raises(EngineFault) as fault:
            engine.apply(engine.apply(engine.initial(), "add(n=2)"), "add(n=2)")
    assert "auto rules did not settle" in str(fault.value)
    assert "pages/loop.page:" in str(fault.value)


_BUILDS = shutil.ignore_patterns("build", "reports", "runs")


def test_gold_tic_tac_toe_passes_every_check(tmp_path: Path) -> None:
    game = shutil.copytree(GOLD / "tic_tac_toe", tmp_path / "ttt", ignore=_BUILDS)
    report = run_check(open_workspace(game), ALL_STAGES, options={"fuzz": 200})
    assert report.ok, [f.message for f in report.findings]
    ran = {s.name for s in report.stages if s.status == "ok"}
    assert {"compile", "fuzz", "replay", "oracle"} <= ran


@pytest.mark.slow
def test_every_gold_rulepage_game_passes_regress(tmp_path: Path) -> None:
    gold = shutil.copytree(GOLD, tmp_path / "rulepage", ignore=_BUILDS)  # links followed
    result = regress(gold, RegressSettings(seed=0, fuzz_playouts=50, oracle_trajectories=10))
    assert {g.game for g in result.games} >= {"tic_tac_toe", "connect_four", "pig", "breakthrough"}
    assert result.ok, [g.first_finding for g in result.games if not g.ok]


def _reference_pages() -> dict[str, str]:
    blocks = re.findall(r"^```text\n(.*?)^```", REFERENCE.read_text(), re.MULTILINE | re.DOTALL)
    pages = {}
    for block in blocks:
        match = re.match(r"# page: (\w+)\n# implements:", block)
        if match:
            pages[match.group(1)] = block
    return pages


def test_the_worked_example_of_the_notes_is_pig(tmp_path: Path) -> None:
    pages = _reference_pages()
    assert set(pages) == {"setup", "turn", "enough_to_win", "die", "end"}
    root = tmp_path / "pig"
    shutil.copytree(GOLD / "pig", root, symlinks=False, ignore=shutil.ignore_patterns("build"))
    for page in (root / "pages").iterdir():
        page.unlink()
    for name, text in pages.items():
        (root / "pages" / f"{name}.page").write_text(text)
    report = run_check(open_workspace(root), ALL_STAGES, options={"fuzz": 100, "oracle": 20})
    assert report.ok, [f.message for f in report.findings]


def test_the_syntax_check_passes_good_pages_and_maps_bad_ones(tmp_path: Path) -> None:
    target = get_target("rulepage")
    ws = _game(tmp_path / "g", BASE)
    result = target.check_syntax(ws)
    assert result.ok and result.build is None
    bad = _game(tmp_path / "b", dict(BASE, play=BASE["play"].replace("g.total + n", "g.total + m")))
    result = target.check_syntax(bad)
    assert not result.ok and result.diagnostics[0].file == "pages/play.page"


def _copy(game: str, dest: Path) -> Path:
    return Path(shutil.copytree(GOLD / game, dest / game, ignore=shutil.ignore_patterns("build")))


def test_check_against_walks_two_translations_in_lockstep(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulebook2game.cli import app

    rl_side = shutil.copytree(CORPORA_DIR / "tic_tac_toe", tmp_path / "rl_ttt", ignore=_BUILDS)
    rp_side = shutil.copytree(GOLD / "tic_tac_toe", tmp_path / "rp_ttt", ignore=_BUILDS)
    args = ["--fuzz", "0", "--oracle-runs", "10"]
    same = CliRunner().invoke(app, ["check", str(rp_side), "--against", str(rl_side), *args])
    assert same.exit_code == 0, same.output
    assert "vs " in same.output and "0 difference(s)" in same.output
    broken = _copy("tic_tac_toe", tmp_path)
    turn = broken / "pages" / "turn.page"
    turn.write_text(turn.read_text().replace(" when g.cells[row * 3 + col] == EMPTY", ""))
    (broken / "game.toml").write_text(
        (broken / "game.toml").read_text().replace('oracle = "openspiel:tic_tac_toe"\n', "")
    )
    for trace in (broken / "traces").iterdir():
        trace.unlink()
    report = run_check(
        open_workspace(broken),
        (*ALL_STAGES, against_stage),
        options={"fuzz": 0, "oracle": 10, "against": str(rl_side)},
    )
    found = [f for f in report.findings if f.stage == "against"]
    assert found and found[0].kind == "oracle_legal"
    assert any(p.path == "pages/turn.page" for p in found[0].pages)
    assert f"so says {rl_side}" in found[0].expected
    assert found[0].other is not None and found[0].other.label == str(rl_side)
    assert any(p.startswith("pages/turn.rl") for p in found[0].other.pages)
    assert found[0].counterexample is not None and len(found[0].counterexample) <= 2


def test_a_comment_after_a_clause_is_not_part_of_its_expression(tmp_path: Path) -> None:
    play = BASE["play"].replace(
        "offer add(n) when g.total < 10\n", 'offer add(n) when g.total < 10   # "#" rule 2\n'
    )
    ws = _game(tmp_path / "g", dict(BASE, play=play))
    legal, _ = _play(ws, [])
    assert legal == ["add(n=1)", "add(n=2)", "stop()"]


def test_an_endless_chain_of_follow_ups_is_a_fault_at_its_page(tmp_path: Path) -> None:
    play = BASE["play"].replace(
        "    g.stopped = true\n", "    g.stopped = true\n    follow echo(1)\n"
    )
    echo = "# page: echo\n# implements: 10\n# x\n\non echo(k):\n    follow echo(k)\n"
    ws = _game(tmp_path / "g", {**BASE, "play": play, "echo": echo})
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        with pytest.raises(EngineFault) as fault:
            engine.apply(engine.initial(), "stop()")
    assert "follow-up actions did not end" in str(fault.value)
    assert "pages/echo.page:6" in str(fault.value) or "pages/play.page:" in str(fault.value)
    assert "generated.rl" not in str(fault.value)


def test_rulepage_mutants_of_hearts_compose_and_cover_every_bond(tmp_path: Path) -> None:
    from rulebook2game.evals.mutants import select_mutants
    from rulebook2game.mutate import materialize
    from rulebook2game.targets.rulepage.compile import lower_workspace

    own = {name for name, _ in get_target("rulepage").mutation_operators}
    mutants = [m for m in select_mutants(GOLD / "hearts", None, 0)[0] if m.operator in own]
    by_op: dict[str, list[str]] = {}
    for m in mutants:
        by_op.setdefault(m.operator, []).append(m.page)
    modifiers = {"follow_suit", "two_of_clubs_first", "no_points_on_first_trick", "no_hearts_lead"}
    modifiers |= {"heart_points", "queen_of_spades", "shoot_the_moon"}
    assert set(by_op["drop_modifier"]) == modifiers
    assert sorted(by_op["swap_bonds"]) == ["play"] * 3 + ["scoring"] * 2
    assert all(m.diff.startswith("--- a/pages/") and ".page" in m.diff for m in mutants)
    for m in mutants:
        ws = open_workspace(materialize(GOLD / "hearts", m, tmp_path / m.id.replace(":", "-")))
        lowered = lower_workspace(ws)
        assert not isinstance(lowered, list), (m.id, [str(d) for d in lowered])


def test_findings_find_the_pages_of_rulepage_clauses() -> None:
    from rulebook2game.check.findings import Finding, PageIndex

    index = PageIndex.load(GOLD / "pig" / "pages")
    wrong_returns = index.locate(
        Finding("oracle_returns", "oracle", "x", extra={"what": "returns"})
    )
    assert "pages/end.page" in {p.path for p in wrong_returns.pages}
    wrong_roll = index.locate(Finding("oracle_legal", "oracle", "x", actions=("roll()",)))
    named = {str(p).split(" ")[0] for p in wrong_roll.pages}
    assert named == {"pages/turn.page:10", "pages/enough_to_win.page:7"}  # offer and require


def test_diff_walks_an_rl_and_a_rulepage_translation(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulebook2game.cli import app

    rl_side = shutil.copytree(CORPORA_DIR / "tic_tac_toe", tmp_path / "rl_ttt", ignore=_BUILDS)
    rp_side = shutil.copytree(GOLD / "tic_tac_toe", tmp_path / "rp_ttt", ignore=_BUILDS)
    args = ["diff", str(rl_side), str(rp_side), "--walks", "5", "--format", "json"]
    out = tmp_path / "diff.json"
    result = CliRunner().invoke(app, [*args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    diffs = "".join(p["change"]["unified_diff"] for p in data["pages"])
    assert "old/pages/win.rl" in diffs and "new/pages/win.page" in diffs
    walks = [*data["behaviour"]["traces"], *data["behaviour"]["random"]]
    traces = len(list((rl_side / "traces").glob("*.jsonl")))
    assert len(walks) == traces + 5 and all(w["difference"] is None for w in walks)


def test_a_page_name_that_cannot_name_code_is_an_error(tmp_path: Path) -> None:
    ws = _game(tmp_path / "g", {**BASE, "Bad-Name": "# page: Bad-Name\n# implements: 1\n"})
    result = get_target("rulepage").compile(ws)
    assert [d.location for d in result.diagnostics] == ["pages/Bad-Name.page:1:1"]


def test_a_code_block_may_not_define_a_hook_the_target_writes(tmp_path: Path) -> None:
    extra = "# page: extra\n# implements: 1\n# x\n\ncode:\n"
    extra += "    fun score(State g, Int p) -> Float:\n        return 1.0\n"
    ws = _game(tmp_path / "g", {**BASE, "extra": extra})
    result = get_target("rulepage").compile(ws)
    assert [d.location for d in result.diagnostics] == ["pages/extra.page:6:5"]
    assert "`score` is written by the rulepage target" in result.diagnostics[0].message


# -- groups: each guard's actions wait at a resumption point of their own -------------


def _hearts_without_slots(tmp_path: Path) -> Path:
    """A copy of the corpus Hearts whose held page gives no `slots` (the loop then draws
    among a group's entries)."""
    game = shutil.copytree(GOLD / "hearts", tmp_path / "hearts", ignore=_BUILDS)
    held = game / "pages" / "held.page"
    text = held.read_text()
    cut = re.sub(r"^slots .*:\n(?:    .*\n)+\n?", "", text, flags=re.MULTILINE)
    assert text.count("\nslots ") == 3 and "\nslots " not in cut
    held.write_text(cut)
    return game


def test_hearts_phases_lower_to_one_group_each(tmp_path: Path) -> None:
    # with its slots the loop draws among them, so the game waits in one block
    with_slots = lower_workspace(open_workspace(GOLD / "hearts"))
    assert not isinstance(with_slots, list), with_slots
    assert with_slots.groups == ()
    assert "fun r2gp_group(" not in with_slots.source
    lowered = lower_workspace(open_workspace(_hearts_without_slots(tmp_path)))
    assert not isinstance(lowered, list), lowered
    # chance draws the direction, chance deals, players pass, players play: the native
    # loop draws among one phase's 4 or 52 entries, not the whole 160-entry table
    assert lowered.groups == (("pass_direction",), ("deal",), ("pass_card",), ("play",))
    pig = lower_workspace(open_workspace(GOLD / "pig"))
    assert not isinstance(pig, list), pig
    assert pig.groups == (("roll", "hold"), ("die",))
    ttt = lower_workspace(open_workspace(GOLD / "tic_tac_toe"))
    assert not isinstance(ttt, list), ttt
    assert ttt.groups == ()  # one group: one actions block, as before


def test_rulepage_hearts_build_tests_only_the_actions_of_its_phase(tmp_path: Path) -> None:
    game = _hearts_without_slots(tmp_path)
    with compile_and_start(open_workspace(game), optimized=True) as made:
        engine = made.engine
        assert isinstance(engine, RlEngine), made.error
        points = engine.action_points
        assert len(points) == len(engine.action_texts) == 160
        by_name: dict[str, set[int]] = {}
        for text, point in zip(engine.action_texts, points, strict=True):
            by_name.setdefault(text.split("(")[0], set()).add(point)
    assert all(len(p) == 1 for p in by_name.values())
    assert len({min(p) for p in by_name.values()}) == 4


OVERLAP = """# page: play
# implements: 2
# Add one or two while the total stays at most 9; stop once something was added.

offer add(n) when g.total + n <= 9
offer stop() when g.total > 0

on add(n):
    g.total = g.total + n

on stop():
    g.stopped = true
"""


def test_overlapping_groups_keep_every_legal_action_and_replay(tmp_path: Path) -> None:
    # `add`'s guard always holds (its condition names n), `stop`'s when the total is
    # positive: at 0 only add is possible, at 9 only stop (add's guard holds but no add
    # is legal), in between both (the block of every action).
    ws = _game(tmp_path / "g", {**BASE, "play": OVERLAP})
    lowered = lower_workspace(ws)
    assert not isinstance(lowered, list), lowered
    assert lowered.groups == (("add",), ("stop",), ("coin",))
    assert _play(ws, [])[0] == ["add(n=1)", "add(n=2)"]
    assert _play(ws, ["add(n=2)"])[0] == ["add(n=1)", "add(n=2)", "stop()"]
    assert _play(ws, ["add(n=2)"] * 4 + ["add(n=1)"])[0] == ["stop()"]
    with (
        compile_and_start(ws, optimized=True) as fast_made,
        compile_and_start(ws, optimized=False) as checked_made,
    ):
        fast, checked = fast_made.engine, checked_made.engine
        assert isinstance(fast, RlEngine) and isinstance(checked, RlEngine)
        assert len(set(fast.action_points)) == 3
        played = fast.playouts(7, 40, 100, record=True)
        assert played == checked.playouts(7, 40, 100, record=True)
        assert len({g.actions for g in played}) > 10
        choose = native_chooser(checked, 7)
        for game in played:
            state, actions = checked.initial(), []
            while not checked.is_terminal(state):
                actions.append(choose(checked.legal_actions(state)))
                state = checked.apply(state, actions[-1])
            assert tuple(actions) == game.actions


def test_a_phase_written_in_an_offer_condition_still_makes_a_group(tmp_path: Path) -> None:
    # `g.total < 5` names no argument: it is part of add's guard, while `n == 1` is not;
    # a top-level `or` keeps a condition whole
    play = OVERLAP.replace(
        "offer add(n) when g.total + n <= 9", "offer add(n) when g.total < 5 and n == 1"
    ).replace("offer stop() when g.total > 0", "offer stop() when g.total >= 5 or g.stopped")
    ws = _game(tmp_path / "g", {**BASE, "play": play})
    lowered = lower_workspace(ws)
    assert not isinstance(lowered, list), lowered
    assert lowered.groups == (("add",), ("stop",), ("coin",))
    assert "if (g.total < 5):" in lowered.source
    assert "if (g.total >= 5 or g.stopped):" in lowered.source
    assert _play(ws, ["add(n=1)"] * 5)[0] == ["stop()"]
