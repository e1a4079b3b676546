"""Replay of a recorded trace against an engine: every kind of first divergence."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rulebook2game.check.replay import Divergence, replay
from rulebook2game.errors import EngineFault
from rulebook2game.trace import Trace, TraceEnd, record_trace
from tests.test_trace import Coin


@dataclass(frozen=True)
class BuggyCoin(Coin):
    """The coin game with one planted bug."""

    bug: str = ""

    def current_player(self, state: tuple[int, bool]) -> int:
        player = super().current_player(state)
        return 1 - player if self.bug == "player" and player >= 0 else player

    def legal_actions(self, state: tuple[int, bool]) -> list[str]:
        legal = super().legal_actions(state)
        if self.bug == "legal" and state[0] >= 0 and legal:
            return ["pass()", *legal]
        return legal

    def chance_outcomes(self, state: tuple[int, bool]) -> list[tuple[str, float]]:
        outcomes = super().chance_outcomes(state)
        if self.bug == "chance" and outcomes:
            return [(outcomes[0][0], 0.25), (outcomes[1][0], 0.75)]
        if self.bug == "chance_missing" and outcomes:
            return [(outcomes[0][0], 1.0)]
        return outcomes

    def apply(self, state: tuple[int, bool], action: str) -> tuple[int, bool]:
        if self.bug == "fault" and state[0] >= 0:
            raise EngineFault("abort", "pages/take.rl:7:5 error: boom")
        if self.bug == "early_end" and state[0] < 0:
            return (int(action[-2]), True)
        if self.bug == "no_end" and state[0] >= 0:
            return state
        return super().apply(state, action)

    def is_terminal(self, state: tuple[int, bool]) -> bool:
        return super().is_terminal(state)

    def returns(self, state: tuple[int, bool]) -> list[float]:
        got = super().returns(state)
        return [got[0], got[0]] if self.bug == "returns" else got


@pytest.fixture(scope="module")
def trace() -> Trace:
    recorded = record_trace(Coin(), game="coin", seed=5)
    assert [s.player for s in recorded.steps] == [-1, int(recorded.steps[0].action[-2])]
    return recorded


def test_the_recording_engine_replays_cleanly(trace: Trace) -> None:
    result = replay(Coin(), trace)
    assert result.ok and result.steps_ok == len(trace.steps) and result.divergence is None


CASES = [
    ("player", 1, "player"),
    ("legal", 1, "legal"),
    ("chance", 0, "chance"),
    ("chance_missing", 0, "chance"),
    ("early_end", 1, "terminal"),
    ("no_end", 2, "terminal"),
    ("returns", 2, "returns"),
    ("fault", 1, "error"),
]


@pytest.mark.parametrize(("bug", "step", "what"), CASES, ids=[c[0] for c in CASES])
def test_first_divergence(trace: Trace, bug: str, step: int, what: str) -> None:
    result = replay(BuggyCoin(bug=bug), trace)
    assert not result.ok
    divergence = result.divergence
    assert isinstance(divergence, Divergence)
    assert (divergence.step, divergence.what) == (step, what)
    assert result.steps_ok == step
    assert f"step {step}: {what} differs" in str(divergence)


def test_divergence_details(trace: Trace) -> None:
    legal = replay(BuggyCoin(bug="legal"), trace).divergence
    assert legal is not None and legal.actual == "extra ['pass()']"
    chance = replay(BuggyCoin(bug="chance_missing"), trace).divergence
    assert chance is not None and "missing" in chance.actual
    fault = replay(BuggyCoin(bug="fault"), trace).divergence
    assert fault is not None and "pages/take.rl:7:5 error: boom" in fault.actual


def test_an_action_missing_from_an_unrecorded_legal_set_is_illegal(trace: Trace) -> None:
    bare_steps = tuple(s.model_copy(update={"legal": None}) for s in trace.steps)
    changed = bare_steps[1].model_copy(update={"action": "pass()"})
    bare = Trace(trace.header, (bare_steps[0], changed), trace.end)
    divergence = replay(Coin(), bare).divergence
    assert divergence is not None and (divergence.step, divergence.what) == (1, "illegal")


def test_a_chance_action_that_is_not_an_outcome_is_illegal(trace: Trace) -> None:
    step = trace.steps[0].model_copy(update={"action": "flip(side=7)", "chance": None})
    bad = Trace(trace.header, (step,), TraceEnd(terminal=False))
    divergence = replay(Coin(), bad).divergence
    assert divergence is not None and (divergence.step, divergence.what) == (0, "illegal")


def test_unrecorded_returns_are_not_compared(trace: Trace) -> None:
    open_end = Trace(trace.header, trace.steps, TraceEnd(terminal=True))
    assert replay(BuggyCoin(bug="returns"), open_end).ok


@dataclass(frozen=True)
class BatchCoin(BuggyCoin):
    """The buggy coin with ``apply_all`` (a whole sequence in one call, as a compiled
    game's worker answers it): a fault anywhere fails the whole sequence."""

    def apply_all(self, state: tuple[int, bool], actions: list[str]) -> list[tuple[int, bool]]:
        from rulebook2game.engine import IllegalActionError

        states = []
        for action in actions:
            try:
                state = self.apply(state, action)
            except IllegalActionError:
                break
            states.append(state)
        return states


@pytest.mark.parametrize("bug", ["", *(c[0] for c in CASES)])
def test_a_batched_replay_is_the_step_by_step_replay(trace: Trace, bug: str) -> None:
    assert replay(BatchCoin(bug=bug), trace) == replay(BuggyCoin(bug=bug), trace)
