"""The fuzzer: seeded random playouts that look for everything a game must never do.

Playouts run inside the engine worker when the engine offers native playouts
(:class:`NativePlayouts`, one round trip per batch), in batches with seeds derived
from the check's seed, so a run is deterministic. Findings:

- ``crash``: an abort, crash, hang or out-of-memory of generated code. The batch's
  records die with the worker, so the batch is replayed step by step with the native
  loop's own random choices (:mod:`~rulebook2game.check.native`) until the fault
  shows again: the counterexample is the exact action sequence that triggers it.
- ``no_legal_action``: a state that is not terminal but offers no action.
- ``no_termination``: a game longer than the bound (``max_game_length``); for a game
  declared ``unbounded`` (the rulebook sets no limit) such games are only counted.
- ``invariant``: a declared or default invariant broken on a state (terminal ones on
  every playout, per-step ones on the playouts replayed through the protocol).
- ``serialization``: a state that does not survive serialize → deserialize.
- ``nondeterminism``: the same seed giving a different game, or the native loop and
  the step-by-step protocol disagreeing about the same game.
- ``dead_action``: an action declared in ``interface.toml`` that was never legal.

Coverage counts how often each action name was taken.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rulebook2game.check import findings as fk
from rulebook2game.check.findings import Finding, action_name, find_location
from rulebook2game.check.invariants import (
    Invariant,
    Observation,
    actions_declared_check,
    check_observation,
    check_state,
    fun_invariants,
    observe,
)
from rulebook2game.check.native import (
    DEFAULT_MAX_STEPS,
    MoveLists,
    NativePlayouts,
    derived_seed,
    native_candidates,
    native_chooser,
    native_order,
)
from rulebook2game.check.shrink import (
    DEFAULT_MAX_TESTS,
    PrefixPlayer,
    engine_alternatives,
    engine_predicate,
    shrink,
    trace_of,
)
from rulebook2game.engine import CHANCE, TERMINAL, Engine, IllegalActionError
from rulebook2game.errors import BadInputError, EngineFault
from rulebook2game.workspace import Interface

FAULT_SHRINK_TESTS = 200
"""Most sequences tried when shrinking a fault's counterexample: each one that faults
costs the engine a restart."""


@dataclass(frozen=True)
class Game:
    """One random playout: how it ended and the actions taken."""

    length: int
    status: str
    """terminal | truncated | stuck"""
    returns: tuple[float, ...]
    actions: tuple[str, ...]


@dataclass(frozen=True)
class FuzzConfig:
    """How much to fuzz and how."""

    playouts: int = 1000
    seed: int = 0
    max_steps: int = DEFAULT_MAX_STEPS
    """The bound on a game's length (from ``max_game_length``)."""
    batch: int = 50
    """Games per native round trip (a fault is located within its batch)."""
    replay_games: int = 6
    """Games replayed step by step for per-step invariants and serialization."""
    serialization_samples: int = 4
    """States per replayed game put through serialize → deserialize."""
    batch_timeout: float = 10.0
    """Wall-clock seconds one batch may take before it counts as a hang."""
    shrink: bool = True
    max_shrink_tests: int = DEFAULT_MAX_TESTS
    max_findings: int = 5
    stop_at_first: bool = False
    game: str = "game"
    truncation_is_finding: bool = True
    """A game longer than ``max_steps`` is a finding, unless the rulebook sets no limit
    (``unbounded = true`` in ``game.toml``): then it is only counted (``truncated``)."""


@dataclass
class FuzzResult:
    """Findings and numbers of a fuzz stage."""

    findings: list[Finding] = field(default_factory=list)
    games: int = 0
    steps: int = 0
    replayed: int = 0
    taken: Counter[str] = field(default_factory=Counter)
    """Times each action name was taken."""
    legal_seen: set[str] = field(default_factory=set)
    """Action names seen legal in a replayed game."""
    notes: list[str] = field(default_factory=list)
    truncated: int = 0
    """Games cut at the bound (a finding unless the game is declared unbounded)."""

    def stats(self) -> dict[str, Any]:
        """Numbers for the report."""
        return {
            "games": self.games,
            "steps": self.steps,
            "truncated": self.truncated,
            "replayed_games": self.replayed,
            "findings": len(self.findings),
            "notes": self.notes,
        }


def batch_seed(seed: int, batch: int) -> int:
    """The native seed of fuzz batch ``batch`` of a run seeded ``seed``."""
    return derived_seed(seed, "fuzz", batch)


class _Stop(Exception):
    """Enough findings: end the stage early."""


class Fuzzer:
    """One fuzz run over an engine; see the module documentation."""

    def __init__(
        self,
        engine: Engine[Any],
        config: FuzzConfig,
        invariants: Sequence[Invariant] = (),
        interface: Interface | None = None,
    ) -> None:
        self.engine = engine
        self.config = config
        self.invariants = list(invariants)
        self.interface = interface
        self.result = FuzzResult()
        self._seen: set[tuple[str, str]] = set()
        self._declared = actions_declared_check(interface)
        self._declared_ok: set[str] = set()

    # -- driver -------------------------------------------------------------------

    def run(self) -> FuzzResult:
        """Play, check, replay; return the findings and numbers."""
        try:
            games = self._play_all()
            self._check_games(games)
            self._check_determinism(games)
            self._replay(games[: self.config.replay_games])
            self._dead_actions()
        except _Stop:
            pass
        if fun_invariants(self.invariants) and not hasattr(self.engine, "call_bool"):
            names = ", ".join(fun_invariants(self.invariants))
            self.result.notes.append(f"fun invariants not evaluated (engine cannot call): {names}")
        return self.result

    def _known(self, kind: str, key: str) -> bool:
        """Whether a finding of this kind and key was already reported (skip the work)."""
        return (kind, key) in self._seen

    def _add(self, finding: Finding, key: str) -> None:
        signature = (finding.kind, key)
        if signature in self._seen:
            return
        self._seen.add(signature)
        self.result.findings.append(finding)
        if self.config.stop_at_first or len(self.result.findings) >= self.config.max_findings:
            raise _Stop

    # -- playing ------------------------------------------------------------------

    def _play_all(self) -> list[Game]:
        games: list[Game] = []
        count, size = self.config.playouts, max(1, self.config.batch)
        for b, start in enumerate(range(0, count, size)):
            n = min(size, count - start)
            games.extend(self._play_batch(batch_seed(self.config.seed, b), n))
        return games

    def _play_batch(self, seed: int, count: int) -> list[Game]:
        if not isinstance(self.engine, NativePlayouts):
            return self._python_batch(seed, count)
        try:
            raw = self.engine.playouts(
                seed, count, self.config.max_steps, record=True, timeout=self.config.batch_timeout
            )
        except EngineFault as fault:
            return self._locate_fault(seed, count, fault)
        games = [Game(g.length, g.status, tuple(g.returns), tuple(g.actions or ())) for g in raw]
        self._count(games)
        return games

    def _count(self, games: Sequence[Game]) -> None:
        self.result.games += len(games)
        for g in games:
            self.result.steps += g.length
            self.result.taken.update(action_name(a) for a in g.actions)

    def _python_batch(self, seed: int, count: int) -> list[Game]:
        """Seeded uniform-random games driven through the protocol (engines without a loop)."""
        rng = random.Random(seed)
        games = []
        for _ in range(count):
            game = self._python_game(lambda legal: legal[rng.randrange(len(legal))])
            if game is None:
                break
            games.append(game)
        self._count(games)
        return games

    def _python_game(self, choose: Any, native: bool = False) -> Game | None:
        """One game step by step; a fault becomes a crash finding (``None`` returned)."""
        actions: list[str] = []
        try:
            state = self.engine.initial()
            while not self.engine.is_terminal(state):
                if len(actions) >= self.config.max_steps:
                    return Game(len(actions), "truncated", (), tuple(actions))
                legal = self._options(state)
                if native:
                    legal = native_order(self.engine, state, legal)
                if not legal:
                    return Game(len(actions), "stuck", (), tuple(actions))
                if native:
                    actions.append(choose(legal, native_candidates(self.engine, state)))
                else:
                    actions.append(choose(legal))
                state = self.engine.apply(state, actions[-1])
            return Game(len(actions), "terminal", tuple(self.engine.returns(state)), tuple(actions))
        except (EngineFault, IllegalActionError) as exc:
            self._crash(actions, exc)
            return None

    def _fault_shrunk(self, actions: Sequence[str], fault: EngineFault) -> tuple[str, ...]:
        """The shortest sequence found that ends on the same fault (its kind, and its
        source line, else its first line): a fault met while replaying a whole game
        comes with every action of that game, and one met in a random game with every
        action before it. ``actions`` as they are when the fault does not recur."""
        if not self.config.shrink:
            return tuple(actions)

        def where(exc: EngineFault) -> tuple[str, str]:
            return exc.kind, find_location(exc.message) or _first_line(exc.message)

        wanted = where(fault)
        player = PrefixPlayer(self.engine)

        def faults(candidate: Sequence[str]) -> bool:
            try:
                player.states(candidate)
            except EngineFault as exc:
                return where(exc) == wanted
            except IllegalActionError:
                return False
            return False

        if not faults(actions):
            return tuple(actions)
        result = shrink(
            actions,
            faults,
            max_tests=min(self.config.max_shrink_tests, FAULT_SHRINK_TESTS),
            alternatives=engine_alternatives(self.engine, player),
        )
        return result.actions

    def _options(self, state: Any) -> list[str]:
        if self.engine.current_player(state) == CHANCE:
            return [a for a, p in self.engine.chance_outcomes(state) if p > 0]
        return list(self.engine.legal_actions(state))

    def _locate_fault(self, seed: int, count: int, fault: EngineFault) -> list[Game]:
        """Replay a dead batch with the native loop's choices until the fault shows again."""
        assert isinstance(self.engine, NativePlayouts)
        choose = native_chooser(self.engine, seed)
        games: list[Game] = []
        try:
            for _ in range(count):
                found = len(self.result.findings)
                game = self._python_game(choose, native=True)
                if game is None:
                    return games
                games.append(game)
                if len(self.result.findings) > found:
                    return games
            message = (
                f"{fault.kind} in a native batch that did not recur step by step: {fault.message}"
            )
            self._add(Finding(fk.CRASH, "fuzz", _first_line(message)), "batch")
            return games
        finally:
            self._count(games)  # the games replayed whole count as played

    # -- findings from whole games ------------------------------------------------

    def _crash(self, actions: Sequence[str], exc: Exception) -> None:
        kind = exc.kind if isinstance(exc, EngineFault) else "illegal"
        text = exc.message if isinstance(exc, EngineFault) else str(exc)
        if isinstance(exc, EngineFault):
            actions = self._fault_shrunk(actions, exc)
        message = _first_line(f"engine {kind}: {text}")
        trace = trace_of(self.engine, actions, game=self.config.game, seed=self.config.seed)
        last = (actions[-1],) if actions else ()
        finding = Finding(
            fk.CRASH,
            "fuzz",
            message,
            trace=trace,
            step=len(actions) - 1 if actions else 0,
            actual=_first_line(text),
            actions=last,
            location=find_location(text),
        )
        self._add(finding, find_location(text) or kind)

    def _check_games(self, games: Sequence[Game]) -> None:
        # Shortest games first: the first game showing a finding is its best start.
        for game in sorted(games, key=lambda g: g.length):
            if game.status == "stuck":
                self._stuck(game)
            elif game.status == "truncated":
                self.result.truncated += 1
                bound = self.config.truncation_is_finding
                if bound and not self._known(fk.NO_TERMINATION, "bound"):
                    message = f"no end within {self.config.max_steps} steps (max_game_length)"
                    self._add(self._finding(fk.NO_TERMINATION, message, game.actions), "bound")
            else:
                self._terminal_invariants(game)
            self._declared_actions(game)

    def _stuck(self, game: Game) -> None:
        engine = self.engine
        if isinstance(engine, MoveLists) and (engine.lists_moves or engine.lists_candidates):
            # a list that leaves out every legal move looks like a stuck game
            last = self.engine.initial()
            for action in game.actions:
                last = self.engine.apply(last, action)
            if not self._listed_moves(last, game.actions):
                return
        if self._known(fk.NO_LEGAL_ACTION, "stuck"):
            return

        def shows(states: list[Any], _: Sequence[str]) -> bool:
            last = states[-1]
            return not self.engine.is_terminal(last) and not self._options(last)

        actions = self._shrunk(game.actions, shows)
        message = "a state that is not terminal offers no legal action"
        self._add(self._finding(fk.NO_LEGAL_ACTION, message, actions), "stuck")

    def _terminal_invariants(self, game: Game) -> None:
        obs = Observation(TERMINAL, True, (), (), game.returns)
        violation = check_observation(self.invariants, obs)
        if violation is None or self._known(fk.INVARIANT, violation.invariant):
            return

        def shows(states: list[Any], _: Sequence[str]) -> bool:
            last = states[-1]
            return self.engine.is_terminal(last) and (
                check_observation(self.invariants, observe(self.engine, last)) is not None
            )

        actions = self._shrunk(game.actions, shows)
        message = f"invariant {violation.invariant} broken: {violation.message}"
        finding = self._finding(fk.INVARIANT, message, actions, functions=("score",))
        self._add(finding, violation.invariant)

    def _declared_actions(self, game: Game) -> None:
        """Every action taken is declared, with its arguments in their domains."""
        if self.interface is None or not self.interface.actions:
            return
        chance_names = set(self.interface.chance.actions)
        for i, action in enumerate(game.actions):
            if action in self._declared_ok:
                continue
            chance = action_name(action) in chance_names
            legal, outcomes = ((), ((action, 1.0),)) if chance else ((action,), ())
            problem = self._declared(Observation(0, False, legal, outcomes, ()))
            if problem is None:
                self._declared_ok.add(action)
                continue
            message = f"invariant actions_declared broken: {problem}"
            self._add(
                self._finding(fk.INVARIANT, message, game.actions[:i], involved=(action,)),
                "actions_declared",
            )
            return

    def _finding(
        self,
        kind: str,
        message: str,
        actions: Sequence[str],
        *,
        involved: Sequence[str] | None = None,
        functions: tuple[str, ...] = (),
        what: str = "",
    ) -> Finding:
        """A finding whose counterexample is ``actions`` (recorded through the engine);
        ``involved``: the actions in question (else the last one taken), ``what``: the
        kind of difference (``legal``: their preconditions decide, see findings.py)."""
        trace = trace_of(self.engine, actions, game=self.config.game, seed=self.config.seed)
        return Finding(
            kind,
            "fuzz",
            message,
            trace=trace,
            step=len(actions),
            actions=tuple(involved if involved is not None else actions[-1:]),
            functions=functions,
            extra={"what": what} if what else {},
        )

    def _shrunk(self, actions: Sequence[str], shows: Any) -> tuple[str, ...]:
        if not self.config.shrink:
            return tuple(actions)
        player = PrefixPlayer(self.engine)
        result = shrink(
            actions,
            engine_predicate(self.engine, shows, player),
            max_tests=self.config.max_shrink_tests,
            alternatives=engine_alternatives(self.engine, player),
            prefix_known=True,
        )
        return result.actions

    # -- determinism, step-by-step replay, serialization --------------------------

    def _check_determinism(self, games: Sequence[Game]) -> None:
        if not isinstance(self.engine, NativePlayouts) or not games:
            return
        count = min(len(games), max(1, self.config.batch))
        seed = batch_seed(self.config.seed, 0)
        try:
            again = self.engine.playouts(
                seed, count, self.config.max_steps, record=True, timeout=self.config.batch_timeout
            )
        except EngineFault:
            return  # a fault here was already reported while playing
        for first, second in zip(games[:count], again, strict=False):
            if first.actions != tuple(second.actions or ()) or first.returns != tuple(
                second.returns
            ):
                message = "the same seed gave a different game"
                self._add(self._finding(fk.NONDETERMINISM, message, first.actions), "seed")
                return

    def _replay(self, games: Sequence[Game]) -> None:
        rng = random.Random(f"{self.config.seed}:serialize")
        for game in games:
            if game.status != "terminal":
                continue
            self.result.replayed += 1
            picks = set(
                rng.sample(
                    range(game.length + 1), min(game.length + 1, self.config.serialization_samples)
                )
            )
            try:
                self._replay_game(game, picks)
            except (EngineFault, IllegalActionError) as exc:
                self._crash(game.actions, exc)

    def _replay_game(self, game: Game, picks: set[int]) -> None:
        state = self.engine.initial()
        for i in range(game.length + 1):
            obs = observe(self.engine, state)
            self.result.legal_seen.update(action_name(a) for a in obs.legal)
            self.result.legal_seen.update(action_name(a) for a, _ in obs.chance)
            prefix = game.actions[:i]
            violation = check_state(self.invariants, self.engine, state, obs)
            if violation is not None:
                self._violation(prefix, violation.invariant, violation.message)
                return
            if i in picks and not self._round_trip(state, obs, prefix):
                return
            if i in picks and not self._listed_moves(state, prefix):
                return
            if i == game.length:
                break
            action = game.actions[i]
            if action not in obs.legal and action not in {a for a, _ in obs.chance}:
                message = f"{action} was taken by the native loop but is not legal step by step"
                finding = self._finding(fk.NONDETERMINISM, message, prefix, involved=(action,))
                self._add(finding, "replay")
                return
            state = self.engine.apply(state, action)
        if tuple(self.engine.returns(state)) != game.returns:
            message = (
                f"returns {self.engine.returns(state)} step by step, {list(game.returns)} natively"
            )
            self._add(
                self._finding(fk.NONDETERMINISM, message, game.actions, functions=("score",)),
                "returns",
            )

    def _violation(self, prefix: Sequence[str], name: str, message: str) -> None:
        if self._known(fk.INVARIANT, name):
            return

        def shows(states: list[Any], _: Sequence[str]) -> bool:
            found = check_state(self.invariants, self.engine, states[-1])
            return found is not None and found.invariant == name

        actions = self._shrunk(prefix, shows)
        self._add(self._finding(fk.INVARIANT, f"invariant {name} broken: {message}", actions), name)

    def _round_trip(self, state: Any, obs: Observation, prefix: Sequence[str]) -> bool:
        """Serialize → deserialize keeps the state; report and return False if not."""
        problem = self._serialization_problem(state, obs)
        if problem is None:
            return True
        if self._known(fk.SERIALIZATION, "round_trip"):
            return False

        def shows(states: list[Any], _: Sequence[str]) -> bool:
            last = states[-1]
            return self._serialization_problem(last, observe(self.engine, last)) is not None

        actions = self._shrunk(prefix, shows)
        self._add(self._finding(fk.SERIALIZATION, problem, actions), "round_trip")
        return False

    def _listing_problem(self, state: Any) -> str | None:
        """How the pages' list of legal moves (``r2g_moves``), or the legal actions among
        their candidate moves (``r2g_move_candidates``), differs from the table's."""
        found = self._listing_difference(state)
        return found[0] if found is not None else None

    def _listing_difference(self, state: Any) -> tuple[str, tuple[str, ...]] | None:
        """:meth:`_listing_problem`, and the moves it is about (listed twice, left out,
        or listed though the table refuses them)."""
        engine = self.engine
        if not isinstance(engine, MoveLists):
            return None
        if engine.lists_moves:
            hook = "r2g_moves"
        elif engine.lists_candidates:  # named as the pages give them (a RulePage clause)
            hook = str(getattr(engine, "candidate_hook", "r2g_move_candidates"))
        else:
            return None
        texts = engine.action_texts
        candidates = engine.candidate_indices(state) if not engine.lists_moves else None
        filled = [i for i in candidates if i != -1] if candidates is not None else None
        if filled is not None and len(set(filled)) != len(filled):
            twice = sorted({texts[i] for i in filled if filled.count(i) > 1})
            message = f"invariant moves_listed broken: {hook} lists {', '.join(twice[:5])} twice"
            return message, tuple(twice[:5])
        listed = tuple(engine.legal_indices(state))
        tested = tuple(engine.table_legal_indices(state))
        if listed == tested:
            return None
        missing = [texts[i] for i in tested if i not in listed]
        extra = [texts[i] for i in listed if i not in tested]
        parts = []
        if missing:
            parts.append(
                f"leaves out {', '.join(missing[:5])}, which the preconditions allow (the "
                f"{'list misses' if engine.lists_moves else 'candidates miss'} a legal move, or a "
                "precondition allows a move the rulebook forbids: read the rule before "
                "changing either)"
            )
        if extra:
            parts.append(f"lists {', '.join(extra[:5])}, which the table does not allow")
        if not parts:
            parts.append("lists a legal move more than once")
        message = f"invariant moves_listed broken: {hook} {'; '.join(parts)}"
        return message, (*missing[:5], *extra[:5])

    def _listed_moves(self, state: Any, prefix: Sequence[str]) -> bool:
        """The pages' move list equals the legal set from testing the table; report and
        return False if not."""
        problem = self._listing_problem(state)
        if problem is None:
            return True
        if self._known(fk.INVARIANT, "moves_listed"):
            return False

        def shows(states: list[Any], _: Sequence[str]) -> bool:
            return self._listing_problem(states[-1]) is not None

        actions = self._shrunk(prefix, shows)
        last = self.engine.initial()
        for action in actions:
            last = self.engine.apply(last, action)
        found = self._listing_difference(last)
        problem, involved = found if found is not None else (problem, ())
        # the page that lists them: a list, or slots (rl functions or RulePage clauses);
        # the moves in question (not the last one taken) name the rules that decide them,
        # their preconditions' pages first
        hooks = (
            ("r2g_moves",)
            if getattr(self.engine, "lists_moves", False)
            else ("r2g_move_candidates", "r2g_candidate_slots", "r2g_candidate_at")
        )
        finding = self._finding(
            fk.INVARIANT, problem, actions, involved=involved or None, functions=hooks, what="legal"
        )
        self._add(finding, "moves_listed")
        return False

    def _serialization_problem(self, state: Any, obs: Observation) -> str | None:
        try:
            text = self.engine.serialize(state)
            again = self.engine.deserialize(text)
            if observe(self.engine, again) != obs:
                return "the deserialized state offers different moves or results"
            if self.engine.serialize(again) != text:
                return "serializing the deserialized state gives different text"
        except BadInputError as exc:
            return f"a serialized state does not load: {_first_line(str(exc))}"
        return None

    def _dead_actions(self) -> None:
        if self.interface is None or self.result.games == 0:
            return  # no finished game (a batch that died at once): nothing to say
        seen = set(self.result.taken) | self.result.legal_seen
        for spec in self.interface.actions:
            if spec.name not in seen:
                message = (
                    f"declared action {spec.name} was never legal in {self.result.games} games"
                )
                finding = Finding(fk.DEAD_ACTION, "fuzz", message, actions=(spec.name,))
                self._add(finding, spec.name)


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else text


def run_fuzz(
    engine: Engine[Any],
    config: FuzzConfig,
    invariants: Sequence[Invariant] = (),
    interface: Interface | None = None,
) -> FuzzResult:
    """Fuzz ``engine``; see the module documentation for what is checked."""
    return Fuzzer(engine, config, invariants, interface).run()
