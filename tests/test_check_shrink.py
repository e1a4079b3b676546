"""Minimal counterexamples by prefix search and delta debugging."""

from __future__ import annotations

import random
from collections.abc import Sequence

from check_toys import Race

from rulebook2game.check.shrink import (
    ddmin,
    engine_predicate,
    play,
    random_prefix,
    shortest_prefix,
    shrink,
    trace_of,
)
from rulebook2game.trace import parse_trace


def test_shortest_prefix_finds_first_point() -> None:
    seq = list("abcdef")
    assert shortest_prefix(seq, lambda s: "d" in s) == list("abcd")
    assert shortest_prefix(seq, lambda s: False) == seq


def test_ddmin_keeps_only_what_matters() -> None:
    seq = [str(i) for i in range(40)]

    def test(s: Sequence[str]) -> bool:
        return "7" in s and "31" in s and s.index("7") < s.index("31")

    assert ddmin(seq, test) == ["7", "31"]


def test_shrink_counts_and_respects_budget() -> None:
    seq = [str(i) for i in range(200)]
    full = shrink(seq, lambda s: "150" in s and "3" in s)
    assert full.actions == ("3", "150")
    assert not full.exhausted
    tight = shrink(seq, lambda s: "150" in s and "3" in s, max_tests=5)
    assert tight.exhausted
    assert tight.tests == 5
    assert "150" in tight.actions  # still a valid counterexample, just not minimal


def test_engine_predicate_rejects_illegal_sequences() -> None:
    engine = Race()
    seen: list[Sequence[str]] = []

    def shows(states: list[tuple[int, int, bool]], actions: Sequence[str]) -> bool:
        seen.append(actions)
        return True

    predicate = engine_predicate(engine, shows)
    assert not predicate(["add(n=1)"])  # a player move at the chance node
    assert predicate(["coin(side=0)", "add(n=1)"])
    assert [list(s) for s in seen] == [["coin(side=0)", "add(n=1)"]]


def test_shrunk_counterexample_is_legal_and_short() -> None:
    engine = Race(target=30, extra_move_at=5)
    rng = random.Random(3)
    # A long random game that passes the buggy state.
    for _ in range(200):
        actions, states = random_prefix(engine, rng, 100)
        if any(s[0] == 5 and s[1] >= 0 for s in states):
            break
    else:  # pragma: no cover - seed chosen so this does not happen
        raise AssertionError("no playout reached the bug")

    def shows(states: list[tuple[int, int, bool]], _: Sequence[str]) -> bool:
        return "add(n=3)" in engine.legal_actions(states[-1])

    result = shrink(actions, engine_predicate(engine, shows))
    assert play(engine, result.actions) is not None
    # coin + the fewest moves summing to 5 (2+2+1 in some order) = 4 steps
    assert len(result.actions) == 4
    assert result.actions[0].startswith("coin(")


def test_trace_of_records_legal_sets_and_end() -> None:
    engine = Race(target=2)
    trace = trace_of(engine, ["coin(side=1)", "add(n=2)"], game="race", seed=4)
    assert trace.steps[0].chance == (("coin(side=0)", 0.5), ("coin(side=1)", 0.5))
    assert trace.steps[1].player == 1
    assert trace.steps[1].legal == ("add(n=1)", "add(n=2)")
    assert trace.end.terminal and trace.end.returns == (-1.0, 1.0)
    assert parse_trace(trace.to_jsonl()) == trace


def test_trace_of_keeps_steps_before_a_crash() -> None:
    engine = Race(crash_at=1)
    trace = trace_of(engine, ["coin(side=0)", "add(n=1)", "add(n=1)"], game="race")
    assert [s.action for s in trace.steps] == ["coin(side=0)", "add(n=1)", "add(n=1)"]
    assert not trace.end.terminal
