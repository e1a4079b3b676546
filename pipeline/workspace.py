"""A game directory ("workspace") and its two configuration files.

``game.toml``::

    name = "connect_four"
    title = "Connect Four"
    players = 2
    target = "rl"
    rulebook = "rules.pdf"
    oracle = "openspiel:connect_four"      # optional

``interface.toml`` fixes the action vocabulary and the chance structure::

    [[actions]]
    name = "drop"
    doc = "Drop a disc into a column."
    args = [{ name = "col", min = 0, max = 6 }]          # integer argument
    # args = [{ name = "card", values = ["2C", "3C"] }]  # enum argument

    [chance]
    actions = ["deal"]         # actions taken only by the chance player

    [[invariants]]
    name = "zero_sum"
    kind = "returns_sum"       # checked by the fuzzer; see rulebook2game.check
    value = 0.0
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulebook2game.errors import BadWorkspaceError


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class InvariantSpec(_Model):
    """A property the fuzzer checks on every step (see ``rulebook2game.check``)."""

    name: str
    kind: str
    doc: str = ""
    value: float | None = None
    fun: str | None = None
    min: float | None = None
    """Lower bound (``returns_range``)."""
    max: float | None = None
    """Upper bound (``returns_range``)."""


class RegressBudget(_Model):
    """``[regress]`` in ``game.toml``: caps on ``regress``'s seeded passes for this game,
    for a game whose every playout is long (chess): ``fuzz = 4``, ``oracle = 2``."""

    fuzz: int | None = Field(default=None, ge=0)
    """At most this many fuzz playouts."""
    oracle: int | None = Field(default=None, ge=0)
    """At most this many oracle trajectories."""


class GameConfig(_Model):
    """The contents of ``game.toml``."""

    name: str
    title: str = ""
    players: int = Field(ge=1)
    target: str = "rl"
    rulebook: str = "rules.pdf"
    oracle: str | None = None
    """Reference engine binding, ``openspiel:NAME`` (optionally ``openspiel:NAME(k=v)``)."""
    max_game_length: int | None = None
    """Upper bound on the number of steps of one game, used by the fuzzer."""
    unbounded: bool = False
    """The rulebook sets no limit on a game's length: ``max_game_length`` then only bounds
    the walks, and a fuzzed game cut there is counted (``truncated``), not a finding."""
    second_opinion: str | None = None
    """A second, independent translation of the game (a game directory, relative to this
    one), walked in lockstep with it by every check (``rulebook2game second-opinion``)."""
    invariants: tuple[InvariantSpec, ...] = ()
    """Rule invariants of this translation (``fun`` ones call its pages), checked with the
    interface's: interface.toml is the fixed vocabulary, these belong to the pages."""
    regress: RegressBudget = RegressBudget()
    """Caps on ``regress``'s budgets for this game (``check`` ignores them)."""


class ArgSpec(_Model):
    """One action argument: an integer range or an enumeration."""

    name: str
    min: int | None = None
    max: int | None = None
    values: tuple[str, ...] | None = None
    doc: str = ""

    @model_validator(mode="after")
    def _one_domain(self) -> ArgSpec:
        has_range = self.min is not None and self.max is not None
        if has_range == (self.values is not None):
            raise ValueError(f"argument {self.name!r} needs either min/max or values")
        if has_range and self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"argument {self.name!r}: min > max")
        return self

    def domain(self) -> list[int | str]:
        """Every value the argument may take, in order."""
        if self.values is not None:
            return list(self.values)
        assert self.min is not None and self.max is not None
        return list(range(self.min, self.max + 1))


class ActionSpec(_Model):
    """One action of the vocabulary."""

    name: str
    doc: str = ""
    args: tuple[ArgSpec, ...] = ()


class ChanceSpec(_Model):
    """Which actions belong to the chance player."""

    actions: tuple[str, ...] = ()


class SeatsSpec(_Model):
    """The rulebook's names of the players, in engine order, and who makes the first move.

    ``[seats] names = ["Black", "White"]; first = "Black"``: seat 0 is Black. The
    checks assert that the engine has one seat per name and that, from the opening
    (chance steps taking their first outcome), ``first`` is the first seat to move.
    """

    names: tuple[str, ...] = Field(min_length=1)
    first: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> SeatsSpec:
        if any(not n.strip() for n in self.names):
            raise ValueError("seat names must not be empty")
        if len(set(self.names)) != len(self.names):
            raise ValueError("seat names must differ")
        if self.first is not None and self.first not in self.names:
            raise ValueError(f"first seat {self.first!r} is not one of {list(self.names)}")
        return self

    def label(self, seat: int) -> str:
        """``1 (White)``: a seat number with its name (the number alone if unnamed)."""
        return f"{seat} ({self.names[seat]})" if 0 <= seat < len(self.names) else str(seat)


class Interface(_Model):
    """The contents of ``interface.toml``."""

    actions: tuple[ActionSpec, ...] = ()
    chance: ChanceSpec = ChanceSpec()
    invariants: tuple[InvariantSpec, ...] = ()
    seats: SeatsSpec | None = None

    def action(self, name: str) -> ActionSpec | None:
        """The declared action called ``name``, if any."""
        return next((a for a in self.actions if a.name == name), None)


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise BadWorkspaceError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadWorkspaceError(f"{path}: not valid TOML ({exc})") from None


M = TypeVar("M", bound=BaseModel)


def _validate(model: type[M], data: dict[str, Any], path: Path) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise BadWorkspaceError(f"{path}: {where}: {first['msg']}") from None


def load_game_config(path: Path) -> GameConfig:
    """Read and validate a ``game.toml``."""
    return _validate(GameConfig, _load_toml(path), path)


def load_interface(path: Path) -> Interface:
    """Read and validate an ``interface.toml``."""
    return _validate(Interface, _load_toml(path), path)


@dataclass(frozen=True)
class Workspace:
    """A game directory on disk; paths follow the layout of DESIGN.md."""

    root: Path

    @property
    def pages_dir(self) -> Path:
        return self.root / "pages"

    @property
    def traces_dir(self) -> Path:
        return self.root / "traces"

    @property
    def build_dir(self) -> Path:
        return self.root / "build"

    @property
    def reports_dir(self) -> Path:
        return self.root / "reports"

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    @property
    def rulebook_json(self) -> Path:
        return self.root / "rulebook.json"

    def config(self) -> GameConfig:
        """The game's ``game.toml``."""
        return load_game_config(self.root / "game.toml")

    def interface(self) -> Interface | None:
        """The game's ``interface.toml``, or ``None`` when it has none."""
        path = self.root / "interface.toml"
        return load_interface(path) if path.exists() else None

    @property
    def page_suffix(self) -> str:
        """Suffix of a page file (``.rl``), fixed by the target ``game.toml`` names."""
        from rulebook2game.targets import page_suffix_for

        return page_suffix_for(self.root)

    def pages(self) -> list[Path]:
        """The rule pages, sorted by name."""
        return sorted(self.pages_dir.glob(f"*{self.page_suffix}"))

    def traces(self) -> list[Path]:
        """The golden traces, sorted by name."""
        return sorted(self.traces_dir.glob("*.jsonl"))


def open_workspace(path: Path) -> Workspace:
    """Open a game directory, failing with one clear line if it is not one."""
    if not path.is_dir():
        raise BadWorkspaceError(f"{path}: not a directory")
    if not (path / "game.toml").is_file():
        raise BadWorkspaceError(f"{path}: not a game directory (no game.toml)")
    return Workspace(path)
