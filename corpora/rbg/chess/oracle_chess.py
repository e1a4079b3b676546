"""OpenSpiel's chess, speaking UCI, without the threefold-repetition draw.

The reference engine of this game directory (``oracle.toml`` names it). OpenSpiel's
``chess`` writes its actions in SAN (``Nf3``, ``exd5``, ``e8=Q+``), which name no
squares without the position; this game wraps it move for move and writes each action
in UCI (``g1f3``, ``e5d6``, ``e7e8q``; castling is the king's two squares, ``e1g1``),
which ``oracle.toml`` maps to ``move(...)`` and ``promote(...)`` with a pattern.

The rules are OpenSpiel's (its move generation, check, checkmate, stalemate, fifty-move
and insufficient-material draws, its returns and its action ids) with one exception,
the simplification RBG chess makes (rules.md section 7): a threefold repetition does
not end the game. When OpenSpiel's state declares a repetition draw, this state goes
on from the same position (re-made from its FEN, which keeps castling rights, the en
passant square and the fifty-move count, and forgets earlier positions), and counts it
in ``repetitions_passed``.
"""

from __future__ import annotations

from typing import Any

import pyspiel

CHESS = pyspiel.load_game("chess")
SHORT_NAME = "rbg_chess_uci"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="OpenSpiel chess in UCI, no repetition draw",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=CHESS.num_distinct_actions(),
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=CHESS.max_game_length(),
)


def uci(state: Any, action: int) -> str:
    """The UCI text of OpenSpiel chess action ``action`` in ``state`` (``e7e8q``)."""
    return str(pyspiel.chess.action_to_move(action, state.board()).to_lan())


class ChessUciGame(pyspiel.Game):  # type: ignore[misc]
    """OpenSpiel chess with UCI action strings and no repetition draw."""

    def __init__(self, params: Any = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> ChessUciState:
        return ChessUciState(self)


class ChessUciState(pyspiel.State):  # type: ignore[misc]
    """A wrapped OpenSpiel chess state (``inner``)."""

    def __init__(self, game: Any, inner: Any = None, passed: int = 0) -> None:
        super().__init__(game)
        self.inner = inner if inner is not None else CHESS.new_initial_state()
        self.repetitions_passed = passed
        self._names: dict[int, str] = {}

    def current_player(self) -> int:
        return int(self.inner.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.inner.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(action)
        self._names = {}
        if self.inner.is_terminal() and self.inner.is_repetition_draw():
            self.inner = CHESS.new_initial_state(self.inner.board().to_fen())
            self.repetitions_passed += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if not self._names:
            board = self.inner.board()
            self._names = {
                a: str(pyspiel.chess.action_to_move(a, board).to_lan())
                for a in self.inner.legal_actions()
            }
        name = self._names.get(action)
        return name if name is not None else uci(self.inner, action)

    def is_terminal(self) -> bool:
        return bool(self.inner.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.inner.returns()]

    def __str__(self) -> str:
        return str(self.inner)


if SHORT_NAME not in pyspiel.registered_names():  # a copy of this directory may load it too
    pyspiel.register_game(_GAME_TYPE, ChessUciGame)
