"""Traces in the ``rulebook2game-trace/1`` format (JSON lines).

::

    {"kind":"header","format":"rulebook2game-trace/1","game":"pig","players":2,
     "source":"openspiel:pig","seed":7}                    (one line in the file)
    {"kind":"step","t":0,"player":-1,"action":"roll(value=4)",
     "chance":[["roll(value=1)",0.1667], ...]}
    {"kind":"step","t":1,"player":0,"action":"hold()","legal":["hold()","roll_again()"]}
    {"kind":"end","terminal":true,"returns":[1.0,-1.0]}

``legal`` and ``chance`` are optional; when present, replay checks them exactly.
Chance outcomes are ordinary steps, so a trace replays without a random seed.
"""

from __future__ import annotations

import json
import math
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.actions import parse_action
from rulebook2game.engine import CHANCE, Engine, draw_chance
from rulebook2game.errors import BadInputError, TraceFormatError

FORMAT: Literal["rulebook2game-trace/1"] = "rulebook2game-trace/1"
S = TypeVar("S")
PROBABILITY_TOLERANCE = 1e-4
"""Recorded probabilities are rounded; two probabilities closer than this are equal."""
RETURNS_TOLERANCE = 1e-6
"""How far two returns may differ and still be equal (replay, scenarios, lockstep, diff)."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


R = TypeVar("R", bound=_Record)


class TraceHeader(_Record):
    """First line: which game, how many players, where the trace came from."""

    kind: Literal["header"] = "header"
    format: Literal["rulebook2game-trace/1"] = FORMAT
    game: str
    players: int = Field(ge=1)
    source: str | None = None
    seed: int | None = None


class TraceStep(_Record):
    """One action by one player (``-1`` = chance), with the options that were offered."""

    kind: Literal["step"] = "step"
    t: int = Field(ge=0)
    player: int
    action: str
    legal: tuple[str, ...] | None = None
    chance: tuple[tuple[str, float], ...] | None = None


class TraceEnd(_Record):
    """Last line: whether the game ended, and its returns."""

    kind: Literal["end"] = "end"
    terminal: bool
    returns: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Trace:
    """A whole trace: header, steps in order, end."""

    header: TraceHeader
    steps: tuple[TraceStep, ...]
    end: TraceEnd
    path: Path | None = field(default=None, compare=False)

    @property
    def actions(self) -> list[str]:
        """The actions in order."""
        return [s.action for s in self.steps]

    def prefix(self, n: int, end: TraceEnd | None = None) -> Trace:
        """The first ``n`` steps, closed by ``end`` (default: not terminal, no returns)."""
        return Trace(self.header, self.steps[:n], end or TraceEnd(terminal=False), self.path)

    def to_jsonl(self) -> str:
        """The trace as JSON lines text."""
        lines = [_dump(self.header), *(_dump(s) for s in self.steps), _dump(self.end)]
        return "\n".join(lines) + "\n"


def _dump(record: BaseModel) -> str:
    data = record.model_dump(exclude_none=True)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def parse_trace(text: str, source: str = "<trace>") -> Trace:
    """Parse and validate trace text; raise ``TraceFormatError`` naming the line."""
    header: TraceHeader | None = None
    steps: list[TraceStep] = []
    end: TraceEnd | None = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}:{lineno}"
        if end is not None:
            raise TraceFormatError(f"{where}: content after the end record")
        data = _json_object(line, where)
        kind = data.get("kind")
        if header is None:
            if kind != "header":
                raise TraceFormatError(f"{where}: the first record must be the header")
            header = _record(TraceHeader, data, where)
        elif kind == "step":
            step = _record(TraceStep, data, where)
            _check_step(step, len(steps), header.players, where)
            steps.append(step)
        elif kind == "end":
            end = _record(TraceEnd, data, where)
        else:
            raise TraceFormatError(f"{where}: unknown record kind {kind!r}")
    if header is None:
        raise TraceFormatError(f"{source}: empty trace (no header)")
    if end is None:
        raise TraceFormatError(f"{source}: no end record (truncated trace?)")
    if end.returns is not None and len(end.returns) != header.players:
        raise TraceFormatError(
            f"{source}: end has {len(end.returns)} returns for {header.players} players"
        )
    return Trace(header, tuple(steps), end)


def _json_object(line: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise TraceFormatError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise TraceFormatError(f"{where}: a record must be a JSON object")
    return data


def _record(model: type[R], data: dict[str, Any], where: str) -> R:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "record"
        raise TraceFormatError(f"{where}: {loc}: {first['msg']}") from None


def _check_step(step: TraceStep, index: int, players: int, where: str) -> None:
    if step.t != index:
        raise TraceFormatError(f"{where}: step t={step.t}, expected t={index}")
    if not (step.player == CHANCE or 0 <= step.player < players):
        raise TraceFormatError(f"{where}: player {step.player} out of range")
    for text in [step.action, *(step.legal or ()), *(a for a, _ in step.chance or ())]:
        try:
            parse_action(text)
        except ValueError as exc:
            raise TraceFormatError(f"{where}: {exc}") from None
    if step.legal is not None and step.action not in step.legal:
        raise TraceFormatError(f"{where}: action {step.action} is not in its legal list")
    if step.chance is not None:
        if step.player != CHANCE:
            raise TraceFormatError(f"{where}: chance outcomes on a non-chance step")
        if step.action not in {a for a, _ in step.chance}:
            raise TraceFormatError(f"{where}: action {step.action} is not a chance outcome")
        total = math.fsum(p for _, p in step.chance)
        if abs(total - 1.0) > PROBABILITY_TOLERANCE * max(1, len(step.chance)):
            raise TraceFormatError(f"{where}: chance probabilities sum to {total:.6f}")


def read_trace(path: Path) -> Trace:
    """Read and validate a trace file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TraceFormatError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TraceFormatError(f"{path}: cannot read ({exc})") from None
    trace = parse_trace(text, str(path))
    return Trace(trace.header, trace.steps, trace.end, path)


def write_trace(trace: Trace, path: Path) -> None:
    """Write a trace atomically (a reader never sees half a file)."""
    write_text_atomic(path, trace.to_jsonl())


def _file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()
"""The mode of a new file under this process's umask (``mkstemp`` alone gives 0600)."""


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder.

    The file gets the usual mode (:data:`FILE_MODE`). A path that cannot be written
    (a directory, a missing or read-only folder) raises :class:`BadInputError`, and
    no temporary file is left behind.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot write ({exc.strerror or exc})") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise BadInputError(f"{path}: cannot write ({exc.strerror or exc})") from exc
        raise


Chooser = Callable[[list[str]], str]


def record_trace(
    engine: Engine[S],
    *,
    game: str,
    seed: int,
    max_steps: int = 10_000,
    choose: Chooser | None = None,
    with_legal: bool = True,
) -> Trace:
    """Play one game through ``engine`` and record it.

    Chance steps sample the engine's own distribution with ``random.Random(seed)``;
    player steps use ``choose`` (default: uniform over the legal actions with the
    same generator), so a seed gives the same trace every time.
    """
    rng = random.Random(seed)
    pick: Chooser = choose or rng.choice
    state = engine.initial()
    steps: list[TraceStep] = []
    for t in range(max_steps):
        if engine.is_terminal(state):
            break
        player = engine.current_player(state)
        if player == CHANCE:
            outcomes = engine.chance_outcomes(state)
            action = draw_chance(outcomes, rng)
            rounded = tuple((a, round(p, 6)) for a, p in outcomes)
            steps.append(TraceStep(t=t, player=player, action=action, chance=rounded))
        else:
            legal = engine.legal_actions(state)
            action = pick(legal)
            steps.append(
                TraceStep(
                    t=t, player=player, action=action, legal=tuple(legal) if with_legal else None
                )
            )
        state = engine.apply(state, action)
    terminal = engine.is_terminal(state)
    returns = tuple(engine.returns(state)) if terminal else None
    header = TraceHeader(game=game, players=engine.players, source=engine.name, seed=seed)
    return Trace(header, tuple(steps), TraceEnd(terminal=terminal, returns=returns))


def traces_in(paths: Iterable[Path]) -> list[Trace]:
    """Read every trace of ``paths`` (for directories, every ``*.jsonl`` in them)."""
    out: list[Trace] = []
    for path in paths:
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        out.extend(read_trace(f) for f in files)
    return out
