"""The RBG target: parsing and checks with page lines, the search, the move mapping, the corpus."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebook2game.check.run import compile_stage, fuzz_stage, run_check
from rulebook2game.cli import app
from rulebook2game.errors import EngineFault
from rulebook2game.regress import RegressSettings, regress
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets import get_target
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.rbg.automaton import Automaton, build, shared_prefixes
from rulebook2game.targets.rbg.compile import lower_workspace
from rulebook2game.targets.rbg.lower import Lowered
from rulebook2game.targets.rbg.model import describe
from rulebook2game.targets.rbg.slots import plan
from rulebook2game.targets.rbg.syntax import RbgProblem
from rulebook2game.workspace import Workspace, open_workspace

GOLD = CORPORA_DIR / "rbg"
_BUILDS = shutil.ignore_patterns("build", "runs", "reports")

BOARD = """// page: board
// implements: 2, 3
#players = cross(100), nought(100)
#pieces = e, x, o
#variables =
#board = rectangle(up, down, left, right,
    [e, e, e]
    [e, e, e]
    [e, e, e])
"""


def _copy(tmp_path: Path, game: str = "tic_tac_toe") -> Workspace:
    return open_workspace(shutil.copytree(GOLD / game, tmp_path / game, ignore=_BUILDS))


def _problem(text: str) -> RbgProblem:
    with pytest.raises(RbgProblem) as caught:
        describe([("pages/rules.rbg", text)])
    return caught.value


def _compile_error(ws: Workspace) -> str:
    result = get_target("rbg").compile(ws)
    assert not result.ok
    return str(result.diagnostics[0])


def test_a_syntax_error_names_page_line_and_the_offending_part() -> None:
    problem = _problem(BOARD + "#rules = ->cross (left [x]\n")
    assert problem.at.file == "pages/rules.rbg"
    assert problem.at.line == 10
    assert "expected `)`" in problem.message


def test_an_unbounded_variable_is_refused_at_its_line() -> None:
    text = BOARD.replace("#variables =", "#variables = moves") + "#rules = ->cross\n"
    problem = _problem(text)
    assert problem.at.line == 5
    assert "`moves` has no bound" in problem.message


def test_rules_that_never_switch_are_refused() -> None:
    problem = _problem(BOARD + "#rules = up* [x]\n")
    assert "never switch" in problem.message
    assert problem.at.line == 10


def test_a_modifier_repeated_in_place_is_play_that_never_ends() -> None:
    problem = _problem(BOARD + "#rules = [x]* ->cross\n")
    assert "unbounded straightness" in problem.message and "`[x]`" in problem.message


def test_a_switch_inside_a_pattern_and_an_unknown_name_are_refused() -> None:
    assert "patterns may not switch" in _problem(BOARD + "#rules = {? ->nought} ->cross\n").message
    problem = _problem(BOARD + "#rules = sideways ->cross\n")
    assert "`sideways`" in problem.message and "not declared" in problem.message


def test_macros_take_arguments_split_by_semicolons() -> None:
    text = BOARD + "#step(a; b) = a b\n#rules = step(up; left) [x] ->cross\n"
    rules = build(describe([("pages/rules.rbg", text)]).rules)
    assert [a.text for a in rules.actions] == ["up", "left", "[x]", "->cross"]
    problem = _problem(BOARD + "#step(a; b) = a b\n#rules = step(up) ->cross\n")
    assert "takes 2 arguments" in problem.message


def test_the_automaton_follows_the_paper_example() -> None:
    # up left* + [x] (up [y])*, indexed: up1 left2 + [x]3 (up4 [y]5)* (the paper's E)
    text = (
        BOARD.replace("#pieces = e, x, o", "#pieces = e, x, y")
        + "#rules = up left* + [x] (up [y])* ->cross\n"
    )
    aut = build(describe([("pages/rules.rbg", text)]).rules)
    assert aut.follow[0] == (1, 3)
    assert aut.follow[4] == (5,)
    assert set(aut.follow[5]) == {4, 6}
    assert aut.cyclic() == frozenset()  # left* ends at the board's edge: nothing to remember


def test_searches_remember_visits_only_where_a_walk_can_come_back() -> None:
    def cyclic(rules: str) -> set[str]:
        aut = build(describe([("pages/rules.rbg", BOARD + f"#rules = {rules} ->cross\n")]).rules)
        return {aut.actions[q - 1].text for q in aut.cyclic()}

    assert cyclic("(left + right)*") == {"left", "right"}
    assert cyclic("({e} + up)*") == {"{e}", "up"}  # {e} can repeat standing still
    assert cyclic("up* (down {e})*") == set()


def test_walks_whose_steps_keep_to_one_half_plane_need_no_marks() -> None:
    def cyclic(rules: str) -> set[str]:
        desc = describe([("pages/rules.rbg", BOARD + f"#rules = {rules} ->cross\n")])
        aut = build(desc.rules)
        return {aut.actions[q - 1].text for q in aut.cyclic(desc.board.directions)}

    assert cyclic("(up left {e})*") == set()  # a diagonal never comes back
    assert cyclic("(up + left + up left)*") == set()
    assert cyclic("(up left + down right)*") == {"up", "left", "down", "right"}
    assert cyclic("(up + left + down right)*") == {"up", "left", "down", "right"}


def _generated(game: str) -> str:
    lowered = lower_workspace(open_workspace(GOLD / game))
    assert isinstance(lowered, Lowered)
    return lowered.source


def _function(source: str, name: str) -> str:
    head = f"fun {name}("
    assert head in source
    body = source.split(head, 1)[1]
    return head + body.split("\nfun ", 1)[0]


def test_the_search_code_is_specialised_where_the_rules_allow() -> None:
    source = _generated("breakthrough")
    # every move ending at a switch applies the same number of modifiers: each switch
    # has its own found function, whose action reads fixed modifier slots
    assert "r2gb_found(g, c, " not in source
    action = _function(source, "r2gb_action33")
    assert "c.ppos[0]" in action and "r2gb_mod_pos" not in action
    # anySquare's repeated shifts are loops, not one recursive call per square
    walk = _function(source, "r2gb_s4")
    assert "while true:" in walk and "r2gb_s4(" not in walk.split("\n", 1)[1]
    # so is connect four's (down {e})*: a cycle of a shift and a test
    drop = _function(_generated("connect_four"), "r2gb_s10")
    assert "while true:" in drop and "r2gb_s9(" not in drop
    # nothing counts pieces, so an off writes the square only
    assert "counts" not in _function(source, "r2gb_put")
    # chess reads piece counts (insufficient material): its offs keep them
    assert "g.counts[piece]" in _function(_generated("chess"), "r2gb_put")


def test_walks_patterns_and_found_moves_take_the_cheaper_shapes() -> None:
    c4 = _generated("connect_four")
    # `(down {e})* {! down {e}}`: the walk stops where `down {e}` fails, the only square
    # where the negation holds, and runs what follows there alone: no walk back
    drop = _function(c4, "r2gb_s10")
    assert drop.count("while true:") == 1 and "p == pos" not in drop
    assert drop.split("\n    r2gb_s10a(g, c, p)", 1)[0].count("break") == 2
    # a player's walk (`left*` along the top row) does its work going out: one pass
    row = _function(c4, "r2gb_s6")
    assert row.count("while true:") == 1 and "p == pos" not in row
    assert "r2gb_s6a(g, c, p)" in row.split("while true:", 1)[1]
    # the four-in-a-row pattern has no cycle: nested tests of squares at fixed offsets
    # from its own, the edges tested on the start's row and column, no search; its
    # sixteen lines share their beginnings (36 squares read, not 48)
    four = _function(c4, "r2gb_pattern2")
    assert "fun r2gb_p2_s0(" not in c4 and "R2gbCtxP2" not in c4
    assert "pos %" not in four and four.count("g.cells[") == 36
    assert "let r = start / 7" in four and "if r >= 3:" in four
    # the keeper's `{? four(x)} ... + {! four(x)} ...`: one search of the pattern, its
    # answer kept for both alternatives (not asked of the one-entry cache twice)
    keeper = _function(c4, "r2gb_s13")
    assert keeper.count("r2gb_pattern2(g, pos)") == 1 and "r2gb_cpattern2" not in keeper
    assert "if tp2:" in keeper and "if !tp2:" in keeper
    # no slot is cleared before a search: a rising base stamps them
    assert "slot" not in _function(c4, "r2gb_enumerate")
    bt = _generated("breakthrough")
    # a switch only a player's search reaches asks nothing of the keeper, and one only
    # the keeper's search reaches maps no action
    assert "g.player ==" not in _function(bt, "r2gb_found33")
    assert "r2gb_action" not in _function(bt, "r2gb_found18")
    assert "fun r2gb_action18(" not in bt
    # no state is searched for both: the keeper's move stays as its search applied it
    # (the switch made where found, the piece it puts down listed after), not replayed
    keeper_found = _function(bt, "r2gb_found18")
    assert "g.node = 18" in keeper_found and "g.moves.node" not in keeper_found
    settle = _function(bt, "r2gb_settle")
    assert "r2gb_apply_move" not in settle and "r2gb_kept(g)" in settle
    # a player's move ending at switch 13 always puts x down first: replayed without
    # asking what each modifier is
    assert "r2gb_modify" not in _function(c4, "r2gb_apply13")
    assert "if last == 13:" in _function(c4, "r2gb_apply_move")
    # col(0) and 8 - row(0) cannot leave their bounds: no range test per move found
    assert "assert(" not in _function(bt, "r2gb_action33")
    # the keeper takes the first move found: its walks keep the recursion's order
    chess = _generated("chess")
    assert "p == pos" in chess


def _plan(rules: str) -> set[tuple[int, int, int, int]] | None:
    """The slot plan of ``rules`` on the 3 x 3 board, each move its own action: (first
    square, step, squares, slots per square) of every player switch's searches."""
    desc = describe([("pages/rules.rbg", BOARD + f"#rules = {rules}\n")])
    aut = build(desc.rules)
    found = plan(aut, 3, 9, desc.board.directions, aut.modifier_depth(), lambda m: m, 99)
    if found is None:
        return None
    return {(p.first, p.step, p.count, p.per_square) for p in found.values()}


def test_slots_come_from_a_walk_that_only_looks_at_the_board() -> None:
    # any square, then a test of the piece there: 9 squares, one move each
    assert _plan("->cross ((up* + down*) (left* + right*) {e} [x] ->cross)*") == {(0, 1, 9, 1)}
    # the top row (`{! up}` looks at the board's shape only), then a drop down the column
    # to the first modifier: 3 squares, and the columns' squares are disjoint; each move
    # its own action: three a column
    top = "->cross (up* {! up} (left* + right*) {e} (down {e})* [x] ->cross)*"
    assert _plan(top) == {(0, 1, 3, 3)}
    # `(up {e})*` stops the walk at its first test, whose square depends on where play
    # stands
    assert _plan("->cross ((up {e})* [x] ->cross)*") is None
    # one step up from wherever play stands: the squares depend on where the walk starts
    assert _plan("->cross (up {e} [x] ->cross)*") is None
    # a move could be found from two squares (its first modifier left of both)
    assert _plan("->cross ((left* + right*) {e} left* [x] ->cross)*") is None
    # modifiers repeated under a star: no exact bound, no plan
    assert _plan("->cross ((left* + right*) {e} (left [x])* ->cross)*") is None


def test_games_whose_moves_begin_at_one_square_read_them_by_slots() -> None:
    for game, squares, per_square in (("breakthrough", 64, 3), ("connect_four", 7, 1)):
        source = _generated(game)
        assert "fun r2g_moves(" not in source and "fun r2g_candidate_at(" in source
        # the slots are those of the squares whose piece passes the first test (the
        # mover's pieces, the open columns), kept listed by the moves applied
        assert f"return game.g.n0 * {per_square}" in _function(source, "r2g_candidate_slots")
        assert f"Int[{squares}] at0" in source
        assert "r2gb_track(g, pos, old0, " in _function(source, "r2gb_modify")
    # chess: a queen's square bounds 41 moves, too many slots stay empty: it lists them
    assert "fun r2g_moves(" in _generated("chess")


def test_asking_for_moves_does_not_change_the_state_text(tmp_path: Path) -> None:
    ws = _copy(tmp_path, "breakthrough")
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.apply(engine.initial(), "move(from_file=0, from_rank=7, to_file=0)")
        text = engine.serialize(state)
        legal = engine.legal_actions(state)  # the searches fill the moves found lazily
        assert engine.serialize(state) == text
        again = engine.deserialize(text)
        assert engine.serialize(again) == text and engine.legal_actions(again) == legal
        assert engine.current_player(again) == 1 and len(legal) == 22
        after = engine.apply(again, "move(from_file=0, from_rank=2, to_file=0)")
        assert engine.current_player(after) == 0


def _words(aut: Automaton, q: int = 0) -> set[tuple[str, ...]]:
    """Every word of an acyclic automaton from state ``q``, as the actions' texts."""
    out = {()} if q in aut.accepting else set()
    for j in aut.follow[q]:
        out |= {(aut.actions[j - 1].text, *rest) for rest in _words(aut, j)}
    return out


def test_alternatives_that_begin_alike_share_their_states() -> None:
    text = BOARD + "#rules = {? up {x} up {x} + up {x} left {o} + up {x, o} + left} ->cross\n"
    aut = build(describe([("pages/rules.rbg", text)]).rules)
    (pattern,) = aut.patterns.values()
    merged = shared_prefixes(pattern, {"up": (-1, 0), "left": (0, -1)})
    assert _words(merged) == _words(pattern)
    # `up {x}` once (two `up`s and one `{x}` fewer); `{x, o}` is another test
    assert merged.size == pattern.size - 3
    assert len(merged.follow[0]) == 2


def test_nothing_follows_a_never_valid_on() -> None:
    # `{}` is never valid: the star must not count a way round through it as a move
    # that applies [x] again without switching
    text = BOARD + "#rules = (left [x] {})* ->cross\n"
    aut = build(describe([("pages/rules.rbg", text)]).rules)
    assert aut.modifier_depth() == 1


def test_a_bad_page_fails_check_with_one_finding_at_the_page(tmp_path: Path) -> None:
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    turn.write_text(turn.read_text().replace("[mark] ->>", "[mark ->>"))
    assert "pages/turn.rbg:" in _compile_error(ws)
    out = CliRunner().invoke(app, ["check", str(ws.root), "--fuzz", "5", "--oracle-runs", "2"])
    assert out.exit_code == 1
    assert "Traceback" not in out.output and "pages/turn.rbg:" in out.output


def test_a_mapping_that_misses_a_legal_move_is_a_finding(tmp_path: Path) -> None:
    # ranks one off: white's first moves map fine, a move from its home rank does not
    ws = _copy(tmp_path, "breakthrough")
    turn = ws.pages_dir / "turn.rbg"
    turn.write_text(turn.read_text().replace("from_rank = 8 - row(0)", "from_rank = 7 - row(0)"))
    report = run_check(ws, (compile_stage, fuzz_stage), options={"fuzz": 20})
    messages = " ".join(f.message for f in report.findings)
    assert "move mapping" in messages and "misses this move" in messages


def test_a_mapping_that_misses_a_first_move_is_one_line(tmp_path: Path) -> None:
    ws = _copy(tmp_path, "connect_four")
    turn = ws.pages_dir / "turn.rbg"
    turn.write_text(turn.read_text().replace("col = col(0)", "col = col(0) + 1"))
    out = CliRunner().invoke(app, ["check", str(ws.root), "--fuzz", "5", "--oracle-runs", "2"])
    assert out.exit_code == 1
    assert "Traceback" not in out.output
    assert "pages/turn.rbg:" in out.output and "misses this move" in out.output


def test_the_mapping_may_be_a_file_of_the_game_directory(tmp_path: Path) -> None:
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    on_page = turn.read_text()
    (ws.root / "rbg.toml").write_text('[[moves]]\naction = "mark"\nargs = { row = "row(0)" }\n')
    assert "both map the moves" in _compile_error(ws)
    turn.write_text(on_page.split("#moves")[0])
    assert "no expression for argument 'col'" in _compile_error(ws)
    (ws.root / "rbg.toml").write_text(
        '[[moves]]\naction = "mark"\nargs = { row = "row(0)", col = "col(0)" }\n'
        "[returns]\noffset = 50\nscale = 50\n"
    )
    with compile_and_start(ws) as made:
        assert made.engine is not None, made.error
        assert len(made.engine.legal_actions(made.engine.initial())) == 9


def test_a_bad_mapping_on_a_page_is_an_error_at_its_line(tmp_path: Path) -> None:
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    turn.write_text(turn.read_text().replace("col = col(0)", "column = col(0)"))
    error = _compile_error(ws)
    assert "pages/turn.rbg:" in error and "has no argument `column`" in error


def test_play_that_never_ends_is_a_finding(tmp_path: Path) -> None:
    # marks may go on any square and no line ever wins: every position has a move
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    text = turn.read_text().replace("anySquare {e} [mark] ->>", "anySquare [mark] ->>")
    turn.write_text(text.replace("{? three(mark)} [$ me", "{? three(mark)} {} [$ me"))
    report = run_check(ws, (compile_stage, fuzz_stage), options={"fuzz": 20})
    assert any("no end within 9 steps" in f.message for f in report.findings)


def test_a_move_past_the_search_bound_is_a_fault_at_the_rules(tmp_path: Path) -> None:
    # right [x] left [e], again and again: modifiers without end inside one move
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    text = turn.read_text()
    turn.write_text(
        text.replace(
            "anySquare {e} [mark] ->>", "anySquare {e} (right [mark] left [e])* [mark] ->>"
        )
    )
    with compile_and_start(ws) as made:
        assert made.engine is not None, made.error
        with pytest.raises(EngineFault) as caught:
            made.engine.initial()
    assert "more modifiers before its switch than the search allows" in caught.value.message
    assert "pages/" in caught.value.message and "generated.rl" not in caught.value.message


def test_a_game_with_chance_is_refused(tmp_path: Path) -> None:
    ws = _copy(tmp_path)
    interface = ws.root / "interface.toml"
    interface.unlink()
    interface.write_text(
        (CORPORA_DIR / "tic_tac_toe" / "interface.toml")
        .read_text()
        .replace("actions = []", 'actions = ["mark"]')
    )
    assert "deterministic games with perfect information" in _compile_error(ws)


def _cyclic_walk(tmp_path: Path) -> Workspace:
    """Tic-tac-toe whose walk to a square is (up + down + left + right)*: a cycle of
    shifts, so its search must remember visits and the game lists its moves (no slots)."""
    ws = _copy(tmp_path)
    turn = ws.pages_dir / "turn.rbg"
    turn.write_text(
        turn.read_text().replace(
            "#anySquare = (up* + down*) (left* + right*)",
            "#anySquare = (up + down + left + right)*",
        )
    )
    return ws


def test_a_search_through_a_cycle_of_shifts_ends(tmp_path: Path) -> None:
    # (left + right)* walks back and forth forever unless visits are remembered
    ws = _cyclic_walk(tmp_path)
    with compile_and_start(ws) as made:
        assert made.engine is not None, made.error
        state = made.engine.initial()
        assert len(made.engine.legal_actions(state)) == 9


def test_a_listing_game_reads_its_text_back_with_the_moves_of_the_board(tmp_path: Path) -> None:
    # a walk with a cycle: no slots, the game lists every move after each one
    ws = _cyclic_walk(tmp_path)
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        text = engine.serialize(engine.initial())
        # the semi-state and rules index alone: no moves found, no search context, no
        # counts (they follow from the cells)
        assert text.count("cells: [0, 0, 0, 0, 0, 0, 0, 0, 0]") == 1
        assert "moves" not in text and "counts" not in text and len(text) < 200
        # a text whose board holds a cross (as a scenario's set writes it) lists the
        # moves of that board, not those of the text it was edited from
        edited = engine.deserialize(text.replace("cells: [0, ", "cells: [1, ", 1))
        assert len(engine.legal_actions(edited)) == 8
        assert engine.serialize(edited) == text.replace("cells: [0, ", "cells: [1, ", 1)


def test_the_legal_moves_come_from_the_search(tmp_path: Path) -> None:
    ws = _copy(tmp_path, "breakthrough")
    with compile_and_start(ws) as made:
        engine = made.engine
        assert engine is not None, made.error
        state = engine.initial()
        legal = engine.legal_actions(state)
        assert len(legal) == 22  # the paper: 22 moves for the first player of breakthrough
        assert "move(from_file=0, from_rank=7, to_file=1)" in legal
        state = engine.apply(state, "move(from_file=0, from_rank=7, to_file=0)")
        assert engine.current_player(state) == 1


@pytest.mark.slow
def test_every_gold_rbg_game_passes_regress(tmp_path: Path) -> None:
    gold = shutil.copytree(GOLD, tmp_path / "rbg", ignore=_BUILDS)  # links followed
    result = regress(gold, RegressSettings(seed=0, fuzz_playouts=50, oracle_trajectories=10))
    assert {g.game for g in result.games} == {
        "tic_tac_toe",
        "connect_four",
        "breakthrough",
        "chess",
    }
    assert result.ok, [g.first_finding for g in result.games if not g.ok]


def test_the_worked_example_of_the_notes_is_the_corpus_connect_four() -> None:
    notes = get_target("rbg").reference.read_text()
    for page in ("board", "turn"):
        assert (GOLD / "connect_four" / "pages" / f"{page}.rbg").read_text() in notes
    assert (GOLD / "breakthrough" / "pages" / "turn.rbg").read_text() in notes
