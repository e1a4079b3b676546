"""Small engines in Python implementing the Engine protocol, for the check tests.

``Race``: a chance step decides who starts (``coin(side=0|1)``, 1/2 each); then the
players alternately add 1 or 2 to a counter; whoever brings it to ``target`` or
beyond wins (+1/-1). Flags plant the kinds of bugs the checks must find.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulebook2game.engine import CHANCE, IllegalActionError

State = tuple[int, int, bool]
"""(counter, player to move, coin tossed)."""


@dataclass(frozen=True)
class Race:
    """The toy game, with optional planted bugs."""

    target: int = 6
    extra_move_at: int | None = None
    """Offer ``add(n=3)`` when the counter equals this value (an extra legal move)."""
    wrong_returns: bool = False
    """Returns that do not sum to zero when the counter ends at ``target + 1``."""
    stuck_at: int | None = None
    """No legal action (yet not terminal) when the counter equals this value."""
    same_player_at: int | None = None
    """The mover keeps the turn when the counter reaches this value (wrong player order)."""
    crash_at: int | None = None
    """Raise EngineFault when applying to a counter equal to this value."""

    @property
    def name(self) -> str:
        return "toy:race"

    @property
    def players(self) -> int:
        return 2

    def initial(self) -> State:
        return (0, CHANCE, False)

    def current_player(self, state: State) -> int:
        return state[1]

    def legal_actions(self, state: State) -> list[str]:
        counter, player, _ = state
        if self.is_terminal(state) or player == CHANCE or counter == self.stuck_at:
            return []
        moves = ["add(n=1)", "add(n=2)"]
        if counter == self.extra_move_at:
            moves.append("add(n=3)")
        return moves

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        if state[1] != CHANCE:
            return []
        return [("coin(side=0)", 0.5), ("coin(side=1)", 0.5)]

    def apply(self, state: State, action: str) -> State:
        counter, player, _ = state
        if player == CHANCE:
            if action not in dict(self.chance_outcomes(state)):
                raise IllegalActionError(action, [a for a, _ in self.chance_outcomes(state)])
            return (0, int(action[-2]), True)
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalActionError(action, legal)
        if counter == self.crash_at:
            from rulebook2game.errors import EngineFault

            raise EngineFault("abort", "race.rl:12:1 error: precondition violated")
        new = counter + int(action[-2])
        nxt = player if new == self.same_player_at else 1 - player
        return (new, nxt, True)

    def is_terminal(self, state: State) -> bool:
        return state[0] >= self.target

    def winner(self, state: State) -> int:
        # The player who moved last is the one not to move now.
        return 1 - state[1]

    def returns(self, state: State) -> list[float]:
        if not self.is_terminal(state):
            return [0.0, 0.0]
        out = [-1.0, -1.0]
        out[self.winner(state)] = 1.0
        if self.wrong_returns and state[0] == self.target + 1:
            out = [1.0, 1.0]
        return out

    def serialize(self, state: State) -> str:
        return f"{state[0]},{state[1]},{int(state[2])}"

    def deserialize(self, text: str) -> State:
        a, b, c = text.split(",")
        return (int(a), int(b), bool(int(c)))

    def render(self, state: State) -> str:
        return f"counter={state[0]} to_move={state[1]}"

    def with_(self, **changes: object) -> Race:
        """A copy with some flags changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class NativeGame:
    """What a native playout reports."""

    length: int
    status: str
    returns: tuple[float, ...]
    actions: tuple[str, ...] | None


class NativeRace(Race):
    """``Race`` with a native-style playout loop: the same choices as the rl runtime's.

    ``flaky`` makes every other call of ``playouts`` play different games.
    """

    action_texts = ("add(n=1)", "add(n=2)", "add(n=3)", "coin(side=0)", "coin(side=1)")

    def __init__(self, *, flaky: bool = False, **flags: object) -> None:
        super().__init__(**flags)  # type: ignore[arg-type]
        object.__setattr__(self, "_flaky", flaky)
        object.__setattr__(self, "_calls", [0])

    def playouts(
        self,
        seed: int,
        count: int,
        max_steps: int = 10_000,
        *,
        record: bool = False,
        timeout: float | None = None,
    ) -> list[NativeGame]:
        from rulebook2game.check.native import NativeRng

        self._calls[0] += 1  # type: ignore[attr-defined]
        if self._flaky and self._calls[0] % 2 == 0:  # type: ignore[attr-defined]
            seed += 1
        rng = NativeRng(seed)
        order = {t: i for i, t in enumerate(self.action_texts)}
        games = []
        for _ in range(count):
            state, actions, status = self.initial(), [], "terminal"
            while not self.is_terminal(state):
                if len(actions) == max_steps:
                    status = "truncated"
                    break
                options = self.legal_actions(state) or [a for a, _ in self.chance_outcomes(state)]
                if not options:
                    status = "stuck"
                    break
                options.sort(key=order.__getitem__)
                index = rng.pick(len(self.action_texts), [order[o] for o in options])
                assert index is not None
                actions.append(self.action_texts[index])
                state = self.apply(state, actions[-1])  # may raise EngineFault: the batch dies
            games.append(
                NativeGame(len(actions), status, tuple(self.returns(state)), tuple(actions))
            )
        return games
