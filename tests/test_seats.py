"""Seats: interface.toml names the players in engine order and who moves first; the
checks assert it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.agent.prompts import PromptContext, render
from rulebook2game.check.findings import SEATS
from rulebook2game.check.report import StepRecord, _step_line, render_markdown
from rulebook2game.check.run import run_check
from rulebook2game.check.seats import first_decision, seat_findings
from rulebook2game.errors import BadWorkspaceError
from rulebook2game.oracle import load_oracle
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.workspace import Interface, SeatsSpec, load_interface, open_workspace

NAMED = {"tic_tac_toe": "Crosses", "connect_four": "Crosses", "breakthrough": "Black"}


def _interface(tmp_path: Path, seats: str) -> Path:
    path = tmp_path / "interface.toml"
    path.write_text('[[actions]]\nname = "pass"\n\n' + seats)
    return path


def test_seats_must_be_named_once_and_first_among_them(tmp_path: Path) -> None:
    ok = load_interface(
        _interface(tmp_path, '[seats]\nnames = ["Black", "White"]\nfirst = "Black"\n')
    )
    assert ok.seats == SeatsSpec(names=("Black", "White"), first="Black")
    assert ok.seats.label(1) == "1 (White)" and ok.seats.label(5) == "5"
    for bad in (
        '[seats]\nnames = ["Black", "White"]\nfirst = "Red"\n',
        '[seats]\nnames = ["Black", "Black"]\n',
        "[seats]\nnames = []\n",
    ):
        with pytest.raises(BadWorkspaceError):
            load_interface(_interface(tmp_path, bad))


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four", "breakthrough", "hearts"])
def test_corpus_games_name_their_seats_and_the_reference_agrees(game: str) -> None:
    ws = open_workspace(CORPORA_DIR / game)
    interface = ws.interface()
    assert interface is not None and interface.seats is not None
    assert interface.seats.first == NAMED.get(game)
    engine = load_oracle(ws.config().oracle or "")
    assert seat_findings(engine, interface, ws.config()) == []


def test_swapped_or_miscounted_seats_are_findings() -> None:
    ws = open_workspace(CORPORA_DIR / "breakthrough")
    engine = load_oracle("openspiel:breakthrough")
    assert first_decision(engine) == (0, ())
    # names alone are not observable: only who moves first and how many seats are
    renamed = Interface(seats=SeatsSpec(names=("White", "Black"), first="White"))
    assert seat_findings(engine, renamed, ws.config()) == []
    late = Interface(seats=SeatsSpec(names=("Black", "White"), first="White"))
    (found,) = seat_findings(engine, late, ws.config())
    assert (
        found.message == "interface.toml says 1 (White) moves first; the pages ask 0 (Black) first"
    )
    assert (found.expected, found.actual) == ("1 (White)", "0 (Black)")
    three = Interface(seats=SeatsSpec(names=("A", "B", "C")))
    (found,) = seat_findings(engine, three, ws.config())
    assert "names 3 seats (A, B, C); the engine has 2 players" in found.message
    # the first decision comes after chance: pig's opening has none, hearts' deals first
    hearts = load_oracle("openspiel:hearts")
    seat, played = first_decision(hearts)
    assert seat in range(4) and len(played) > 52


def test_check_fails_when_the_pages_seat_the_wrong_player_first(tmp_path: Path) -> None:
    game = shutil.copytree(
        CORPORA_DIR / "tic_tac_toe",
        tmp_path / "ttt",
        ignore=shutil.ignore_patterns("build", "reports"),
    )
    interface = game / "interface.toml"
    interface.write_text(interface.read_text().replace('first = "Crosses"', 'first = "Noughts"'))
    report = run_check(open_workspace(game))
    compile_stage = report.stage("compile")
    assert compile_stage is not None and compile_stage.status == "failed"
    (finding,) = [f for f in report.findings if f.kind == SEATS]
    assert (
        finding.message
        == "interface.toml says 1 (Noughts) moves first; the pages ask 0 (Crosses) first"
    )
    assert "turn" in [p.page for p in finding.pages]  # get_current_player lives there
    assert report.seats == ["Crosses", "Noughts"]
    assert "Seats (interface.toml): 0 Crosses, 1 Noughts." in render_markdown(report)
    interface.write_text(interface.read_text().replace('first = "Noughts"', 'first = "Crosses"'))
    again = run_check(open_workspace(game))
    assert [f.kind for f in again.findings] == [] and again.stage("compile").status == "ok"


def test_the_brief_says_how_seats_map() -> None:
    text = (CORPORA_DIR / "breakthrough" / "interface.toml").read_text()
    context = PromptContext(game="B", players=2, target="rl", reference="", toc="", interface=text)
    brief = render("AGENTS.md.j2", **context.as_dict())
    assert "here seat 0 is Black, 1 is White" in brief and "Black makes the first decision" in brief
    plain = PromptContext(game="P", players=2, target="rl", reference="", toc="")
    assert "here seat" not in render("agent/system.md.j2", **plain.as_dict())


def test_findings_about_who_moves_name_the_seats() -> None:
    from rulebook2game.check.findings import ORACLE_PLAYER, REPLAY, Finding
    from rulebook2game.check.seats import name_seats

    interface = Interface(seats=SeatsSpec(names=("Black", "White"), first="Black"))
    player = Finding(ORACLE_PLAYER, "oracle", "who moves differs", expected="1", actual="0")
    other = Finding(REPLAY, "replay", "x", expected="1", actual="0")
    named = name_seats([player, other], interface)
    assert (named[0].expected, named[0].actual) == ("1 (White)", "0 (Black)")
    assert named[1] == other and name_seats([player], Interface()) == [player]


def test_counterexample_steps_name_the_seat() -> None:
    step = StepRecord(t=3, player=1, action="move(from_file=0, from_rank=2, to_file=1)")
    assert "player 1 (White)" in _step_line(step, ["Black", "White"])
    assert "player 1 " in _step_line(step) and "(" not in _step_line(step).split("move")[0]


def test_a_chance_turn_with_nothing_to_draw_is_no_first_decision() -> None:
    # a mutant that set the seat to move to -1 (chance) with no chance action made the
    # seat check raise IndexError and a whole mutant run fail (a trial's Konane)
    from rulebook2game.engine import CHANCE

    class Stuck:
        def initial(self) -> int:
            return 0

        def is_terminal(self, state: int) -> bool:
            return False

        def current_player(self, state: int) -> int:
            return CHANCE

        def chance_outcomes(self, state: int) -> list[tuple[str, float]]:
            return []

    assert first_decision(Stuck()) == (None, ())  # type: ignore[arg-type]
