"""``RlEngine``: a compiled rl game behind the engine contract of :mod:`rulebook2game.engine`.

The game runs in an :class:`~rulebook2game.targets.rl.worker.RlWorker`. States are
:class:`RlState` objects holding a handle into the worker plus the facts the worker
reported when it made them (player, terminal flag, legal actions, returns), so most
queries cost no round trip and ``apply`` costs exactly one.

Conventions of the rl target:

- The player to move is ``get_current_player(g)``; ``-1`` is chance. At a chance node
  the legal actions are the chance outcomes and they are **equally likely** (to model
  an uneven distribution, make the chance action pick among equally likely cases,
  e.g. a position in the remaining deck). A terminal state (``g.is_done()``) reports
  ``TERMINAL`` (-4) whatever the hook says.
- Returns are ``score(g, p)`` for every player ``p``.
- ``serialize`` gives rl's own text form of the state (``{resume_index: 3, board:
  {...}}``), which ``deserialize`` parses and checks by printing it back. (rl's binary
  form is not used: in rlc 0.4.18 an ``Int`` with a byte >= 0x80, e.g. 128, does not
  read back.) ``Float`` fields print with six digits.
- Action texts are canonical (``mark(row=0, col=2)``); rlc's own text is
  ``mark {row: 0, col: 2}`` (see :mod:`~rulebook2game.targets.rl.action_text`).

When generated code crashes, aborts or hangs, the call raises
:class:`~rulebook2game.errors.EngineFault`; the engine starts a fresh worker on the
next call, and older states are rebuilt in it by replaying their actions, so a caller
may go on exploring from any state it holds.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rulebook2game.actions import canonical
from rulebook2game.engine import CHANCE, TERMINAL, IllegalActionError, chance_probabilities
from rulebook2game.errors import BadInputError, EngineFault, WorkerError
from rulebook2game.targets.rl.action_text import rl_to_canonical
from rulebook2game.targets.rl.compile import SOURCE_DIR, RlBuild, compile_workspace
from rulebook2game.targets.rl.names import (
    mangle_name,
    mangle_text,
    restore_message,
    unmangle_text,
)
from rulebook2game.targets.rl.worker import (
    PlayoutStats,
    RlWorker,
    StateInfo,
    WorkerLimits,
    WorkerRequestError,
)
from rulebook2game.workspace import Workspace

T = TypeVar("T")


class _Slot:
    """Where a state lives now: which worker generation, which handle (mutable)."""

    __slots__ = ("generation", "handle")

    def __init__(self, generation: int, handle: int) -> None:
        self.generation = generation
        self.handle = handle


class RlState:
    """A state of an :class:`RlEngine` (opaque: pass it back to the engine)."""

    __slots__ = ("__weakref__", "_history", "_info", "_root", "_slot")

    def __init__(self, slot: _Slot, info: StateInfo, root: str | None, history: tuple[int, ...]):
        self._slot = slot
        self._info = info
        self._root = root
        """Serialized state this one descends from (``None``: the initial state)."""
        self._history = history
        """Action indices applied since the root."""

    def __repr__(self) -> str:
        return f"<RlState after {len(self._history)} actions>"


@dataclass(frozen=True)
class Playout:
    """One native random playout, with canonical action texts when recorded."""

    length: int
    status: str
    """``terminal``, ``truncated`` (reached ``max_steps``) or ``stuck`` (no legal action)."""
    returns: tuple[float, ...]
    actions: tuple[str, ...] | None


class RlEngine:
    """A compiled rl game as an :class:`~rulebook2game.engine.Engine`.

    Args:
        build: a compiled game (``compile_workspace(ws).require()``).
        game: the game's name (the engine is called ``rl:<game>``).
        limits: the worker's memory, CPU and wall-clock limits.

    Raises:
        WorkerError: the worker could not start or load the library.
    """

    def __init__(self, build: RlBuild, *, game: str = "game", limits: WorkerLimits | None = None):
        self.build = build
        self.limits = limits or WorkerLimits()
        self._name = f"rl:{game}"
        self._generation = 0
        self.restarts = 0
        """How many times a worker was replaced after a fault."""
        self._worker = RlWorker(build, self.limits)
        self._rl_texts = self._worker.actions
        try:
            texts = tuple(rl_to_canonical(t) for t in self._rl_texts)
        except ValueError as exc:
            self._worker.close()
            raise WorkerError(f"the game's actions have no canonical text: {exc}") from None
        self.action_texts: tuple[str, ...] = texts
        """Every action of the game in canonical text, by index."""
        self.action_points: tuple[int, ...] = self._worker.points
        """The resumption point of every action, by index, as the native loop groups them
        (empty: it tests the whole table); see :mod:`rulebook2game.targets.rl.resume_points`."""
        self.lists_moves: bool = self._worker.lists_moves
        """Whether the pages list their legal moves (``r2g_moves``, reference.md): the
        native loop then draws one listed move per step (see ``PlayoutRng.pick``)."""
        self.lists_candidates: bool = self._worker.lists_candidates
        """Whether the pages list candidate moves (``r2g_move_candidates``, reference.md):
        the native loop then draws among them (see ``PlayoutRng.pick``), and legal
        actions are the candidates that pass their test."""
        self.candidate_hook: str = self._worker.candidate_hook
        """What gives the candidates, as findings name it to the page author."""
        self._index = {text: i for i, text in enumerate(self.action_texts)}
        self._players = self._worker.players
        self._tensor_size: int | None = None

    @classmethod
    def from_workspace(
        cls, ws: Workspace, *, optimized: bool = False, limits: WorkerLimits | None = None
    ) -> RlEngine:
        """Compile ``ws`` (checked build unless ``optimized``) and start an engine on it."""
        build = compile_workspace(ws, optimized=optimized).require()
        return cls(build, game=ws.config().name, limits=limits)

    # -- the engine contract --------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def players(self) -> int:
        return self._players

    def initial(self) -> RlState:
        info = self._call(lambda w: w.new_state(), "play()")
        return self._wrap(info, None, ())

    def current_player(self, state: RlState) -> int:
        return TERMINAL if state._info.terminal else state._info.player

    def legal_actions(self, state: RlState) -> list[str]:
        return sorted(self.action_texts[i] for i in state._info.legal)

    def chance_outcomes(self, state: RlState) -> list[tuple[str, float]]:
        info = state._info
        if info.terminal or info.player != CHANCE or not info.legal:
            return []
        if info.weights is None:
            p = 1.0 / len(info.legal)
            return [(text, p) for text in self.legal_actions(state)]
        texts = [self.action_texts[i] for i in info.legal]
        return sorted(zip(texts, chance_probabilities(texts, info.weights), strict=True))

    def apply(self, state: RlState, action: str) -> RlState:
        index = self._legal_index(state, action)
        handle = self._handle(state)
        info = self._call(lambda w: w.apply(handle, index), self.action_texts[index], state)
        if info is None:
            raise IllegalActionError(action, self.legal_actions(state))
        return self._wrap(info, state._root, (*state._history, index))

    def rebuild(self, state: RlState) -> RlState:
        """``state`` with what the pages derive from other state made again (their
        ``r2g_rebuild``: lists kept for candidate slots), after a ``set`` edited its
        fields; ``state`` itself when the pages define none."""
        if not self._worker.rebuilds:
            return state
        handle = self._handle(state)
        info = self._call(lambda w: w.rebuild(handle), "r2g_rebuild", state)
        text = self._call(lambda w: w.serialize(info.handle), "serialize")
        return self._wrap(info, text, ())

    def apply_all(self, state: RlState, actions: Sequence[str]) -> list[RlState]:
        """The states after each of ``actions`` in turn, in one round trip.

        Stops before the first action that is not legal where it is played, so the list
        is shorter than ``actions`` exactly where :meth:`apply` one at a time would raise
        :class:`IllegalActionError`. A fault raises :class:`EngineFault` for the whole
        sequence (replay it one action at a time to learn where).
        """
        indices: list[int] = []
        for action in actions:
            try:
                index = self._index.get(canonical(action))
            except ValueError:
                index = None
            if index is None:
                break
            indices.append(index)
        if not indices:
            return []
        handle = self._handle(state)
        infos = self._call(lambda w: w.apply_all(handle, indices), "apply_all", state)
        states, history = [], state._history
        for index, info in zip(indices, infos, strict=False):
            history = (*history, index)
            states.append(self._wrap(info, state._root, history))
        return states

    def is_terminal(self, state: RlState) -> bool:
        return state._info.terminal

    def returns(self, state: RlState) -> list[float]:
        if state._info.returns is not None:
            return list(state._info.returns)
        handle = self._handle(state)
        return list(self._call(lambda w: w.returns(handle), "score()", state))

    def serialize(self, state: RlState) -> str:
        handle = self._handle(state)
        return unmangle_text(self._call(lambda w: w.serialize(handle), "serialize", state))

    def deserialize(self, text: str) -> RlState:
        rl_text = mangle_text(text.strip())
        try:
            info = self._call(lambda w: w.deserialize(rl_text), "deserialize")
        except WorkerRequestError as exc:
            raise BadInputError(f"not a state of {self._name}: {unmangle_text(str(exc))}") from None
        return self._wrap(info, rl_text, ())

    def render(self, state: RlState) -> str:
        handle = self._handle(state)
        return self._call(lambda w: w.render(handle), "pretty_print()", state)

    def observation_string(self, state: RlState, player: int) -> str:
        """The game's ``pretty_print`` of ``state`` with every value ``player`` may not
        see (``Hidden``, another player's ``HiddenInformation``) reset to its default."""
        handle = self._handle(state)
        return self._call(
            lambda w: w.observation_string(handle, player), f"observe({player})", state
        )

    def log_lines(self, state: RlState) -> list[str]:
        """The lines the pages logged (``log``) while applying the action that led to
        ``state``: for the move log of people's tables."""
        return list(state._info.log)

    def public_tensor(self, state: RlState) -> list[float]:
        """The observation tensor of an observer who is no player: what every player
        sees, with every value some player may not see written as zeros."""
        handle = self._handle(state)
        return self._call(lambda w: w.observation_tensor(handle, -2), "public tensor", state)

    def observation_tensor(self, state: RlState, player: int) -> list[float]:
        """``player``'s observation tensor (rl's ``to_observation_tensor``), of length
        :attr:`observation_tensor_size`."""
        handle = self._handle(state)
        return self._call(
            lambda w: w.observation_tensor(handle, player), f"tensor({player})", state
        )

    def views(self, pairs: Sequence[tuple[RlState, int]]) -> list[tuple[str, list[float]]]:
        """:meth:`observation_string` and :meth:`observation_tensor` of each (state,
        player) pair, in one round trip."""
        if not pairs:
            return []
        items = [(self._handle(state), player) for state, player in pairs]
        return self._call(lambda w: w.views(items), "views", pairs[0][0])

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of every observation tensor: ``(size,)``."""
        if self._tensor_size is None:
            self._tensor_size = self._call(lambda w: w.observation_tensor_size(), "tensor size")
        return (self._tensor_size,)

    def clone(self, state: RlState) -> RlState:
        """``state`` itself: states are immutable values."""
        return state

    # -- beyond the contract --------------------------------------------------------

    def legal_indices(self, state: RlState) -> tuple[int, ...]:
        """The legal actions as indices into :attr:`action_texts`, in table order."""
        return state._info.legal

    def listed_indices(self, state: RlState) -> tuple[int, ...]:
        """The legal actions as indices, in the order the pages list them when they do
        (:attr:`lists_moves`: the order the native loop draws from), else table order."""
        listed = state._info.listed
        return state._info.legal if listed is None else listed

    def candidate_indices(self, state: RlState) -> tuple[int, ...] | None:
        """The candidate moves the pages list (:attr:`lists_candidates`), as indices in
        their order (the native loop draws among them); ``None`` for a game that lists
        no candidates, or a terminal state."""
        return state._info.candidates

    def table_legal_indices(self, state: RlState) -> tuple[int, ...]:
        """The legal actions found by testing every entry of the table, in table order.

        The same as :meth:`legal_indices` unless the pages list their moves
        (:attr:`lists_moves`) or candidate moves (:attr:`lists_candidates`) and the
        list is wrong.
        """
        handle = self._handle(state)
        return tuple(
            self._call(lambda w: w.table_legal(handle), "the table's legal actions", state)
        )

    def history(self, state: RlState) -> list[str]:
        """The actions that led to ``state`` (from the initial or deserialized state)."""
        return [self.action_texts[i] for i in state._history]

    def call_bool(self, state: RlState, fun: str) -> bool:
        """The value of the pages' ``fun FUN(Game g) -> Bool`` on ``state`` (invariants).

        Raises:
            WorkerRequestError: the pages define no such function.
        """
        handle = self._handle(state)
        name = mangle_name(fun)
        return self._call(lambda w: w.call_bool(handle, name), f"{fun}()", state)

    def playouts(
        self,
        seed: int,
        count: int,
        max_steps: int = 10_000,
        *,
        record: bool = False,
        timeout: float | None = None,
    ) -> list[Playout]:
        """``count`` uniform-random games played natively inside the worker, one round trip.

        The same seed gives the same games. ``timeout`` bounds the whole batch.
        """
        games = self._call(
            lambda w: w.playouts(seed, count, max_steps, record, timeout), "playouts"
        )
        return [
            Playout(
                g.length,
                g.status,
                g.returns,
                None if g.actions is None else tuple(self.action_texts[i] for i in g.actions),
            )
            for g in games
        ]

    def playout_stats(
        self, seed: int, count: int, max_steps: int = 10_000, *, timeout: float | None = None
    ) -> PlayoutStats:
        """Totals of ``count`` native random games (for benchmarks)."""
        return self._call(lambda w: w.playout_stats(seed, count, max_steps, timeout), "playouts")

    def probes_hit(self, reset: bool = True) -> list[int]:
        """Probe ids that ran since the last call (``reset``: and clear them).

        Only a coverage build has probes (see :mod:`rulebook2game.targets.rl.coverage`).

        Raises:
            WorkerRequestError: the build is not a coverage build.
        """
        return self._call(lambda w: w.coverage(reset), "coverage")

    @property
    def worker_pid(self) -> int | None:
        """The process id of the worker that runs the native code (None once it died):
        the bench pins it to the CPU it measures on."""
        return self._worker.pid if self._worker.alive else None

    def close(self) -> None:
        """Stop the worker."""
        self._worker.close()

    def __enter__(self) -> RlEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------

    def _legal_index(self, state: RlState, action: str) -> int:
        try:
            index = self._index.get(canonical(action))
        except ValueError:
            index = None
        if index is None or index not in state._info.legal:
            raise IllegalActionError(action, self.legal_actions(state))
        return index

    def _worker_now(self) -> RlWorker:
        if not self._worker.alive:
            self._worker.close()
            self._worker = RlWorker(self.build, self.limits)
            self._generation += 1
            self.restarts += 1
        return self._worker

    def _call(self, request: Callable[[RlWorker], T], what: str, state: RlState | None = None) -> T:
        worker = self._worker_now()
        try:
            return request(worker)
        except EngineFault as exc:
            steps = f" after {len(state._history)} actions" if state is not None else ""
            message = restore_message(exc.message, self.build.directory / SOURCE_DIR)
            raise EngineFault(exc.kind, f"{message} [{what}{steps}]") from None

    def _wrap(self, info: StateInfo, root: str | None, history: tuple[int, ...]) -> RlState:
        slot = _Slot(self._generation, info.handle)
        state = RlState(slot, info, root, history)
        finalizer = weakref.finalize(state, self._release, slot)
        finalizer.atexit = False
        return state

    def _release(self, slot: _Slot) -> None:
        if slot.generation == self._generation and self._worker.alive:
            self._worker.release([slot.handle])

    def _handle(self, state: RlState) -> int:
        """The state's handle in the current worker, rebuilding the state if it was lost."""
        worker = self._worker_now()
        slot = state._slot
        if slot.generation == self._generation:
            return slot.handle
        info = worker.deserialize(state._root) if state._root is not None else worker.new_state()
        for index in state._history:
            previous = info.handle
            step = worker.apply(previous, index)
            worker.release([previous])
            if step is None:
                raise WorkerError("a state could not be rebuilt: the game is not deterministic")
            info = step
        slot.generation, slot.handle = self._generation, info.handle
        return info.handle
