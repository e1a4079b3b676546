"""Scenarios: the rulebook's worked examples as small tests through the engine contract.

A scenario is one TOML file ``scenarios/<name>.toml`` in the game directory::

    # "If you roll a 1, your turn ends and you score nothing for it."
    description = "A 1 ends the turn and loses the turn total"
    cites = ["3#4"]                      # the rulebook sentences it comes from (required)
    actions = ["roll()", "roll(value=4)", "roll()", "roll(value=1)"]

    [[expect]]
    after = 2                            # after the first 2 actions (0: the initial state)
    player = 0                           # who moves: a seat number, or "chance"
    allowed = ["hold()", "roll()"]       # these are legal (others may be too)

    [[expect]]                           # no `after`: after every action
    player = "chance"
    [expect.chance]                      # the exact outcomes and their probabilities
    "roll(value=1)" = 0.1667             # (an inline table { ... } works as well)
    "roll(value=2)" = 0.1667

Every action must be legal where it is played (a chance outcome at a chance node):
that is itself an expectation. An ``[[expect]]`` table may hold

``player``      who moves: ``0``, ``1``, ... (seats as in traces) or ``"chance"``
``legal``       the exact set of legal actions
``allowed``     actions that must be legal
``forbidden``   actions that must not be legal
``chance``      the exact chance outcomes and their probabilities
``terminal``    whether the game is over
``returns``     the returns, one per seat (the game must be over)
``state_contains`` texts the position, as the engine renders it, must contain: a
                board row (``"4 . . . B B . . ."``), a score line; copy them from
                ``show_position``
``cites``       more sentence ids (the sentence this expectation checks)
``note``        a few words for the reader

Expectations speak only the engine contract (canonical action texts, seats,
probabilities), never the pages' internals, so a scenario written from the rulebook
before any page exists is evidence independent of the pages.

**Examples that start mid-game.** A ``[setup]`` table gives the starting position, for
examples like "White has checkers on the 2- and 5-points and rolls 6-3"::

    [setup]
    state = "{resume_index: 1, scores: [95, 40], turn_total: 0, current: 0, moves: 30}"

``state`` is the position in the pages' own terms: the engine's serialized state, as
``show_position`` prints it (reach a similar position there, then edit the fields the
example sets). ``resume_index`` (rl pages) is where the game's main action resumes —
which ``act`` statement waits for the next action; keep the value ``show_position``
printed for a position where the same kind of move is due (the same player to place,
to roll, ...), and edit only the game's own fields. The pages interpret it (the engine
deserializes it), and it is checked for consistency: it must read back to the same
state and answer who moves.

``set`` places pieces without writing the whole string: a table from field paths, as
the state string names them (dotted fields, ``[i]`` indices, ``board[2][3]``), to
values of the field's kind, applied after ``state`` (or to the opening without one)::

    [setup]
    set = { "fox" = 40, "b.cells[58]" = 2 }

``show_position`` takes the same table (:func:`apply_set` serves both). A path that
does not exist, an index out of range or a value of another kind fails the scenario's
setup with one line naming what is there; a game whose states are not records of
fields (GDL's propositions) says ``set`` does not apply. Other keys of ``[setup]`` are
reserved for a target-level setup hook; a scenario whose setup has neither ``state``
nor ``set`` is reported as not run (never as passed).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rulebook2game.actions import parse_action
from rulebook2game.engine import CHANCE, Engine, IllegalActionError
from rulebook2game.errors import BadInputError, EngineFault, Rulebook2GameError
from rulebook2game.targets.rl.state_text import parse_path, set_field
from rulebook2game.trace import PROBABILITY_TOLERANCE, RETURNS_TOLERANCE, write_text_atomic

SCENARIO_DIR = "scenarios"
SUFFIX = ".toml"
NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _action_list(values: Sequence[str]) -> tuple[str, ...]:
    for text in values:
        try:
            parse_action(text)
        except ValueError as exc:
            raise ValueError(f"{text!r} is not a canonical action text ({exc})") from None
    return tuple(values)


class Expectation(_Model):
    """What must hold in the position after ``after`` actions."""

    after: int | None = Field(default=None, ge=0)
    """Actions played before the check (``None``: all of them)."""
    player: int | Literal["chance"] | None = None
    legal: tuple[str, ...] | None = None
    allowed: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    chance: dict[str, float] | None = None
    terminal: bool | None = None
    returns: tuple[float, ...] | None = None
    state_contains: tuple[str, ...] = ()
    """Texts the rendered position must contain (a board row, ``to move: 1``)."""
    cites: tuple[str, ...] = ()
    note: str = ""

    @field_validator("state_contains")
    @classmethod
    def _texts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not text.strip() for text in value):
            raise ValueError("an empty text is in every position")
        return value

    @field_validator("legal", "allowed", "forbidden")
    @classmethod
    def _actions(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        return None if value is None else _action_list(value)

    @field_validator("chance")
    @classmethod
    def _chance(cls, value: dict[str, float] | None) -> dict[str, float] | None:
        if value is not None:
            _action_list(list(value))
            if any(not 0.0 <= p <= 1.0 for p in value.values()):
                raise ValueError("probabilities must be between 0 and 1")
        return value


class Setup(_Model):
    """A starting position in the game's own terms (see the module docstring)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    state: str | None = None
    """The engine's serialized state to start from."""
    set: dict[str, Any] | None = None
    """Field path -> value, applied after ``state`` (see :func:`apply_set`)."""

    @field_validator("set")
    @classmethod
    def _changes(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        for path, item in (value or {}).items():
            try:
                parse_path(path)
            except BadInputError as exc:
                raise ValueError(str(exc)) from None
            _settable(path, item)
        return value

    def runnable(self) -> bool:
        """Whether the setup gives a position (a ``state``, or fields to ``set``)."""
        return self.state is not None or bool(self.set)


def _settable(path: str, value: Any) -> None:
    if isinstance(value, list):
        for item in value:
            _settable(path, item)
    elif not isinstance(value, bool | int | float | str):
        raise ValueError(f"set {path!r}: a value is a number, true/false, a name or a list")


def apply_set(engine: Engine[Any], state: Any, changes: Mapping[str, Any] | None) -> Any:
    """``state`` with each field path of ``changes`` set to its value (``b.cells[40]``).

    The one place a ``set`` table is applied: by a scenario's ``[setup]`` and by
    ``show_position``. Edits the engine's serialized state (rl's text form) and reads
    it back through the pages.

    Raises:
        BadInputError: one line: a path that does not exist or is out of range, a value
            of another kind than the field's, a state the pages cannot read back, or a
            game whose states are not records of fields (GDL).
    """
    if not changes:
        return state
    text = engine.serialize(state)
    if not text.lstrip().startswith("{"):
        shown = text if len(text) <= 60 else text[:60] + " ..."
        raise BadInputError(
            f"`set` edits the fields of a state; this game's states are not records of "
            f"fields ({shown}): give the whole `state` instead"
        )
    for path, value in changes.items():
        text = set_field(text, path, value)
    try:
        edited = engine.deserialize(text)
        # what the pages derive from the fields set (lists for slots), made again
        rebuild = getattr(engine, "rebuild", None)
        return rebuild(edited) if callable(rebuild) else edited
    except (Rulebook2GameError, ValueError) as exc:
        paths = ", ".join(changes)
        hint = ""
        if any(isinstance(v, list) for v in changes.values()):
            hint = "; an array of fixed size keeps its number of items"
        raise BadInputError(
            f"set {paths}: the pages cannot read the edited state ({exc}){hint}"
        ) from None


class Scenario(_Model):
    """One scenario file."""

    description: str = ""
    note: str = ""
    """A few words for the reader about the whole scenario (an expectation has its own)."""
    cites: tuple[str, ...] = Field(min_length=1)
    """The rulebook sentence ids (usually examples) the scenario comes from."""
    actions: tuple[str, ...] = ()
    expect: tuple[Expectation, ...] = ()
    setup: Setup | None = None

    @field_validator("actions")
    @classmethod
    def _actions(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return _action_list(value)

    def model_post_init(self, context: Any, /) -> None:
        for e in self.expect:
            if e.after is not None and e.after > len(self.actions):
                raise ValueError(
                    f"an expectation is after {e.after} actions; the scenario has "
                    f"{len(self.actions)}"
                )

    def all_cites(self) -> tuple[str, ...]:
        """The scenario's citations and its expectations', without repeats."""
        return tuple(dict.fromkeys([*self.cites, *(c for e in self.expect for c in e.cites)]))


def scenarios_dir(root: Path) -> Path:
    """The scenario folder of a game directory."""
    return root / SCENARIO_DIR


def scenario_paths(root: Path) -> list[Path]:
    """Every ``scenarios/*.toml`` of a game directory, by name."""
    folder = scenarios_dir(root)
    return sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []


def check_name(name: str) -> str:
    """``name`` (a file stem) if valid; :class:`BadInputError` otherwise."""
    stem = name.removesuffix(SUFFIX)
    if not NAME.fullmatch(stem):
        raise BadInputError(
            f"scenario name {name!r}: use lowercase letters, digits and underscores, "
            "starting with a letter"
        )
    return stem


def parse_scenario(data: dict[str, Any], source: str) -> Scenario:
    """Validate a scenario's data; :class:`BadInputError` naming the first problem."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "scenario"
        raise BadInputError(f"{source}: {loc}: {first['msg']}") from None


def read_scenario(path: Path) -> Scenario:
    """Read and validate ``path``; :class:`BadInputError` naming the file and problem."""
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise BadInputError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_scenario(data, str(path))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(round(value, 6))
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (
            f"{json.dumps(str(k), ensure_ascii=False)} = {_toml_value(v)}" for k, v in value.items()
        )
        return "{ " + ", ".join(items) + " }"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def scenario_toml(scenario: Scenario) -> str:
    """The scenario as TOML text (what :func:`read_scenario` reads back)."""
    data = scenario.model_dump(exclude_none=True, exclude_defaults=True)
    data.setdefault("cites", list(scenario.cites))
    lines = []
    for key in ("description", "note", "cites", "actions"):
        if key in data:
            lines.append(f"{key} = {_toml_value(data[key])}")
    for expectation in data.get("expect", []):
        lines += ["", "[[expect]]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in expectation.items() if k != "chance"]
        if "chance" in expectation:  # a sub-table: one outcome a line
            lines.append("[expect.chance]")
            lines += [
                f"{_toml_value(a)} = {_toml_value(p)}" for a, p in expectation["chance"].items()
            ]
    if scenario.setup is not None:
        lines += ["", "[setup]"]
        lines += [
            f"{k} = {_toml_value(v)}"
            for k, v in scenario.setup.model_dump(exclude_none=True).items()
        ]
    return "\n".join(lines) + "\n"


def write_scenario(root: Path, name: str, scenario: Scenario) -> Path:
    """Write ``scenarios/<name>.toml`` atomically; returns its path."""
    path = scenarios_dir(root) / f"{check_name(name)}{SUFFIX}"
    write_text_atomic(path, scenario_toml(scenario))
    return path


@dataclass(frozen=True)
class Failure:
    """The first expectation a scenario's run broke."""

    after: int
    """Actions played when it showed."""
    what: str
    """illegal | player | legal | allowed | forbidden | chance | terminal | returns | state |
    error"""
    expected: str
    actual: str
    actions: tuple[str, ...] = ()
    """Action texts in question (to find the pages involved)."""
    cites: tuple[str, ...] = ()
    """The expectation's own citations."""
    note: str = ""
    position: str = ""
    """The rendered position where it showed."""

    def __str__(self) -> str:
        return (
            f"after {self.after} action(s): {self.what}: expected {self.expected}, "
            f"got {self.actual}"
        )


def _check(engine: Engine[Any], state: Any, e: Expectation, after: int) -> Failure | None:
    def fail(what: str, expected: str, actual: str, actions: Iterable[str] = ()) -> Failure:
        return Failure(after, what, expected, actual, tuple(actions), e.cites, e.note)

    terminal = engine.is_terminal(state)
    if e.terminal is not None and e.terminal != terminal:
        return fail("terminal", str(e.terminal).lower(), str(terminal).lower())
    if e.returns is not None:
        if not terminal:
            return fail("returns", f"returns {list(e.returns)} at the end", "the game goes on")
        got = engine.returns(state)
        if len(got) != len(e.returns) or any(
            not math.isclose(a, b, abs_tol=RETURNS_TOLERANCE)
            for a, b in zip(got, e.returns, strict=False)
        ):
            return fail("returns", str(list(e.returns)), str(got))
    if e.state_contains:
        rendered = engine.render(state)
        missing = [text for text in e.state_contains if text not in rendered]
        if missing:
            shown = ", ".join(repr(t) for t in missing)
            return fail("state", f"the position to show {shown}", "it does not")
    wants_moves = e.player is not None or e.legal is not None or e.allowed or e.forbidden
    if (wants_moves or e.chance is not None) and terminal:
        return fail("terminal", "the game to go on", "the game is over")
    if terminal:
        return None
    player = engine.current_player(state)
    if e.player is not None:
        want = CHANCE if e.player == "chance" else e.player
        if want != player:
            return fail("player", _who(want), _who(player))
    if e.chance is not None:
        got_chance = dict(engine.chance_outcomes(state)) if player == CHANCE else {}
        problem = _chance_problem(e.chance, got_chance)
        if problem is not None:
            return fail("chance", _outcomes(e.chance), problem)
    if e.legal is not None or e.allowed or e.forbidden:
        legal = _rules_legal(engine, state) if player != CHANCE else set()
        if e.legal is not None and set(e.legal) != legal:
            missing, extra = sorted(set(e.legal) - legal), sorted(legal - set(e.legal))
            said = "; ".join(p for p in (_said("missing", missing), _said("extra", extra)) if p)
            return fail("legal", f"exactly {sorted(e.legal)}", said, [*missing, *extra])
        missing = [a for a in e.allowed if a not in legal]
        if missing:
            return fail("allowed", f"{missing} legal", "not legal", missing)
        extra = [a for a in e.forbidden if a in legal]
        if extra:
            return fail("forbidden", f"{extra} not legal", "legal", extra)
    return None


def _said(word: str, items: list[str]) -> str:
    return f"{word} {items}" if items else ""


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"player {player}"


def _outcomes(chance: dict[str, float]) -> str:
    return ", ".join(f"{a} {p:.4g}" for a, p in sorted(chance.items()))


def _chance_problem(want: dict[str, float], got: dict[str, float]) -> str | None:
    if not got:
        return "not a chance node"
    if set(want) != set(got):
        missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
        return "; ".join(p for p in (_said("missing", missing), _said("extra", extra)) if p)
    for action, p in want.items():
        if not math.isclose(p, got[action], abs_tol=PROBABILITY_TOLERANCE * 10):
            return f"{action} has probability {got[action]:.6f}"
    return None


@dataclass(frozen=True)
class ScenarioRun:
    """What playing one scenario gave."""

    failure: Failure | None
    steps: int
    """Actions played."""


def run_scenario(engine: Engine[Any], scenario: Scenario) -> ScenarioRun:
    """Play ``scenario`` from the start and check every expectation in order.

    Stops at the first broken expectation; a fault of the engine (a crash, or an
    action it refuses) is a failure of kind ``error`` where it happened.
    """
    by_step: dict[int, list[Expectation]] = {}
    for e in scenario.expect:
        by_step.setdefault(len(scenario.actions) if e.after is None else e.after, []).append(e)
    state: Any = None
    i = 0
    try:
        state, problem = _start(engine, scenario.setup)
        if problem is not None:
            return ScenarioRun(Failure(0, "setup", "a consistent position", problem), 0)
        for i in range(len(scenario.actions) + 1):
            for e in by_step.get(i, []):
                failure = _check(engine, state, e, i)
                if failure is not None:
                    return ScenarioRun(_with_position(engine, state, failure), i)
            if i == len(scenario.actions):
                break
            action = scenario.actions[i]
            failure = _playable(engine, state, action, i)
            if failure is not None:
                return ScenarioRun(_with_position(engine, state, failure), i)
            state = engine.apply(state, action)
    except (EngineFault, IllegalActionError) as exc:
        failure = Failure(i, "error", "the engine to answer", f"{type(exc).__name__}: {exc}")
        return ScenarioRun(failure, i)
    return ScenarioRun(None, len(scenario.actions))


def _start(engine: Engine[Any], setup: Setup | None) -> tuple[Any, str | None]:
    """The starting state, and why a setup is not a consistent position (if it is not)."""
    if setup is None or not setup.runnable():
        return engine.initial(), None
    try:
        state = engine.initial() if setup.state is None else engine.deserialize(setup.state)
    except (Rulebook2GameError, ValueError) as exc:
        return None, f"the pages cannot read the setup state ({exc})"
    try:
        state = apply_set(engine, state, setup.set)
    except BadInputError as exc:
        return None, str(exc)
    try:
        again = engine.serialize(state)
        if engine.serialize(engine.deserialize(again)) != again:
            return state, "the setup state does not read back to itself"
        if not engine.is_terminal(state):
            player = engine.current_player(state)
            chance = player == CHANCE
            if not (engine.chance_outcomes(state) if chance else engine.legal_actions(state)):
                return state, (
                    "the set-up position is not over but offers no move: the end of the "
                    "game is tested only after an action, so a position the rules end "
                    "cannot be set up; set it up one move earlier and play that move"
                )
    except (Rulebook2GameError, ValueError) as exc:
        return None, f"the pages cannot read the setup state ({exc})"
    return state, None


def _rules_legal(engine: Engine[Any], state: Any) -> set[str]:
    """The actions the rules allow at ``state``: for a game that gives candidate moves
    (a speed structure, as lists or slots), what testing every table entry's
    precondition allows, so that a scenario judges the preconditions, not the
    candidates (the fuzz stage holds the candidates to the same test)."""
    from rulebook2game.check.native import MoveLists

    if isinstance(engine, MoveLists) and engine.lists_candidates and not engine.lists_moves:
        texts = engine.action_texts
        return {texts[i] for i in engine.table_legal_indices(state)}
    return set(engine.legal_actions(state))


def setup_text(engine: Engine[Any], setup: Setup) -> str | None:
    """The serialized position a setup starts from (its ``state`` with its ``set``
    applied); ``None`` when it is not a consistent position."""
    try:
        state, problem = _start(engine, setup)
        return None if problem is not None else engine.serialize(state)
    except (Rulebook2GameError, ValueError):
        return None


def _playable(engine: Engine[Any], state: Any, action: str, i: int) -> Failure | None:
    if engine.is_terminal(state):
        return Failure(i, "illegal", f"{action} playable", "the game is over", (action,))
    if engine.current_player(state) == CHANCE:
        outcomes = [a for a, _ in engine.chance_outcomes(state)]
        if action not in outcomes:
            return Failure(i, "illegal", f"{action} a chance outcome", "not one", (action,))
        return None
    if action not in engine.legal_actions(state):
        return Failure(i, "illegal", f"{action} legal", "not legal", (action,))
    return None


def _with_position(engine: Engine[Any], state: Any, failure: Failure) -> Failure:
    try:
        position = engine.render(state)
    except (EngineFault, ValueError):
        position = ""
    return Failure(**{**failure.__dict__, "position": position})
