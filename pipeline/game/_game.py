"""``Game`` and ``State``: a checked game played in-process from Python.

The names follow OpenSpiel's Python API where there is one (``new_initial_state``,
``current_player``, ``legal_actions``, ``apply_action``, ``chance_outcomes``,
``returns``, ``observation_tensor``), so code written for ``pyspiel`` reads the same.
Actions are integer ids (indices into :attr:`Game.action_texts`) or canonical texts.
A ``State`` changes in place under ``apply_action``; ``clone`` copies it.
"""

from __future__ import annotations

import ctypes
import functools
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook2game.actions import canonical
from rulebook2game.engine import CHANCE, TERMINAL, IllegalActionError, chance_probabilities
from rulebook2game.errors import BadInputError
from rulebook2game.game._fast import fast_step
from rulebook2game.game._native import NativeGame
from rulebook2game.targets.rl.action_text import rl_to_canonical
from rulebook2game.targets.rl.worker_main import chance_weight, chance_weights, log_lines

if TYPE_CHECKING:
    from rulebook2game.game._batch import GameBatch


class Game:
    """A game directory's optimized build, loaded into this process.

    Made by :func:`rulebook2game.load` (which refuses games that have not passed
    ``check`` unless told to trust them). Not thread-safe: use one ``Game`` per thread.
    """

    def __init__(self, native: NativeGame, name: str, directory: Path, max_length: int | None):
        self._native = native
        self.name = name
        """The game's name (from ``game.toml``)."""
        self.directory = directory
        """The game directory it was loaded from."""
        self.max_game_length = max_length
        """The bound on the game's length the pages enforce, when ``game.toml`` gives one."""
        self.action_texts: tuple[str, ...] = tuple(rl_to_canonical(t) for t in native.texts)
        """Every action's canonical text; an action id is an index into this tuple."""
        self._ids = {text: i for i, text in enumerate(self.action_texts)}
        # One io buffer per game for r2g_step_io: [action in / n out, player, legal ...];
        # the player to move is read through a memoryview (cheaper than ctypes items).
        self._io = native.call("r2g_int_buffer", native.size + 2)
        self._io_ref = ctypes.byref(self._io)
        address = ctypes.addressof(self._io._data.contents)
        words = (ctypes.c_longlong * (native.size + 2)).from_address(address)
        self._mv = memoryview(words).cast("B").cast("q")
        fast = fast_step()
        self._fast = fast is not None
        """Whether steps go through the C extension (:mod:`rulebook2game.game._fast`)."""
        self._step: Callable[[Any, int], list[int] | None] = (
            functools.partial(
                fast,
                ctypes.cast(native.step_io, ctypes.c_void_p).value or 0,
                ctypes.addressof(native.all),
                ctypes.addressof(native.candidates),
                ctypes.addressof(self._io),
                address,
                tuple(range(native.size)),
            )
            if fast is not None
            else self._ctypes_step
        )
        self._all_ref = native.all_ref
        self._copy: Callable[[Any], Any] = (
            native.copy_plain if native.plain else (lambda g: native.copy(ctypes.byref(g)))
        )
        self._initial = native.copy(native.initial_ref)
        self._odds = chance_weights(native.m, native.texts)
        first = State(self, self._initial, [])
        first._describe()
        self._initial_player = first._player
        self._initial_legal = first._legal

    def _ctypes_step(self, ref: Any, action: int) -> list[int] | None:
        """One step through ctypes (when the C extension is not there): the legal ids
        after applying ``action`` (-1: none) to the game behind ``ref``, or None when
        it is not legal."""
        mv = self._mv
        mv[0] = action
        self._native.step_io(ref, self._all_ref, self._native.candidates_ref, self._io_ref)
        n = mv[0]
        return None if n < 0 else mv[2 : n + 2].tolist()

    @property
    def num_players(self) -> int:
        """Number of players (not counting chance)."""
        return self._native.players

    @property
    def num_distinct_actions(self) -> int:
        """Number of action ids (chance outcomes included)."""
        return self._native.size

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of every observation tensor: ``(size,)``."""
        return (self._native.tensor_size,)

    @property
    def has_weighted_chance(self) -> bool:
        """Whether the pages give chance outcomes odds of their own
        (``chance_weight_NAME``); otherwise the outcomes of a chance node are equally
        likely."""
        return bool(self._odds)

    @property
    def has_hidden_information(self) -> bool:
        """Whether the pages declare state some player may not see (``Hidden``,
        ``HiddenInformation``)."""
        return any(name.startswith("Hidden") for name in dir(self._native.m))

    def new_initial_state(self) -> State:
        """The state before the first action."""
        state = State(self, self._copy(self._initial), [])
        state._player = self._initial_player
        state._legal = list(self._initial_legal)
        return state

    def action_id(self, text: str) -> int:
        """The id of an action given as canonical text (``drop(col=3)``)."""
        try:
            found = self._ids.get(canonical(text))
        except ValueError:
            found = None
        if found is None:
            raise BadInputError(f"{self.name}: no action {text!r}")
        return found

    def action_to_string(self, action: int) -> str:
        """The canonical text of action id ``action``."""
        return self.action_texts[action]

    def deserialize(self, text: str) -> State:
        """A state from :meth:`State.serialize`'s text.

        Raises:
            BadInputError: the text is not a state of this game.
        """
        m = self._native.m
        g = m.play()
        text = text.strip()
        if not m.from_string(g, m.rl_s__strlit_r_String(text)) or str(g).strip() != text:
            raise BadInputError(f"not a state of {self.name}")
        return self._state(g, [])

    def batch(self, size: int, *, tensors: bool = False) -> GameBatch:
        """``size`` games stepped together (see :class:`rulebook2game.game.GameBatch`)."""
        from rulebook2game.game._batch import GameBatch

        return GameBatch(self, size, tensors=tensors)

    def _state(self, g: Any, history: list[int]) -> State:
        state = State(self, g, history)
        state._describe()
        return state

    def __repr__(self) -> str:
        return (
            f"<Game {self.name}: {self.num_players} players, {self.num_distinct_actions} actions>"
        )


class State:
    """One position of a :class:`Game` (changes in place under :meth:`apply_action`)."""

    __slots__ = ("_g", "_game", "_history", "_io", "_key", "_legal", "_player", "_step")

    def __init__(self, game: Game, g: Any, history: list[int]) -> None:
        self._game = game
        self._g = g
        self._key = ctypes.addressof(g) if game._fast else ctypes.byref(g)
        """What the game's step takes to find this state (an address, or a byref)."""
        self._io = game._mv
        self._step = game._step
        self._history = history
        self._player = TERMINAL
        self._legal: list[int] = []

    # -- who moves, what is legal ---------------------------------------------------

    def current_player(self) -> int:
        """The player to move: ``-1`` at a chance node, ``-4`` when the game is over."""
        return self._player

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._player == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether chance moves next."""
        return self._player == CHANCE

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (chance outcomes at a chance node).

        For speed this is the state's own list, made anew after every action: read it,
        or copy it before changing it.
        """
        return self._legal

    def legal_actions_mask(self) -> list[int]:
        """1 for every legal action id, 0 otherwise (length ``num_distinct_actions``)."""
        mask = [0] * self._game.num_distinct_actions
        for i in self._legal:
            mask[i] = 1
        return mask

    def legal_action_texts(self) -> list[str]:
        """The legal actions as sorted canonical texts."""
        texts = self._game.action_texts
        return sorted(texts[i] for i in self._legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action id, probability); else empty. Outcomes are equally
        likely unless the pages weight them (:attr:`Game.has_weighted_chance`)."""
        if self._player != CHANCE or not self._legal:
            return []
        odds = self._game._odds
        if not odds:
            p = 1.0 / len(self._legal)
            return [(i, p) for i in self._legal]
        weights = [chance_weight(odds, self._g, i) for i in self._legal]
        texts = [self._game.action_texts[i] for i in self._legal]
        return list(zip(self._legal, chance_probabilities(texts, weights), strict=True))

    def action_to_string(self, action: int) -> str:
        """The canonical text of action id ``action``."""
        return self._game.action_texts[action]

    def random_action(self, rng: random.Random) -> int:
        """A random legal action id: at a chance node an outcome drawn by its
        probability (:meth:`chance_outcomes`), otherwise uniformly among the legal ones.

        Raises:
            IllegalActionError: the game is over (nothing is legal).
        """
        if self._player == TERMINAL or not self._legal:
            raise IllegalActionError("a random action", [])
        if self._player == CHANCE and self._game._odds:
            ids, odds = zip(*self.chance_outcomes(), strict=True)
            return int(rng.choices(ids, odds)[0])
        return self._legal[rng.randrange(len(self._legal))]

    # -- moving ---------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Apply action id ``action`` in place.

        Raises:
            IllegalActionError: the action is not legal here (the state is unchanged).
        """
        # The hot path of per-step play: one native call, no helper calls.
        legal = self._step(self._key, action)
        if legal is None or action < 0:
            texts = self._game.action_texts
            shown = texts[action] if 0 <= action < len(texts) else str(action)
            raise IllegalActionError(shown, self.legal_action_texts())
        self._player = self._io[1]
        self._legal = legal
        self._history.append(action)

    def _describe(self) -> None:
        """Read who moves and what is legal from the engine (no action applied)."""
        self._legal = self._step(self._key, -1) or []
        self._player = self._io[1]

    def apply(self, text: str) -> None:
        """Apply an action given as canonical text, in place."""
        try:
            action = self._game.action_id(text)
        except BadInputError:
            raise IllegalActionError(text, self.legal_action_texts()) from None
        self.apply_action(action)

    def child(self, action: int) -> State:
        """A new state: this one after ``action`` (this one is unchanged)."""
        out = self.clone()
        out.apply_action(action)
        return out

    def clone(self) -> State:
        """An independent copy."""
        copy = State(self._game, self._game._copy(self._g), list(self._history))
        copy._player, copy._legal = self._player, list(self._legal)
        return copy

    # -- outcome and views ----------------------------------------------------------

    def returns(self) -> list[float]:
        """Per-player returns (the game's ``score``; meaningful at the end)."""
        m = self._game._native.m
        return [float(m.score(self._g, p)) for p in range(self._game.num_players)]

    def history(self) -> list[int]:
        """The action ids applied since the initial (or deserialized) state."""
        return list(self._history)

    def history_texts(self) -> list[str]:
        """The actions applied so far, as canonical texts."""
        texts = self._game.action_texts
        return [texts[i] for i in self._history]

    def resampled(self, player: int, seed: int) -> State | None:
        """A state ``player`` cannot tell from this one, with hidden information drawn
        again (see the runtime's ``r2g_resampled``); ``None`` when the game hides a value
        that cannot be drawn again. The copy has no history."""
        native = self._game._native
        seat = self._seat(player)
        if not native.call("r2g_resample_is_clean", self._g, seat):
            return None
        return self._game._state(native.call("r2g_resampled", self._g, seat, seed), [])

    def log_lines(self) -> list[str]:
        """The lines the pages logged (``log``) while the last action was applied."""
        return log_lines(self._game._native.m, self._g)

    def observation_string(self, player: int) -> str:
        """What ``player`` sees: the game's ``pretty_print`` with hidden values reset."""
        native = self._game._native
        masked = native.call("r2g_masked", self._g, self._seat(player))
        return native.captured(lambda: native.m.pretty_print(masked))

    def observation_tensor(self, player: int) -> list[float]:
        """What ``player`` sees, as ``observation_tensor_shape`` floats."""
        native = self._game._native
        vector = native.call("r2g_observation_tensor", self._g, self._seat(player))
        return list(vector._data[: native.tensor_size])

    def render(self) -> str:
        """The whole state as the game prints it (everything, hidden parts included)."""
        native = self._game._native
        return native.captured(lambda: native.m.pretty_print(self._g))

    def serialize(self) -> str:
        """The state as rl's text form (:meth:`Game.deserialize` reads it back)."""
        return str(self._g).strip()

    def _seat(self, player: int) -> int:
        if not 0 <= player < self._game.num_players:
            raise BadInputError(f"no player {player} (players are 0..{self._game.num_players - 1})")
        return player

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"<State of {self._game.name} after {len(self._history)} actions>"
