"""The fuzzer on small Python engines with planted bugs."""

from __future__ import annotations

import dataclasses

from check_toys import NativeRace, Race

from rulebook2game.check import findings as fk
from rulebook2game.check.fuzz import FuzzConfig, run_fuzz
from rulebook2game.check.invariants import invariants_for
from rulebook2game.check.native import NativeRng
from rulebook2game.check.shrink import play
from rulebook2game.workspace import Interface

INTERFACE = Interface.model_validate(
    {
        "actions": [
            {"name": "add", "args": [{"name": "n", "min": 1, "max": 2}]},
            {"name": "coin", "args": [{"name": "side", "min": 0, "max": 1}]},
        ],
        "chance": {"actions": ["coin"]},
        "invariants": [{"name": "zero_sum", "kind": "returns_sum", "value": 0.0}],
    }
)
CONFIG = FuzzConfig(playouts=60, seed=3, max_steps=40, batch=20, replay_games=5, game="race")


def _fuzz(engine: Race, config: FuzzConfig = CONFIG, interface: Interface = INTERFACE) -> list:
    result = run_fuzz(engine, config, invariants_for(2, interface), interface)
    return result.findings


def test_clean_engine_has_no_findings_and_counts_coverage() -> None:
    for engine in (Race(), NativeRace()):
        result = run_fuzz(engine, CONFIG, invariants_for(2, INTERFACE), INTERFACE)
        assert result.findings == []
        assert result.games == 60 and result.taken["coin"] == 60 and result.taken["add"] > 60
        assert result.replayed == 5


def test_stuck_state_is_found_and_shrunk() -> None:
    for engine in (Race(stuck_at=4), NativeRace(stuck_at=4)):
        (finding,) = _fuzz(engine)
        assert finding.kind == fk.NO_LEGAL_ACTION
        assert finding.trace is not None and len(finding.trace.steps) <= 4  # coin + 2 or 3 moves


def test_broken_terminal_invariant_is_found() -> None:
    (finding,) = _fuzz(NativeRace(wrong_returns=True))
    assert finding.kind == fk.INVARIANT and "zero_sum" in finding.message
    assert finding.functions == ("score",)
    assert finding.trace is not None and finding.trace.end.returns == (1.0, 1.0)


def test_undeclared_action_is_found() -> None:
    (finding,) = _fuzz(NativeRace(extra_move_at=2))
    assert finding.kind == fk.INVARIANT and "add(n=3)" in finding.message
    assert finding.actions == ("add(n=3)",)


def test_no_termination_within_the_bound() -> None:
    findings = _fuzz(NativeRace(target=1000))
    assert [f.kind for f in findings] == [fk.NO_TERMINATION]


def test_native_fault_is_located_step_by_step() -> None:
    (finding,) = _fuzz(NativeRace(crash_at=3))
    assert finding.kind == fk.CRASH and finding.location == "race.rl:12"
    assert finding.trace is not None
    actions = finding.trace.actions
    # the trace ends with the move that crashed, from a counter of 3
    states = play(Race(), actions[:-1])
    assert states is not None and states[-1][0] == 3


def test_a_fault_is_shrunk_to_a_short_way_there() -> None:
    # the batch's first game to fault took 10 actions to the counter of 11; the fewest
    # are the coin, five adds of 2 and one of 1, and the move that faults
    config = dataclasses.replace(CONFIG, seed=2)
    (finding,) = [
        f for f in _fuzz(NativeRace(crash_at=11, target=20), config) if f.kind == fk.CRASH
    ]
    assert finding.trace is not None and len(finding.trace.actions) == 8
    states = play(Race(target=20), finding.trace.actions[:-1])
    assert states is not None and states[-1][0] == 11


def test_nondeterminism_is_found() -> None:
    findings = _fuzz(NativeRace(flaky=True))
    assert [f.kind for f in findings] == [fk.NONDETERMINISM]


def test_serialization_round_trip() -> None:
    class Forgetful(Race):
        def deserialize(self, text: str) -> tuple[int, int, bool]:
            counter, player, tossed = super().deserialize(text)
            return (min(counter, 2), player, tossed)

    findings = _fuzz(Forgetful())
    assert [f.kind for f in findings] == [fk.SERIALIZATION]
    assert findings[0].trace is not None and len(findings[0].trace.steps) <= 3


def test_dead_action() -> None:
    interface = INTERFACE.model_copy(
        update={
            "actions": (
                *INTERFACE.actions,
                INTERFACE.actions[0].model_copy(update={"name": "skip"}),
            )
        }
    )
    findings = _fuzz(Race(), interface=interface)
    assert [(f.kind, f.actions) for f in findings] == [(fk.DEAD_ACTION, ("skip",))]


def test_runs_are_deterministic() -> None:
    a = run_fuzz(NativeRace(stuck_at=5), CONFIG, invariants_for(2, INTERFACE), INTERFACE)
    b = run_fuzz(NativeRace(stuck_at=5), CONFIG, invariants_for(2, INTERFACE), INTERFACE)
    assert [f.trace for f in a.findings] == [f.trace for f in b.findings]
    assert a.taken == b.taken


def test_native_rng_matches_reference_values() -> None:
    # Knuth's MMIX LCG from seed 0: the first state is the increment, the next is
    # increment * (multiplier + 1) mod 2^64; a draw is the high 32 bits of the state
    increment, multiplier = 1442695040888963407, 6364136223846793005
    rng = NativeRng(0)
    assert rng.next() == increment >> 32 == 0x14057B7E
    assert rng.next() == (increment * (multiplier + 1) % 2**64) >> 32
    assert NativeRng(0).below(10) == (0x14057B7E * 10) >> 32


def test_native_rng_draws_listed_moves_in_the_listed_order() -> None:
    # a game that lists its moves: one draw k takes the k-th move as listed, so the
    # same draw in another listing order takes another move
    listed = [7, 2, 9, 4]
    first = NativeRng(5)
    k = NativeRng(5).below(len(listed))
    assert first.pick(10, listed, listed=True) == listed[k]
    again = NativeRng(5).pick(10, listed[::-1], listed=True)
    assert again == listed[::-1][k] != listed[k]


def test_no_dead_action_is_claimed_when_no_game_finished() -> None:
    # a batch that dies at once leaves 0 finished games: "never legal in 0 games" would
    # be noise beside the crash (a trial translator got one per action)
    interface = INTERFACE.model_copy(
        update={
            "actions": (
                *INTERFACE.actions,
                INTERFACE.actions[0].model_copy(update={"name": "skip"}),
            )
        }
    )
    invariants = invariants_for(2, interface)
    result = run_fuzz(NativeRace(crash_at=0), CONFIG, invariants, interface)
    assert result.games == 0
    assert [f.kind for f in result.findings] == [fk.CRASH]
    # the games replayed whole before the one that crashed count as played (the summary
    # said "0 playouts, 0 steps" beside a crash after 40 actions)
    later = run_fuzz(NativeRace(crash_at=3), CONFIG, invariants, interface)
    assert later.games > 0 and later.steps > 0
    assert [f.kind for f in later.findings] == [fk.CRASH, fk.DEAD_ACTION]
