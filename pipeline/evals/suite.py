"""Evaluation suites: TOML files in ``evals/`` naming games and settings.

::

    # evals/corpus.toml
    name = "corpus"
    description = "The shipped corpus, every metric."
    corpus = "../corpora"          # folder of game dirs, relative to this file
    games = ["tic_tac_toe", "pig"] # optional: default every game of the corpus

    [settings]
    seed = 0
    trajectories = 50              # oracle agreement: lockstep trajectories per game
    fuzz = 200                     # fuzz playouts of the check run
    oracle = 50                    # oracle trajectories of the check run
    mutants = false                # mutant kill rate (also --mutants)
    max_mutants = 40               # mutants per game (0 = all)

A corpus folder given on the command line is an ad-hoc suite named after the folder,
with the default settings.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebook2game.errors import BadInputError
from rulebook2game.regress import game_dirs


class Settings(BaseModel):
    """How much each metric measures; stored in the report so a run can be repeated."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: int = 0
    trajectories: int = Field(default=50, ge=0)
    fuzz: int = Field(default=200, ge=0)
    oracle: int = Field(default=50, ge=0)
    mutants: bool = False
    max_mutants: int = Field(default=40, ge=0)
    oracle_blind: bool = False
    """The check run does not see the reference engine (what a user with a new game
    gets); the reference only scores the finished translation (oracle agreement)."""


class SuiteFile(BaseModel):
    """The contents of a suite file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    description: str = ""
    corpus: str = "../corpora"
    games: tuple[str, ...] | None = None
    settings: Settings = Settings()


@dataclass(frozen=True)
class Suite:
    """A resolved suite: its name, game directories and settings."""

    name: str
    games: tuple[Path, ...]
    settings: Settings
    file: Path | None = None
    digest: str | None = None
    """sha256 of the suite file (so a report names exactly what was run)."""

    def with_settings(self, **changes: object) -> Suite:
        """The suite with some settings overridden (from the command line)."""
        given = {k: v for k, v in changes.items() if v is not None}
        return replace(self, settings=self.settings.model_copy(update=given))


def _shown(path: Path) -> Path:
    """``path`` relative to the working directory when it is below it (shorter reports)."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def load_suite(path: Path) -> Suite:
    """Read a suite file; its corpus and games are resolved relative to it."""
    try:
        raw = path.read_bytes()
        data = SuiteFile.model_validate(tomllib.loads(raw.decode("utf-8")))
    except FileNotFoundError:
        raise BadInputError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise BadInputError(f"{path}: not a readable TOML file ({exc})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise BadInputError(f"{path}: {where}: {first['msg']}") from None
    corpus = (path.parent / data.corpus).resolve()
    if data.games is None:
        games = tuple(game_dirs(corpus))
    else:
        games = tuple(corpus / g for g in data.games)
        missing = [g.name for g in games if not (g / "game.toml").is_file()]
        if missing:
            raise BadInputError(f"{path}: no game directory {', '.join(missing)} in {corpus}")
    digest = hashlib.sha256(raw).hexdigest()
    return Suite(data.name, tuple(_shown(g) for g in games), data.settings, path, digest)


def adhoc_suite(folder: Path) -> Suite:
    """A corpus folder (or one game directory) as a suite with the default settings."""
    games = tuple(game_dirs(folder))
    name = folder.resolve().name or "corpus"
    return Suite(name, games, Settings())
