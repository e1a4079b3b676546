"""A game directory's own reference engine: oracle.toml maps any OpenSpiel game's actions.

The Reversi game here was translated with the tool in agent-skill mode from a rulebook
the corpus does not hold; OpenSpiel's ``othello`` (which has no built-in adapter) is its
reference through the game directory's own ``oracle.toml``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook2game.check.run import ALL_STAGES, run_check
from rulebook2game.errors import BadWorkspaceError, OracleError
from rulebook2game.oracle import load_oracle
from rulebook2game.workspace import open_workspace

REVERSI = Path(__file__).parent / "data" / "games" / "reversi"


@pytest.fixture
def reversi(tmp_path: Path) -> Path:
    return Path(shutil.copytree(REVERSI, tmp_path / "reversi"))


def test_the_game_s_own_mapping_speaks_its_canonical_actions(reversi: Path) -> None:
    engine = load_oracle("openspiel:othello", reversi)
    start = engine.initial()
    assert engine.legal_actions(start) == sorted(
        ["place(col=4, row=3)", "place(col=3, row=4)", "place(col=6, row=5)", "place(col=5, row=6)"]
    )
    after = engine.apply(start, "place(col=4, row=3)")
    assert engine.current_player(after) == 1


def test_without_a_mapping_the_error_says_where_to_put_one(tmp_path: Path) -> None:
    with pytest.raises(OracleError, match=r"oracle\.toml"):
        load_oracle("openspiel:othello", tmp_path)


def test_a_translation_checked_against_its_own_reference(reversi: Path) -> None:
    report = run_check(open_workspace(reversi), ALL_STAGES, options={"fuzz": 100, "oracle": 40})
    assert report.ok, [f.message for f in report.findings]
    oracle = report.stage("oracle")
    assert oracle is not None and oracle.status == "ok" and "openspiel:othello" in oracle.summary


def test_a_wrong_mapping_is_caught_as_a_difference(reversi: Path) -> None:
    mapping = reversi / "oracle.toml"
    # rows read bottom-up: every placement lands on the mirrored square
    mapping.write_text(
        mapping.read_text().replace(
            'convert = { col = { index = "abcdefgh", offset = 1 } }',
            'convert = { col = { index = "abcdefgh", offset = 1 }, row = { index = "87654321",'
            " offset = 1 } }",
        )
    )
    report = run_check(open_workspace(reversi), ALL_STAGES, options={"fuzz": 0, "oracle": 5})
    assert not report.ok and any(f.stage == "oracle" for f in report.findings)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('engine = "othello"\n', "rules"),
        ('engine = "othello"\n[[rules]]\ntemplate = "x()"\npattern = "("\n', "pattern"),
        ("engine = \n", "not valid TOML"),
        (
            'engine = "othello"\npython = "../elsewhere.py"\n[[rules]]\ntemplate = "x()"\n',
            "no such",
        ),
    ],
)
def test_a_malformed_oracle_toml_is_bad_input(reversi: Path, text: str, message: str) -> None:
    (reversi / "oracle.toml").write_text(text)
    with pytest.raises(BadWorkspaceError, match=message):
        load_oracle("openspiel:othello", reversi)


def test_a_python_engine_of_the_user_is_registered_from_the_game_directory(
    reversi: Path,
) -> None:
    # The user's own engine: OpenSpiel's Python tic-tac-toe, registered under a new name.
    (reversi / "my_engine.py").write_text(
        "import pyspiel\n"
        "from open_spiel.python.games import tic_tac_toe as t\n"
        "fields = ('dynamics chance_mode information utility reward_model max_num_players '\n"
        "  'min_num_players provides_information_state_string provides_information_state_tensor '\n"
        "  'provides_observation_string provides_observation_tensor parameter_specification')\n"
        "kw = {f: getattr(t._GAME_TYPE, f) for f in fields.split()}\n"
        "GAME_TYPE = pyspiel.GameType(short_name='r2g_test_user_ttt', long_name='user ttt', **kw)\n"
        "class UserGame(t.TicTacToeGame):\n"
        "    def __init__(self, params=None):\n"
        "        pyspiel.Game.__init__(self, GAME_TYPE, t._GAME_INFO, params or dict())\n"
        "pyspiel.register_game(GAME_TYPE, UserGame)\n"
    )
    (reversi / "oracle.toml").write_text(
        'engine = "r2g_test_user_ttt"\npython = "my_engine.py"\n'
        '[[rules]]\ntemplate = "mark(row={row}, col={col})"\n'
        'pattern = "[xo]\\\\((?P<row>\\\\d),(?P<col>\\\\d)\\\\)"\n'
    )
    engine = load_oracle("openspiel:r2g_test_user_ttt", reversi)
    assert len(engine.legal_actions(engine.initial())) == 9
    assert "mark(row=1, col=1)" in engine.legal_actions(engine.initial())


def test_a_list_of_names_maps_a_square_to_its_number() -> None:
    # breakthrough_candidates numbers squares a1 = 0 ... h8 = 63: "b2a3" is square 9 to 16,
    # through a list of names (one symbol per position cannot name a two-letter square).
    engine = load_oracle("openspiel:breakthrough", REVERSI.parent / "breakthrough_candidates")
    start = engine.initial()
    moves = engine.legal_actions(start)
    # OpenSpiel's breakthrough starts with Black on ranks 7 and 8, moving down.
    assert "move(from_sq=48, to_sq=40)" in moves and "move(from_sq=49, to_sq=40)" in moves
    assert len(moves) == 22 and all(m.startswith("move(from_sq=") for m in moves)


def test_a_name_missing_from_the_index_list_is_one_line_about_oracle_toml(tmp_path: Path) -> None:
    game = Path(shutil.copytree(REVERSI.parent / "breakthrough_candidates", tmp_path / "b"))
    binding = game / "oracle.toml"
    text = binding.read_text()
    cut = text.rindex('"a6", ')  # to_sq's list loses a6, where black's first moves go
    binding.write_text(text[:cut] + text[cut + len('"a6", ') :])
    engine = load_oracle("openspiel:breakthrough", game)
    with pytest.raises(OracleError, match=r"the engine wrote 'a6', which convert's index"):
        engine.legal_actions(engine.initial())
