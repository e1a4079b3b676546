"""The table: moves, bots, chance, undo, what a seat sees, save and load as a trace."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.engine import CHANCE
from rulebook2game.play import Bot, RandomBot, Table, make_bot, seat_view
from rulebook2game.play.game import open_game, parse_seats
from rulebook2game.play.resolve import PlayError, resolve_action
from rulebook2game.play.seat_view import hides_something
from rulebook2game.trace import parse_trace, read_trace
from tests.check_toys import Race
from tests.play_support import ttt_dir

__all__ = ["ttt_dir"]

LEGAL = ["mark(row=0, col=0)", "mark(row=0, col=1)", "mark(row=1, col=1)", "pass()"]


def test_resolve_by_number_text_and_prefix() -> None:
    assert resolve_action("2", LEGAL) == "mark(row=0, col=1)"
    assert resolve_action("mark( row = 1, col = 1 )", LEGAL) == "mark(row=1, col=1)"
    assert resolve_action("mark(row=1", LEGAL) == "mark(row=1, col=1)"
    assert resolve_action("pa", LEGAL) == "pass()"


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("mark(row=0", "ambiguous: 2 actions match"),
        ("drop(col=3)", "not a legal action"),
        ("9", "no action number 9: choose 1 to 4"),
        ("  ", "type a number or an action"),
    ],
)
def test_resolve_rejects_with_one_line(typed: str, why: str) -> None:
    with pytest.raises(PlayError, match=why) as info:
        resolve_action(typed, LEGAL)
    assert "\n" not in str(info.value)


def test_bots_and_chance_move_until_a_person_is_to_move() -> None:
    table = Table(Race(), game="race", humans={0}, bots={1: RandomBot()}, seed=3)
    made = table.advance()
    assert made[0].player == CHANCE and made[0].by == "chance"
    assert made[0].chance == (("coin(side=0)", 0.5), ("coin(side=1)", 0.5))
    assert all(m.player == 1 for m in made[1:])
    assert table.to_move == 0 and table.waiting_for_person()
    table.play("add(n=2)")
    table.advance()
    assert table.to_move == 0 or table.over


def test_play_refuses_wrong_seat_bot_seat_and_illegal_actions() -> None:
    table = Table(Race(), game="race", humans={0}, bots={1: RandomBot()}, seed=0)
    with pytest.raises(PlayError, match="chance is to move"):
        table.play("add(n=1)")
    table.advance()
    with pytest.raises(PlayError, match="not your turn: seat 0 is to move, you play seat 1"):
        table.play("add(n=1)", seat=1)
    with pytest.raises(PlayError, match=r"add\(n=5\) is not legal for seat 0"):
        table.play("add(n=5)")
    hotseat = Table(Race(), game="race", humans={0}, bots={1: RandomBot()}, seed=0)
    hotseat.advance()
    hotseat.play("add(n=1)")
    assert hotseat.to_move == 1
    with pytest.raises(PlayError, match="seat 1 is played by a bot"):
        hotseat.play("add(n=1)")


def test_undo_takes_back_the_persons_move_and_what_followed() -> None:
    table = Table(Race(target=20), game="race", humans={0}, bots={1: RandomBot()}, seed=1)
    with pytest.raises(PlayError, match="nothing to undo"):
        table.undo()
    table.advance()
    before, moves_before = table.state, len(table.moves)
    table.play("add(n=1)")
    table.advance()
    taken = table.undo()
    assert taken[0].by == "human" and taken[0].action == "add(n=1)"
    assert [m.player for m in taken[1:]] == [1]
    assert table.state == before and len(table.moves) == moves_before


def test_a_played_game_saves_as_a_trace_and_loads_back(tmp_path: Path) -> None:
    table = Table(Race(), game="race", humans={0}, bots={1: RandomBot()}, seed=5)
    rng = random.Random(0)
    table.advance()
    while not table.over:
        table.play(rng.choice(table.legal()))
        table.advance()
    trace = table.to_trace()
    again = parse_trace(trace.to_jsonl())
    assert again.end.terminal and again.end.returns == tuple(table.returns() or ())
    assert again.header.game == "race" and again.header.source == "toy:race"
    assert again.steps[0].player == CHANCE and again.steps[0].chance is not None
    assert all(s.legal is not None for s in again.steps if s.player != CHANCE)

    loaded = Table(Race(), game="race", humans={0}, bots={1: RandomBot()})
    loaded.load(again)
    assert loaded.state == table.state and loaded.over
    assert {m.by for m in loaded.moves} <= {"chance", "human", "loaded"}
    with pytest.raises(PlayError, match="a game of race, not pig"):
        Table(Race(), game="pig", humans={0}).load(again)
    illegal = "\n".join(
        [
            '{"kind":"header","format":"rulebook2game-trace/1","game":"race","players":2}',
            '{"kind":"step","t":0,"player":-1,"action":"coin(side=0)"}',
            '{"kind":"step","t":1,"player":0,"action":"add(n=3)"}',
            '{"kind":"end","terminal":false}',
        ]
    )
    with pytest.raises(PlayError, match=r"step 1: add\(n=3\) is not legal for seat 0"):
        loaded.load(parse_trace(illegal))


def test_replay_steps_forward_and_back() -> None:
    table = Table(Race(), game="race", humans={0, 1})
    table.script = ["coin(side=1)", "add(n=2)", "add(n=9)"]
    assert table.step_forward().player == CHANCE
    assert table.step_forward().player == 1
    with pytest.raises(PlayError, match=r"step 2: add\(n=9\) is not legal"):
        table.step_forward()
    assert table.script == ["add(n=9)"]
    table.step_back()
    assert table.script == ["add(n=2)", "add(n=9)"] and len(table.moves) == 1


class _Observed(Race):
    """Race with a per-seat view, as an engine with hidden information offers."""

    def observation_string(self, state: Any, player: int) -> str:
        return f"seat {player} sees counter={state[0]}"


def test_seat_view_prefers_the_engines_observation() -> None:
    state = Race().initial()
    assert seat_view(Race(), state, 1) == Race().render(state)
    assert seat_view(_Observed(), state, 1) == "seat 1 sees counter=0"
    assert Table(_Observed(), game="race", humans={0}).view(0) == "seat 0 sees counter=0"


def test_with_hidden_information_a_seat_reads_only_its_own_moves() -> None:
    table = Table(_Observed(), game="race", humans={0}, bots={1: RandomBot()}, seed=2)
    table.advance()
    table.play("add(n=1)")
    table.advance()
    chance, mine, theirs = table.moves[0], table.moves[-2], table.moves[-1]
    assert table.hidden and not Table(Race(), game="race", humans={0}).hidden
    assert (mine.player, theirs.player) == (0, 1)
    assert mine.describe(table.seen(mine, 0)) == "seat 0 (human): add(n=1)"
    assert theirs.describe(table.seen(theirs, 0)) == "seat 1 (bot:bot) moved"
    assert chance.describe(table.seen(chance, 0)) == "chance: (hidden)"
    assert table.seen(theirs, None) and table.seen(chance, None)


class _Public(Race):
    """Race whose observations show everything (perfect information)."""

    def observation_string(self, state: Any, player: int) -> str:
        return self.render(state)


class _Declared(Race):
    """Race that says it has hidden information."""

    has_hidden_information = True


def test_hidden_information_is_what_some_seat_cannot_see() -> None:
    state = Race().initial()
    assert not hides_something(Race(), state)
    assert not hides_something(_Public(), state)
    assert hides_something(_Observed(), state)
    assert hides_something(_Declared(), state)
    table = Table(_Public(), game="race", humans={0}, bots={1: RandomBot()}, seed=2)
    table.advance()
    assert not table.hidden and all(table.seen(m, 0) for m in table.moves)


def test_bot_protocol_and_kinds() -> None:
    bot = make_bot("random")
    assert isinstance(bot, Bot)
    state = Race().apply(Race().initial(), "coin(side=0)")
    assert bot.choose(Race(), state, 0, random.Random(0)) in Race().legal_actions(state)
    known = "unknown bot 'wise'; known: ismcts, random, search"
    with pytest.raises(PlayError.__mro__[1], match=known):
        make_bot("wise")


def test_parse_seats() -> None:
    assert parse_seats([1], "random", 2) == ({1}, {0: "random"})
    assert parse_seats([0], "random,random", 3) == ({0}, {1: "random", 2: "random"})
    assert parse_seats([0, 1], "random", 2) == ({0, 1}, {})
    with pytest.raises(PlayError, match="--seat 2: the game has seats 0 to 1"):
        parse_seats([2], "random", 2)
    with pytest.raises(PlayError, match="one per other seat"):
        parse_seats([0], "random,random", 4)


def test_a_whole_game_on_the_real_engine(ttt_dir: Path) -> None:
    game = open_game(ttt_dir)
    try:
        table = Table(game.engine, game="tic_tac_toe", humans={0}, bots={1: RandomBot()})
        table.advance()
        while not table.over:
            table.play(table.legal()[0])
            table.advance()
        trace = table.to_trace()
        assert trace.end.returns is not None and sum(trace.end.returns) == 0
        assert trace.header.source == "rl:tic_tac_toe"
    finally:
        game.close()


def test_cli_bad_input_is_one_line_and_exit_2(ttt_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["play", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a directory" in result.output
    result = runner.invoke(app, ["play", str(ttt_dir), "--seat", "5"])
    assert result.exit_code == 2 and "--seat 5: the game has seats 0 to 1" in result.output
    result = runner.invoke(app, ["play", str(ttt_dir), "--bots", "wise"])
    assert result.exit_code == 2 and "unknown bot 'wise'" in result.output
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n", encoding="utf-8")
    result = runner.invoke(app, ["play", str(ttt_dir), "--load", str(garbage)])
    assert result.exit_code == 2 and "not JSON" in result.output
    assert "Traceback" not in result.output


def test_cli_plays_from_piped_input_and_saves(ttt_dir: Path, tmp_path: Path) -> None:
    saved = tmp_path / "game.jsonl"
    typed = "\n".join(["5", "nonsense", "1", "1", "1", "1", "log", f"save {saved}", "quit"])
    result = CliRunner().invoke(app, ["play", str(ttt_dir), "--seed", "4"], input=typed + "\n")
    assert result.exit_code == 0, result.output
    assert "'nonsense' is not a legal action here" in result.output
    trace = read_trace(saved)
    assert trace.steps[0].action == "mark(row=1, col=1)"
    assert trace.end.terminal


def test_the_games_crash_on_a_move_is_a_line_and_the_game_goes_on() -> None:
    from rich.console import Console

    from rulebook2game.play.terminal import TerminalTable

    table = Table(Race(crash_at=0), game="race", humans={0, 1}, seed=0)
    typed = iter(["add(n=1)", "quit"])
    console = Console(record=True, width=100)
    TerminalTable(table, console, read=lambda _: next(typed)).run()
    text = console.export_text()
    assert "! the game failed: engine abort: race.rl:12:1 error: precondition violated" in text
    assert [m.player for m in table.moves] == [CHANCE]


def test_the_terminal_log_hides_what_the_seat_cannot_see() -> None:
    from rich.console import Console

    from rulebook2game.play.terminal import TerminalTable

    table = Table(_Observed(), game="race", humans={0}, bots={1: RandomBot()}, seed=2)
    typed = iter(["add(n=1)", "log", "quit"])
    console = Console(record=True, width=100)
    TerminalTable(table, console, read=lambda _: next(typed)).run()
    text = console.export_text()
    assert "  0. chance: (hidden)" in text and "coin(" not in text
    assert "seat 0 (human): add(n=1)" in text
    assert "seat 1 (bot:bot) moved" in text and "seat 0 sees counter=" in text


@pytest.mark.parametrize("target", ["rulepage", "gdl", "rbg"])
def test_games_of_every_target_are_played(target: str, tmp_path: Path) -> None:
    import shutil

    from rulebook2game.resources import CORPORA_DIR

    game = tmp_path / "tic_tac_toe"
    shutil.copytree(
        CORPORA_DIR / target / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build")
    )
    saved = tmp_path / "game.jsonl"
    typed = "\n".join(["1", "1", "1", "1", "1", f"save {saved}", "quit"])
    result = CliRunner().invoke(app, ["play", str(game), "--seed", "4"], input=typed + "\n")
    assert result.exit_code == 0, result.output
    assert "game over" in result.output
    trace = read_trace(saved)
    assert trace.end.terminal and trace.steps[0].action == "mark(row=0, col=0)"
