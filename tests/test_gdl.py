"""The GDL target: KIF reading, the static checks, grounding, the engine and the gdl: oracle."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.cli import app
from rulebook2game.engine import CHANCE, TERMINAL, IllegalActionError
from rulebook2game.errors import EngineFault, OracleError, WorkspaceError
from rulebook2game.oracle import load_oracle
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.gdl.checks import check_rules
from rulebook2game.targets.gdl.engine import GdlEngine
from rulebook2game.targets.gdl.kif import KifError, expand_or, parse_kif
from rulebook2game.targets.gdl.probe import probe
from rulebook2game.workspace import Workspace, open_workspace

GOLD = CORPORA_DIR / "gdl"
GAMES = ("tic_tac_toe", "connect_four", "breakthrough")


def _problems(text: str) -> list[str]:
    rules = [r for rule in parse_kif(text, "pages/t.kif") for r in expand_or(rule)]
    return [str(p) for p in check_rules(rules)]


MINIMAL = """
(role a)
(init on)
(<= (legal a push) (true on))
(<= (next on) (true on) (not (does a push)))
(<= terminal (not (true on)))
(goal a 100)
"""


def _copy(game: str, tmp_path: Path) -> Workspace:
    """A copy of a GDL corpus game (interface and traces copied, not linked)."""
    dest = tmp_path / game
    shutil.copytree(
        GOLD / game, dest, symlinks=False, ignore=shutil.ignore_patterns("build", "reports")
    )
    return Workspace(dest)


# -- KIF --------------------------------------------------------------------------------


def test_kif_reads_rules_facts_and_or() -> None:
    rules = parse_kif(
        "; comment\n(role x)\n(<= (p ?X) (or (q ?x) (r ?x)) (not (s ?x)))\n", "pages/a.kif"
    )
    assert [str(r) for r in rules] == ["(role x)", "(<= (p ?x) (or (q ?x) (r ?x)) (not (s ?x)))"]
    assert rules[1].at.line == 3
    assert len(expand_or(rules[1])) == 2


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("(role x)\n(<= (p ?x) (q ?x)", "pages/a.kif:2:1", "never closed"),
        ("(role x))", "pages/a.kif:1:9", "unbalanced ')'"),
        ("(<= (p ?x) (not (q ?x) (r ?x)))", "pages/a.kif:1:12", "exactly one"),
        ("(<= ?x (q ?x))", "pages/a.kif:1:5", "cannot stand for a sentence"),
    ],
)
def test_malformed_kif_names_page_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(KifError) as caught:
        parse_kif(text, "pages/a.kif")
    assert str(caught.value).startswith(where + ": ")
    assert message in str(caught.value)


# -- static checks ------------------------------------------------------------------------


def test_a_minimal_description_passes_the_checks() -> None:
    assert _problems(MINIMAL) == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("(<= (p ?x ?y) (q ?x))", "unsafe rule: ?y must occur in a positive literal"),
        ("(<= (p ?x) (q ?x) (not (r ?y)))", "unsafe rule: ?y"),
        ("(<= (p ?x) (q ?x) (distinct ?x ?z))", "unsafe rule: ?z"),
        ("(<= p (not q))\n(<= q (not p))", "negation is not stratified"),
        ("(<= (goal a 101) (true on))", "goal value 101 is not an integer in 0..100"),
        ("(<= (goal a high) (true on))", "goal value high is not an integer in 0..100"),
        ("(<= (true on) (true on))", "'true' is an input of the game and cannot be defined"),
        ("(<= (legal a pull) (does a push))", "'legal' must not depend on 'does'"),
        ("(<= (init off) (true on))", "'init' must not depend on true"),
        ("(<= (legal a) (true on))", "'legal' takes 2 argument(s), not 1"),
        ("(<= (sees a on) (true on))", "hidden information is not supported"),
        (
            "(<= (reach ?x ?z) (reach ?x ?y) (reach ?y ?z))",
            "recursion is not restricted: argument ?y",
        ),
        (
            "(<= (num (s ?x)) (num ?x))\n(num 0)",
            "recursion is not restricted",
        ),
    ],
)
def test_each_static_problem_is_named_at_its_rule(extra: str, message: str) -> None:
    found = _problems(MINIMAL + extra)
    assert any(message in p for p in found), found
    assert all(p.startswith("pages/t.kif:") for p in found if message in p)


def test_a_missing_reserved_relation_is_named() -> None:
    found = _problems(MINIMAL.replace("(<= terminal (not (true on)))", ""))
    assert found == ["pages:0:0: no rule defines 'terminal' (GDL requires it): "]


# -- compile ------------------------------------------------------------------------------


def test_the_corpus_compiles_and_grounds(tmp_path: Path) -> None:
    target = get_target("gdl")
    for game in GAMES:
        result = target.compile(_copy(game, tmp_path))
        assert result.ok and result.build is not None, result.summary()
        assert result.build.atoms > 0
        again = target.compile(Workspace(tmp_path / game))
        assert again.cached


def test_a_page_error_is_a_compile_diagnostic_at_its_line(tmp_path: Path) -> None:
    # The seed's own description has this slip: its column rule binds ?n but names ?m.
    ws = _copy("tic_tac_toe", tmp_path)
    page = ws.pages_dir / "end.kif"
    page.write_text(page.read_text().replace("(<= (column ?n ?x)", "(<= (column ?m ?x)"))
    result = get_target("gdl").compile(ws)
    assert not result.ok
    first = result.diagnostics[0]
    assert first.file == "pages/end.kif" and first.line == 7
    assert "unsafe rule: ?m must occur" in first.message
    assert result.summary().startswith("pages/end.kif:7:1: unsafe rule")


def test_a_move_map_that_misses_an_input_move_fails_the_compile(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    moves = ws.root / "gdl.toml"
    moves.write_text(moves.read_text().replace("[1-3]) (?P<col>[1-3])", "[1-2]) (?P<col>[1-3])"))
    result = get_target("gdl").compile(ws)
    assert not result.ok
    assert "the move (mark 3 1) of role o (an input of the description) matches no" in (
        result.summary()
    )


def test_a_grounding_that_grows_without_end_is_stopped_by_the_bound(tmp_path: Path) -> None:
    program = tmp_path / "game.lp"
    program.write_text("x_true(z).\nx_true(s(F)) :- x_true(F).\n")
    program.with_suffix(".names.json").write_text("{}")
    found = probe(program, seconds=2.0)
    assert not found.ok and found.error is not None
    assert "grounding did not finish within 2 s" in found.error or "memory bound" in found.error


# -- the engine ---------------------------------------------------------------------------


def test_the_engine_plays_tic_tac_toe_as_the_interface_says(tmp_path: Path) -> None:
    with compile_and_start(_copy("tic_tac_toe", tmp_path)) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        assert engine.players == 2 and engine.current_player(state) == 0
        assert engine.legal_actions(state)[0] == "mark(row=0, col=0)"
        assert len(engine.legal_actions(state)) == 9
        for action in ("mark(row=0, col=0)", "mark(row=1, col=0)", "mark(row=0, col=1)"):
            state = engine.apply(state, action)
        assert engine.current_player(state) == 1
        with pytest.raises(IllegalActionError):
            engine.apply(state, "mark(row=0, col=0)")
        state = engine.apply(state, "mark(row=1, col=1)")
        won = engine.apply(state, "mark(row=0, col=2)")
        assert engine.is_terminal(won) and engine.current_player(won) == TERMINAL
        assert engine.returns(won) == [1.0, -1.0]
        assert engine.legal_actions(won) == []
        text = engine.serialize(won)
        assert "(cell 1 3 x)" in text and "(control o)" in text
        assert engine.deserialize(text) == won
        with pytest.raises(ValueError, match="not a proposition of this game"):
            engine.deserialize("(cell 9 9 x)")


def test_a_legal_move_the_map_misses_is_a_fault_at_its_state(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    board = ws.pages_dir / "board.kif"
    text = board.read_text()
    board.write_text(
        text.replace("(<= (input ?r noop) (role ?r))", "").replace(
            "(<= (input ?r (mark ?m ?n)) (role ?r) (index ?m) (index ?n))", ""
        )
    )
    moves = ws.root / "gdl.toml"
    moves.write_text(moves.read_text().replace("(?P<row>[1-3])", "(?P<row>[1-2])"))
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        with pytest.raises(EngineFault, match=r"the legal move \(mark 3 1\) of role x matches no"):
            engine.legal_actions(engine.initial())


def test_simultaneous_moves_and_missing_goals_are_faults(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    play = ws.pages_dir / "play.kif"
    play.write_text(play.read_text().replace("(true (control ?w)))", "(role ?w))"))
    with compile_and_start(ws) as made:
        assert made.engine is not None, made.error
        with pytest.raises(EngineFault, match="x, o can move here: the interface needs exactly"):
            made.engine.legal_actions(made.engine.initial())
    ws = _copy("connect_four", tmp_path / "c4")
    end = ws.pages_dir / "end.kif"
    end.write_text(end.read_text().replace("(<= (goal o 0) (line x))", ""))
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        for col in (0, 1, 0, 1, 0, 1):
            state = engine.apply(state, f"drop(col={col})")
        won = engine.apply(state, "drop(col=0)")
        with pytest.raises(EngineFault, match=r"role o goal values none \(exactly one"):
            engine.is_terminal(won)


def test_random_games_end_with_returns_in_range(tmp_path: Path) -> None:
    with compile_and_start(_copy("connect_four", tmp_path)) as made:
        engine = made.engine
        assert engine is not None, made.error
        rng = random.Random(3)
        for _ in range(5):
            state = engine.initial()
            while not engine.is_terminal(state):
                state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            returns = engine.returns(state)
            assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


# -- check, regress, the oracle -----------------------------------------------------------


def test_check_passes_on_the_tic_tac_toe_pages(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    out = CliRunner().invoke(app, ["check", str(ws.root), "--fuzz", "50", "--oracle-runs", "30"])
    assert out.exit_code == 0, out.output
    assert "30 trajectories vs openspiel:tic_tac_toe" in out.output


def test_an_unsafe_page_fails_check_with_one_line(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    page = ws.pages_dir / "end.kif"
    page.write_text(
        page.read_text().replace("(<= (line ?x) (row ?m ?x))", "(<= (line ?y) (row ?m ?x))")
    )
    out = CliRunner().invoke(app, ["check", str(ws.root), "--fuzz", "5", "--oracle-runs", "2"])
    assert out.exit_code == 1
    assert "pages/end.kif:11:1: error: unsafe rule: ?y must occur" in out.output
    assert "Traceback" not in out.output


def test_gdl_oracle_agrees_with_openspiel_and_catches_a_wrong_description(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(
        CORPORA_DIR / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build", "reports")
    )
    shutil.copy(GOLD / "tic_tac_toe" / "gdl.toml", game / "gdl.toml")
    kif = tmp_path / "ttt.kif"
    kif.write_text(
        "\n".join(p.read_text() for p in sorted((GOLD / "tic_tac_toe" / "pages").glob("*.kif")))
    )
    engine = load_oracle(f"gdl:{kif}", game)
    reference = load_oracle("openspiel:tic_tac_toe")
    assert engine.players == 2
    assert engine.legal_actions(engine.initial()) == reference.legal_actions(reference.initial())
    wrong = tmp_path / "wrong.kif"
    wrong.write_text(
        "\n".join(
            line
            for line in kif.read_text().splitlines()
            if "(true (cell 1 3 ?x)) (true (cell 2 2" not in line
        )
    )
    out = CliRunner().invoke(
        app,
        ["check", str(game), "--oracle", f"gdl:{wrong}", "--fuzz", "0", "--oracle-runs", "100"],
    )
    assert out.exit_code == 1, out.output
    assert f"vs gdl:{wrong}" in out.output
    assert "oracle_returns" in out.output or "oracle_terminal" in out.output
    # the same binding in game.toml, the description kept in the game directory
    shutil.copy(kif, game / "ttt.kif")
    toml = (game / "game.toml").read_text()
    (game / "game.toml").write_text(
        toml.replace('oracle = "openspiel:tic_tac_toe"', 'oracle = "gdl:ttt.kif"')
    )
    out = CliRunner().invoke(app, ["check", str(game), "--fuzz", "0", "--oracle-runs", "30"])
    assert out.exit_code == 0, out.output
    assert "30 trajectories vs gdl:ttt.kif" in out.output


def test_a_gdl_oracle_without_a_move_map_is_one_line(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(CORPORA_DIR / "tic_tac_toe", game, ignore=shutil.ignore_patterns("build"))
    with pytest.raises(OracleError, match=r"the game directory needs a gdl\.toml"):
        load_oracle(f"gdl:{GOLD / 'tic_tac_toe' / 'pages'}", game)
    with pytest.raises(OracleError, match="no such file"):
        load_oracle("gdl:nowhere.kif", game)
    shutil.copy(GOLD / "tic_tac_toe" / "gdl.toml", game / "gdl.toml")
    (game / "bad.kif").write_text("(role x)\n(role o)\n(<= (legal ?r noop) (role ?r)\n")
    with pytest.raises(OracleError, match=r"gdl:bad\.kif: .*bad\.kif:3:1: unbalanced '\('"):
        load_oracle("gdl:bad.kif", game)
    out = CliRunner().invoke(app, ["check", str(game), "--oracle", "gdl:bad.kif", "--fuzz", "0"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "unbalanced '('" in out.output


@pytest.mark.slow
def test_the_gdl_corpus_agrees_with_the_rl_pages(tmp_path: Path) -> None:
    for game in ("tic_tac_toe", "connect_four"):
        ws = _copy(game, tmp_path)
        rl = shutil.copytree(
            CORPORA_DIR / game, tmp_path / f"rl_{game}", ignore=shutil.ignore_patterns("build")
        )
        out = CliRunner().invoke(
            app,
            [
                "check",
                str(ws.root),
                "--against",
                str(rl),
                "--fuzz",
                "0",
                "--oracle-runs",
                "50",
            ],
        )
        assert out.exit_code == 0, out.output
        assert "0 difference(s)" in out.output


def test_workspace_of_a_gdl_game_lists_kif_pages() -> None:
    ws = open_workspace(GOLD / "connect_four")
    assert ws.page_suffix == ".kif"
    assert [p.name for p in ws.pages()] == ["drop.kif", "end.kif", "grid.kif"]


def test_the_compiled_network_answers_as_clingo_does(tmp_path: Path) -> None:
    ws = _copy("connect_four", tmp_path)
    with compile_and_start(ws) as made:
        engine = made.engine
        assert isinstance(engine, GdlEngine), made.error
        assert engine.backend == "propnet", engine.reasoner.propnet_note
        reasoner = engine.reasoner
        rng = random.Random(5)
        states = 0
        for _ in range(10):
            state = reasoner.initial
            while True:
                answer = reasoner.query(state)
                assert answer == reasoner.solve_query(state)
                states += 1
                if answer.terminal:
                    break
                joint = tuple(rng.choice(moves) for moves in answer.legal)
                after = reasoner.transition(state, joint)
                assert after == reasoner.solve_transition(state, joint)
                state = after
        assert states > 50
        totals = engine.playout_stats(7, 50, 100)
        assert totals.count == 50 and totals.statuses["terminal"] == 50
        assert 7 * 50 <= totals.steps <= 42 * 50


def test_a_game_that_never_ends_is_a_finding(tmp_path: Path) -> None:
    game = tmp_path / "forever"
    (game / "pages").mkdir(parents=True)
    (game / "game.toml").write_text(
        'name = "forever"\nplayers = 1\ntarget = "gdl"\nmax_game_length = 20\n'
    )
    (game / "interface.toml").write_text('[[actions]]\nname = "push"\n')
    (game / "pages" / "all.kif").write_text(
        "; page: all\n; implements: 1\n\n(role a)\n(init on)\n"
        "(<= (legal a (push)) (true on))\n(<= (next on) (true on))\n"
        "(<= terminal (not (true on)))\n(goal a 100)\n"
    )
    out = CliRunner().invoke(app, ["check", str(game), "--fuzz", "20", "--oracle-runs", "0"])
    assert out.exit_code == 1, out.output
    assert "no_termination" in out.output
    assert "Traceback" not in out.output


def test_bench_measures_the_network_beside_openspiel(tmp_path: Path) -> None:
    from rulebook2game.bench import NATIVE, OPENSPIEL, bench_workspace

    report = bench_workspace(_copy("tic_tac_toe", tmp_path), seconds=0.1, trust=True)
    native, reference = report.row(NATIVE), report.row(OPENSPIEL)
    assert native is not None and reference is not None
    assert native.playouts > 0 and native.steps is not None and native.steps >= 5 * native.playouts
    assert any("GDL propositional network" in note for note in report.notes)
    assert any("in-process rows left out" in note for note in report.notes)


def test_without_clingo_the_target_and_the_oracle_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    import rulebook2game.targets as registry

    for module in [m for m in sys.modules if m.startswith("rulebook2game.targets.gdl")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "clingo", None)
    monkeypatch.setattr(registry, "_LOADED", {})
    with pytest.raises(WorkspaceError, match=r"pip install 'rulebook2game\[gdl\]'"):
        get_target("gdl")
    with pytest.raises(OracleError, match=r"pip install 'rulebook2game\[gdl\]'"):
        load_oracle("gdl:x.kif", tmp_path)


def test_names_clingo_cannot_spell_come_back_as_written(tmp_path: Path) -> None:
    game = tmp_path / "lamp"
    (game / "pages").mkdir(parents=True)
    (game / "game.toml").write_text('name = "lamp"\nplayers = 1\ntarget = "gdl"\n')
    (game / "interface.toml").write_text('[[actions]]\nname = "push"\n')
    (game / "pages" / "all.kif").write_text(
        "; page: all\n; implements: 1\n\n(role Lamp-Keeper)\n(init (lamp-state ON))\n"
        "(<= (legal lamp-keeper (push)) (true (lamp-state on)))\n"
        "(<= (next (lamp-state off)) (does ?r (push)))\n"
        "(<= terminal (true (lamp-state off)))\n(goal lamp-keeper 100)\n"
    )
    with compile_and_start(Workspace(game)) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        assert engine.serialize(state) == "(lamp-state on)"
        assert engine.legal_actions(state) == ["push()"]
        done = engine.apply(state, "push()")
        assert engine.serialize(done) == "(lamp-state off)" and engine.is_terminal(done)
        assert engine.returns(done) == [1.0]


def test_a_broken_move_map_is_one_compile_line(tmp_path: Path) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    (ws.root / "gdl.toml").write_text("roles = ['x', 'o']\nmoves = []\n")
    result = get_target("gdl").compile(ws)
    assert not result.ok
    assert result.summary().endswith(
        "gdl.toml: moves: Tuple should have at least 1 item after validation, not 0"
    )
    (ws.root / "gdl.toml").write_text("[[moves]]\npattern = '(unclosed'\ntemplate = 'x()'\n")
    assert "pattern '(unclosed'" in get_target("gdl").compile(ws).summary()
    (ws.root / "gdl.toml").write_text(
        "roles = ['x', 'y']\n[[moves]]\npattern = 'p'\ntemplate = 'x()'\n"
    )
    assert "roles ['x', 'y'] do not match the description's ['x', 'o']" in (
        get_target("gdl").compile(ws).summary()
    )


def test_init_outside_base_and_a_bound_goal_out_of_range_fail_after_grounding(
    tmp_path: Path,
) -> None:
    ws = _copy("tic_tac_toe", tmp_path)
    board = ws.pages_dir / "board.kif"
    board.write_text(board.read_text().replace("(init (control x))", "(init (control z))"))
    assert "(init (control z)) is not a base proposition" in get_target("gdl").compile(ws).summary()
    ws = _copy("tic_tac_toe", tmp_path / "goal")
    end = ws.pages_dir / "end.kif"
    end.write_text(end.read_text() + "\\n(score 150)\\n(<= (goal x ?s) (score ?s) (line x))\\n")
    assert "goal values [150] are not integers in 0..100" in get_target("gdl").compile(ws).summary()


COIN = """; page: coin
; implements: 1

(role p)
(role random)
(side 0)
(side 1)
(init (phase bet))
(<= (legal p (bet ?s)) (true (phase bet)) (side ?s))
(<= (legal random noop) (true (phase bet)))
(<= (legal random (flip ?s)) (true (phase flip)) (side ?s))
(<= (legal p noop) (true (phase flip)))
(<= (next (phase flip)) (true (phase bet)))
(<= (next (phase done)) (true (phase flip)))
(<= (next (guess ?s)) (does p (bet ?s)))
(<= (next (guess ?s)) (true (guess ?s)))
(<= (next (coin ?s)) (does random (flip ?s)))
(<= terminal (true (phase done)))
(<= (goal p 100) (true (guess ?s)) (true (coin ?s)))
(<= (goal p 0) (true (guess ?s)) (true (coin ?t)) (distinct ?s ?t))
(<= (goal p 50) (not (true (phase done))))
"""


def test_the_random_role_of_gdl_ii_is_the_chance_player(tmp_path: Path) -> None:
    game = tmp_path / "coin"
    (game / "pages").mkdir(parents=True)
    (game / "game.toml").write_text('name = "coin"\nplayers = 1\ntarget = "gdl"\n')
    (game / "interface.toml").write_text(
        '[[actions]]\nname = "bet"\nargs = [{ name = "side", min = 0, max = 1 }]\n\n'
        '[[actions]]\nname = "flip"\nargs = [{ name = "side", min = 0, max = 1 }]\n\n'
        '[chance]\nactions = ["flip"]\n'
    )
    (game / "pages" / "coin.kif").write_text(COIN)
    with compile_and_start(Workspace(game)) as made:
        engine = made.engine
        assert engine is not None, made.error
        assert engine.players == 1
        state = engine.apply(engine.initial(), "bet(side=1)")
        assert engine.current_player(state) == CHANCE
        assert engine.chance_outcomes(state) == [("flip(side=0)", 0.5), ("flip(side=1)", 0.5)]
        assert engine.returns(engine.apply(state, "flip(side=1)")) == [1.0]
        assert engine.returns(engine.apply(state, "flip(side=0)")) == [0.0]
    out = CliRunner().invoke(app, ["check", str(game), "--fuzz", "50", "--oracle-runs", "0"])
    assert out.exit_code == 0, out.output
    seen = parse_kif(COIN.replace("(role random)", "(role random)\n(<= (sees p x) (role p))"), "c")
    problems = check_rules([r for rule in seen for r in expand_or(rule)])
    assert any("hidden information is not supported" in str(p) for p in problems)


def test_a_move_map_with_only_returns_keeps_the_direct_moves(tmp_path: Path) -> None:
    game = tmp_path / "lamp"
    (game / "pages").mkdir(parents=True)
    (game / "game.toml").write_text('name = "lamp"\nplayers = 1\ntarget = "gdl"\n')
    (game / "interface.toml").write_text('[[actions]]\nname = "push"\n')
    (game / "gdl.toml").write_text("returns = [-1.0, 1.0]\n")  # the scale, no [[moves]]
    (game / "pages" / "all.kif").write_text(
        "; page: all\n; implements: 1\n\n(role keeper)\n(init (lamp on))\n"
        "(<= (legal keeper (push)) (true (lamp on)))\n"
        "(<= (next (lamp off)) (does ?r (push)))\n"
        "(<= terminal (true (lamp off)))\n(goal keeper 0)\n"
    )
    with compile_and_start(Workspace(game)) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        assert engine.legal_actions(state) == ["push()"]
        assert engine.returns(engine.apply(state, "push()")) == [-1.0]  # goal 0, scaled
