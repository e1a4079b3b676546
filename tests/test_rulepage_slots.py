"""RulePage ``slots`` clauses: where an action's legal moves can be, lowered to the rl
target's candidate slots (``r2g_candidate_slots``/``r2g_candidate_at``).

The corpus Breakthrough keeps its pieces' squares in a list and gives ``move`` three
slots per piece of the player to move; these tests hold the lowering to the contract
(every legal move in one slot, checked against the whole table) and the clause's
errors to their page lines. A game with slots also gets the playout loop's draw among
them written from its pages (``r2g_slot_play``): the same draws as the runtime's
generic slot step, each drawn slot tested with its own action's offers at the step's
tier; the replays here check it against testing the whole table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.check.native import native_candidates, native_chooser, native_order
from rulebook2game.check.run import compile_stage, fuzz_stage, run_check, scenarios_stage
from rulebook2game.resources import CORPORA_DIR
from rulebook2game.targets.base import compile_and_start
from rulebook2game.targets.rl.compile import compile_workspace
from rulebook2game.targets.rl.engine import RlEngine
from rulebook2game.targets.rulepage.compile import SLOT_DRAW, compile_pages, lower_workspace
from rulebook2game.targets.rulepage.lower import compose
from rulebook2game.targets.rulepage.syntax import parse_page
from rulebook2game.workspace import Workspace, open_workspace
from tests.rl_support import game_copy, in_process_matches_table

BREAKTHROUGH = CORPORA_DIR / "rulepage" / "breakthrough"
HEARTS = CORPORA_DIR / "rulepage" / "hearts"
OPTIONS = {"fuzz": 60, "request_timeout": 5.0, "batch_timeout": 10.0}
SEED = 20261128
SLOTS = "slots move(ff, fr, tf) for k < 3 * g.pieces[g.player]:\n"


def _copy(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """The corpus game (links followed, no build), with ``old`` replaced by ``new`` once
    in its pieces page."""
    return game_copy(BREAKTHROUGH, tmp_path, old, new, page_name="pieces.page")


def _engine(root: Path, optimized: bool) -> RlEngine:
    engine = compile_and_start(Workspace(root), optimized=optimized).engine
    assert isinstance(engine, RlEngine)
    return engine


def _problems(tmp_path: Path, old: str, new: str) -> list[tuple[str, int, str]]:
    ws = open_workspace(_copy(tmp_path, old, new))
    pages = [parse_page(p.stem, f"pages/{p.name}", p.read_text()) for p in ws.pages_dir.iterdir()]
    found = compose(pages, ws.interface(), 2)
    assert isinstance(found, list), "the pages composed"
    return [(p.at.file, p.at.line, p.message) for p in found]


def test_two_slots_clauses_for_one_action_are_an_error_on_both(tmp_path: Path) -> None:
    problems = _problems(tmp_path, SLOTS, SLOTS + "    ff = -1\n\n" + SLOTS)
    message = "`move` has two `slots` clauses; give it one"
    assert [(f, m) for f, _, m in problems] == [("pages/pieces.page", message)] * 2
    assert len({line for _, line, _ in problems}) == 2


def test_a_slot_number_named_as_an_argument_is_an_error(tmp_path: Path) -> None:
    problems = _problems(tmp_path, SLOTS, SLOTS.replace("for k", "for ff"))
    assert [m for _, _, m in problems] == ["the slot number `ff` is also an argument's name"]


def test_slots_of_an_action_not_in_the_interface_are_an_error(tmp_path: Path) -> None:
    problems = _problems(tmp_path, SLOTS, SLOTS.replace("slots move(", "slots jump("))
    assert len(problems) == 1 and "`jump` is not an action of interface.toml" in problems[0][2]


def _loop_replays(root: Path, count: int = 4) -> tuple[tuple[int, ...], ...]:
    """The optimized loop's recorded games of ``root`` (asserted equal to the checked
    build's), each replayed on the checked build with the legal set found by testing
    the whole table and the loop's choices made in Python; the games' actions."""
    with _engine(root, optimized=True) as fast, _engine(root, optimized=False) as checked:
        assert fast.lists_candidates and not fast.lists_moves
        played = fast.playouts(SEED, count, 2000, record=True)
        assert played == checked.playouts(SEED, count, 2000, record=True)
        choose = native_chooser(checked, SEED)
        for game in played:
            assert game.actions is not None and game.status == "terminal"
            state, actions = checked.initial(), []
            while not checked.is_terminal(state):
                slots = native_candidates(checked, state)
                assert slots is not None
                filled = [c for c in slots if c != -1]  # -1: an empty slot
                assert len(set(filled)) == len(filled) and len(slots) % 3 == 0
                legal = checked.legal_indices(state)
                assert legal == checked.table_legal_indices(state)
                texts = checked.legal_actions(state)
                actions.append(choose(native_order(checked, state, texts), slots))
                state = checked.apply(state, actions[-1])
            assert tuple(actions) == game.actions
        return tuple(game.actions or () for game in played)


@pytest.mark.slow
def test_the_slots_give_the_table_and_the_loop_replays(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _loop_replays(root)
    in_process_matches_table(root, SEED)


def test_the_slot_draw_tests_a_drawn_slot_with_its_own_action_s_offers() -> None:
    lowered = lower_workspace(open_workspace(HEARTS))
    assert not isinstance(lowered, list), lowered
    draw = lowered.slot_draw
    assert (
        "fun r2g_slot_play(Game game, R2GRandom rng, Int max_steps, Bool record, "
        "Vector<Int> out, Int size, Vector<Int> legal, Int status) -> Int:" in draw
    )
    # the steps of one playout: until the game is done, the step limit or no legal move
    assert "    while !game.is_done():" in draw
    assert "status = R2G_TRUNCATED" in draw and draw.count("status = R2G_STUCK") == 2
    # the tier once a step; the slots of each action its guard opens, in table order
    assert draw.count("r2gp_tier(game.g)") == 1
    assert draw.index("r2gp_may__pass_direction(") < draw.index("r2gp_may__play(")
    assert "let r2gp_tries = r2gp_m / 4 + 8" in draw and "rng.below(r2gp_m)" in draw
    draws = draw[draw.index("while r2gp_tries != 0:") : draw.index("if r2gp_hit < 0:")]
    play = draws[draws.index("r2gp_slot_args__play(") :]
    # play: its clause's card, tested with its one offer (one tier: no tier test), kept
    # with table entry 108 + card; no method is called among the draws
    assert "if r2gp_offer__play__0(game.g, r2gp_v0):" in play
    assert "r2gp_hit = 3" in play and "r2gp_index = 108 + (r2gp_v0 - 0) * 1" in play
    assert "game." not in draws.replace("game.g", "")
    # every draw missed: each slot tested the same way, the legal slots listed in order,
    # one drawn and read again
    scan = draw[draw.index("while r2gp_s != r2gp_m:") :]
    assert "if r2gp_offer__play__0(game.g, r2gp_v0):" in scan
    assert "legal.set(r2gp_n, r2gp_s)" in scan
    assert "let r2gp_k = legal.get(rng.below(r2gp_n))" in scan
    # the drawn entry recorded, then applied with its own method after the draws: a tree
    # of tests on the action's number
    applied = draw[draw.index("if record:") :]
    assert "out.append(r2gp_index)" in applied
    assert applied.index("if r2gp_hit < 2:") < applied.index("if r2gp_hit < 1:")
    assert "r2gp_a0.value = r2gp_h0" in applied and "game.play(r2gp_a0)" in applied
    assert "r2gp_tier_now ==" not in draw
    # pass_direction has no clause: one slot per table entry
    assert "let r2gp_rest = r2gp_k - 0" in draw and "r2gp_index = 0 + (r2gp_k - 0)" in draw
    # a game without slots gets none
    plain = lower_workspace(open_workspace(CORPORA_DIR / "rulepage" / "tic_tac_toe"))
    assert not isinstance(plain, list) and plain.slot_draw == ""


WHITE_PRIORITY = """# page: white_priority
# implements: 4.2
# White's moves are offered at the priority tier, with the same offers as the turn page.

priority when g.player == 1

"""


@pytest.mark.slow
def test_a_slot_draw_over_offers_at_two_tiers_plays_the_same_games(tmp_path: Path) -> None:
    # White's moves offered again at the priority tier: the same legal moves, so the
    # loop must play the very games of the plain pages, now testing each offer's tier
    plain = _copy(tmp_path / "plain")
    tiers = _copy(tmp_path / "tiers")
    turn = (tiers / "pages" / "turn.page").read_text().splitlines()
    offers = [line for line in turn if line.startswith("offer move(")]
    assert len(offers) == 2
    page = WHITE_PRIORITY + "\n".join(offers) + "\n"
    (tiers / "pages" / "white_priority.page").write_text(page)
    lowered = lower_workspace(open_workspace(tiers))
    assert not isinstance(lowered, list), lowered
    assert "r2gp_tier_now == 2 and r2gp_offer__white_priority__0(" in lowered.slot_draw
    assert "else if r2gp_tier_now == 0 and r2gp_offer__turn__1(" in lowered.slot_draw
    assert _loop_replays(tiers) == _loop_replays(plain)
    build = compile_pages(open_workspace(tiers), optimized=True).require()
    # the library was built with the draw (the wrapper's header gives the command)
    assert SLOT_DRAW.split("/")[-1] in build.rl.wrapper.read_text().splitlines()[2]


@pytest.mark.slow
def test_slots_missing_a_legal_move_are_a_finding_at_the_pieces_page(tmp_path: Path) -> None:
    # two slots per piece: the right diagonal is never offered
    broken = _copy(
        tmp_path,
        "for k < 3 * g.pieces[g.player]:",
        "for k < 2 * g.pieces[g.player]:",
    )
    text = (broken / "pages" / "pieces.page").read_text()
    (broken / "pages" / "pieces.page").write_text(
        text.replace("k / 3]", "k / 2]", 1).replace("k % 3 - 1", "k % 2 - 1", 1)
    )
    report = run_check(open_workspace(broken), (compile_stage, fuzz_stage), options=OPTIONS)
    listed = [f for f in report.findings if "moves_listed" in f.message]
    assert len(listed) == 1, [f.message for f in report.findings]
    assert "a `slots` clause leaves out move(" in listed[0].message
    assert "pieces" in [p.page for p in listed[0].pages]


@pytest.mark.slow
def test_a_slot_count_beyond_the_table_is_a_fault_at_its_page_line(tmp_path: Path) -> None:
    broken = _copy(tmp_path, SLOTS, SLOTS.replace("3 * g.pieces", "600 + 3 * g.pieces"))
    report = run_check(open_workspace(broken), (compile_stage, fuzz_stage), options=OPTIONS)
    faults = [f for f in report.findings if "number less than 0 or more than" in f.message]
    assert faults, [f.message for f in report.findings]
    line = next(
        i
        for i, t in enumerate((broken / "pages" / "pieces.page").read_text().splitlines(), 1)
        if t.startswith("slots move(")
    )
    assert any(p.page == "pieces" and p.line == line for f in faults for p in f.pages), [
        (p.page, p.line) for f in faults for p in f.pages
    ]


def _hearts_problems(tmp_path: Path, page: str, extra: str) -> list[tuple[str, int, str]]:
    dest = tmp_path / "hearts"
    shutil.copytree(HEARTS, dest, symlinks=False, ignore=shutil.ignore_patterns("build"))
    (dest / "pages" / page).write_text((dest / "pages" / page).read_text() + extra)
    ws = open_workspace(dest)
    pages = [parse_page(p.stem, f"pages/{p.name}", p.read_text()) for p in ws.pages_dir.iterdir()]
    found = compose(pages, ws.interface(), 4)
    assert isinstance(found, list), "the pages composed"
    return [(p.at.file, p.at.line, p.message) for p in found]


def test_a_second_rebuild_block_is_an_error_on_both_pages(tmp_path: Path) -> None:
    problems = _hearts_problems(tmp_path, "deal.page", "\nrebuild:\n    g.dealt = g.dealt\n")
    assert sorted((f, m) for f, _, m in problems) == [
        ("pages/deal.page", "`rebuild:` is given on two pages"),
        ("pages/held.page", "`rebuild:` is given on two pages"),
    ]


def test_a_code_block_may_not_write_a_runtime_hook(tmp_path: Path) -> None:
    hook = "\n    fun r2g_candidate_slots(State g) -> Int:\n        return 0\n"
    problems = _hearts_problems(tmp_path, "held.page", hook)
    assert len(problems) == 1
    assert "`r2g_candidate_slots` is written by the rulepage target" in problems[0][2]
    assert "slots, rebuild:" in problems[0][2]


@pytest.mark.slow
def test_a_scenario_judges_the_preconditions_not_the_slots(tmp_path: Path) -> None:
    # the offer lets a piece jump two files sideways, which no slot holds: the engine
    # never offers it, but the rule (the precondition) allows it, and a scenario that
    # forbids it must say so (a trial translator's scenarios passed on such a bug)
    game = _copy(tmp_path)
    turn = game / "pages" / "turn.page"
    text = turn.read_text()
    old = "(tf == ff - 1 or tf == ff + 1)"
    assert text.count(old) == 1
    turn.write_text(text.replace(old, "(tf == ff - 1 or tf == ff + 1 or tf == ff + 2)"))
    (game / "scenarios").mkdir()
    (game / "scenarios" / "no_jump.toml").write_text(
        'cites = ["4.2#1"]\n\n[[expect]]\n'
        'forbidden = ["move(from_file=0, from_rank=7, to_file=2)"]\n'
    )
    report = run_check(open_workspace(game), (compile_stage, scenarios_stage), options=OPTIONS)
    failed = [f for f in report.findings if f.stage == "scenarios"]
    assert len(failed) == 1, [f.message for f in report.findings]
    assert "move(from_file=0, from_rank=7, to_file=2)" in failed[0].message


@pytest.mark.slow
@pytest.mark.parametrize(
    ("corpus", "squares"),
    [("breakthrough", "board.squares"), ("rulepage/breakthrough", "g.squares")],
)
def test_a_position_set_by_its_squares_rebuilds_the_piece_lists(
    tmp_path: Path, corpus: str, squares: str
) -> None:
    # the slots read piece lists the moves keep; a scenario sets a position by its
    # squares alone, and the pages' rebuild (r2g_rebuild / `rebuild:`) makes the lists
    # again, so the engine offers the position's moves, not the start's
    from rulebook2game.check.scenarios import apply_set

    game = tmp_path / "game"
    shutil.copytree(
        CORPORA_DIR / corpus, game, symlinks=False, ignore=shutil.ignore_patterns("build")
    )
    cells = [0] * 64
    cells[3 * 8 + 4] = 1  # a black piece on e4 (player 0, moving down)
    cells[2 * 8 + 3] = 2  # a white piece on d3, which it may capture
    cells[7 * 8 + 0] = 2  # and a white piece on a8
    with _engine(game, optimized=False) as engine:
        state = apply_set(engine, engine.initial(), {squares: cells})
        legal = engine.legal_actions(state)
        assert [engine.action_texts[i] for i in engine.table_legal_indices(state)] == legal
        assert sorted(legal) == [
            "move(from_file=4, from_rank=4, to_file=3)",
            "move(from_file=4, from_rank=4, to_file=4)",
            "move(from_file=4, from_rank=4, to_file=5)",
        ]


DRAW = (
    "fun r2g_slot_play(Game g, R2GRandom rng, Int max_steps, Bool record, Vector<Int> out, "
    "Int size, Vector<Int> legal, Int status) -> Int:\n"
)


def _built_with(root: Path, draw: str) -> bool:
    """Whether ``root``'s optimized library was built with the slot draw ``draw``."""
    path = root / "draw" / "r2g_slot_draw.rl"
    path.parent.mkdir()
    path.write_text(draw)
    result = compile_workspace(Workspace(root), optimized=True, slot_draw=path)
    assert result.build is not None, result.summary()
    return str(path) in result.build.wrapper.read_text().splitlines()[2]


def test_a_slot_draw_is_built_in_only_where_every_action_waits_at_one_point(
    tmp_path: Path,
) -> None:
    # the loop calls it without asking where the game waits: tic-tac-toe waits at one
    # point; claim_or_skip at three, where a draw could apply an action its point refuses
    fine = DRAW + "    return 0\n"
    assert _built_with(game_copy(CORPORA_DIR / "tic_tac_toe", tmp_path), fine)
    games = Path(__file__).parent / "data" / "games"
    assert not _built_with(game_copy(games / "claim_or_skip", tmp_path), fine)


def test_a_slot_draw_rlc_refuses_is_left_out_and_the_game_still_builds(tmp_path: Path) -> None:
    # no fault of the pages: the library is built without it, the generic slot step draws
    broken = DRAW + "    return no_such_name\n"
    assert not _built_with(game_copy(CORPORA_DIR / "tic_tac_toe", tmp_path), broken)
