"""Lockstep comparison against a reference engine, with shrunk counterexamples."""

from __future__ import annotations

import pytest
from check_toys import Race

from rulebook2game.check import findings as fk
from rulebook2game.check.oracle import OracleConfig, compare_states, run_oracle
from rulebook2game.check.shrink import play
from rulebook2game.engine import IllegalActionError

CONFIG = OracleConfig(runs=40, seed=5, max_steps=50, game="race")


def test_identical_engines_agree() -> None:
    result = run_oracle(Race(), Race(), CONFIG)
    assert result.findings == []
    assert result.trajectories == 40 and result.steps > 40


@pytest.mark.parametrize(
    ("bug", "kind", "length"),
    [
        ({"extra_move_at": 3}, fk.ORACLE_LEGAL, 3),  # coin + two moves reaching 3
        ({"stuck_at": 4}, fk.ORACLE_LEGAL, 3),  # missing moves at 4: coin + 2 + 2
        ({"same_player_at": 2}, fk.ORACLE_PLAYER, 2),  # coin + add(n=2)
        ({"wrong_returns": True}, fk.ORACLE_RETURNS, 5),  # coin + four moves ending on 7
        ({"target": 5}, fk.ORACLE_TERMINAL, 4),  # coin + three moves summing to 5
        ({"crash_at": 1}, fk.CRASH, 3),  # coin + add(n=1) + the move that crashes
    ],
)
def test_each_planted_bug_is_found_with_a_short_counterexample(
    bug: dict[str, object], kind: str, length: int
) -> None:
    result = run_oracle(Race(), Race().with_(**bug), CONFIG)
    assert [f.kind for f in result.findings] == [kind]
    finding = result.findings[0]
    assert finding.trace is not None
    assert len(finding.trace.steps) == length
    if kind != fk.CRASH:
        assert play(Race(), finding.trace.actions) is not None  # legal in the oracle


def test_legal_mismatch_names_the_actions() -> None:
    (finding,) = run_oracle(Race(), Race(extra_move_at=3), CONFIG).findings
    assert finding.actions == ("add(n=3)",)
    assert "extra [add(n=3)]" in finding.message
    assert finding.trace is not None and finding.trace.steps[-1].legal == ("add(n=1)", "add(n=2)")


def test_returns_and_player_mismatches_name_the_hooks() -> None:
    (returns,) = run_oracle(Race(), Race(wrong_returns=True), CONFIG).findings
    assert returns.functions == ("score",)
    (player,) = run_oracle(Race(), Race(same_player_at=2), CONFIG).findings
    assert player.functions == ("get_current_player",)


def test_seeded_runs_are_reproducible() -> None:
    a = run_oracle(Race(), Race(target=9), CONFIG)
    b = run_oracle(Race(), Race(target=9), CONFIG)
    assert [f.trace for f in a.findings] == [f.trace for f in b.findings]


def test_compare_states_reports_chance_probabilities() -> None:
    class Biased(Race):
        def chance_outcomes(self, state: tuple[int, int, bool]) -> list[tuple[str, float]]:
            return [] if state[1] != -1 else [("coin(side=0)", 0.25), ("coin(side=1)", 0.75)]

    found = compare_states(Race(), Race().initial(), Biased(), Biased().initial())
    assert found is not None and found.what == "chance" and "probability" in found.message


@pytest.mark.parametrize("binding", ["openspiel:pig", "openspiel:tic_tac_toe"])
def test_openspiel_fast_path_sees_what_the_protocol_sees(binding: str) -> None:
    import random

    from rulebook2game.check.stepper import EngineStepper, stepper_for
    from rulebook2game.oracle import load_oracle

    engine = load_oracle(binding)
    fast, plain = stepper_for(engine), EngineStepper(engine)
    assert type(fast) is not EngineStepper
    rng = random.Random(1)
    state = engine.initial()
    for _ in range(60):
        (obs, token), (want, _) = fast.observe(state), plain.observe(state)
        assert obs == want
        if obs.terminal:
            break
        action = rng.choice(obs.legal or tuple(a for a, _ in obs.chance))
        state = fast.apply(state, action, token)


def test_lopsided_policy_prefers_one_action_name() -> None:
    import random

    from rulebook2game.check.invariants import Observation
    from rulebook2game.check.lockstep import lopsided

    obs = Observation(0, False, ("hold()", "roll()"), (), ())
    rng = random.Random(0)
    first = [lopsided(first=True)(obs, rng) for _ in range(200)]
    last = [lopsided(first=False)(obs, rng) for _ in range(200)]
    assert first.count("hold()") >= 190 and last.count("roll()") >= 190
    chance = Observation(-1, False, (), (("die(value=1)", 0.5), ("die(value=2)", 0.5)), ())
    assert {lopsided(first=True)(chance, rng) for _ in range(50)} == {
        "die(value=1)",
        "die(value=2)",
    }


class BatchRace(Race):
    """The toy with ``apply_all`` (one call for a whole sequence, as a compiled game's
    worker answers it): a fault anywhere fails the whole sequence."""

    def apply_all(
        self, state: tuple[int, int, bool], actions: list[str]
    ) -> list[tuple[int, int, bool]]:
        states = []
        for action in actions:
            try:
                state = self.apply(state, action)
            except IllegalActionError:
                break
            states.append(state)
        return states


BUGS: list[dict[str, object]] = [
    {},
    {"extra_move_at": 3},
    {"stuck_at": 4},
    {"same_player_at": 2},
    {"wrong_returns": True},
    {"target": 5},
    {"crash_at": 1},
]


@pytest.mark.parametrize("bug", BUGS, ids=[str(b) for b in BUGS])
def test_the_batched_walk_is_the_step_by_step_walk(bug: dict[str, object]) -> None:
    import random

    from rulebook2game.check.lockstep import lopsided, walk

    plain, batched = Race().with_(**bug), BatchRace().with_(**bug)
    assert isinstance(batched, BatchRace)
    followed = ["coin(side=0)", "add(n=2)", "add(n=1)", "add(n=2)", "add(n=2)", "add(n=1)"]
    for seed in range(30):
        for policy in (None, lopsided(first=seed % 2 == 0)):
            args = (Race(), random.Random(seed), 6 + seed % 5, False)
            kwargs = {} if policy is None else {"policy": policy}
            want = walk(args[0], plain, *args[1:], **kwargs)  # type: ignore[arg-type]
            rng = random.Random(seed)
            got = walk(args[0], batched, rng, *args[2:], **kwargs)  # type: ignore[arg-type]
            assert got == want
        want = walk(Race(), plain, random.Random(0), 20, True, follow=followed[: seed % 7])
        got = walk(Race(), batched, random.Random(0), 20, True, follow=followed[: seed % 7])
        assert got == want
    assert run_oracle(Race(), batched, CONFIG).stats() == run_oracle(Race(), plain, CONFIG).stats()
