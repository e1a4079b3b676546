"""Reference engines by binding: ``load_oracle("openspiel:connect_four")``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulebook2game.engine import Engine
from rulebook2game.errors import OracleError
from rulebook2game.oracle.game_binding import (
    ORACLE_FILE,
    game_adapter,
    game_oracle_spec,
    register_python_engine,
)
from rulebook2game.oracle.openspiel import OpenSpielEngine
from rulebook2game.oracle.openspiel_games import ADAPTERS


def load_oracle(binding: str, game_dir: Path | None = None) -> Engine[Any]:
    """The reference engine named by ``binding``.

    ``binding`` is ``openspiel:NAME`` or ``openspiel:NAME(param=value, ...)`` (the
    parameters go to ``pyspiel.load_game`` unchanged), or ``gdl:PATH.kif``: a GDL
    description with the game directory's ``gdl.toml`` as its move map
    (:mod:`rulebook2game.targets.gdl.oracle`). When ``game_dir`` holds an
    ``oracle.toml`` (:mod:`rulebook2game.oracle.game_binding`), the game's own action
    mapping (and engine) is used; otherwise NAME must have a built-in adapter in
    :data:`rulebook2game.oracle.openspiel_games.ADAPTERS`.

    Raises:
        OracleError: unknown scheme, unknown game, no adapter, or bad parameters.
        BadWorkspaceError: the game directory's ``oracle.toml`` is malformed.
    """
    scheme, sep, spec = binding.partition(":")
    if sep and scheme == "gdl":
        try:
            from rulebook2game.targets.gdl.oracle import load_gdl_oracle
        except ModuleNotFoundError as exc:
            raise OracleError(
                f"gdl: oracles need the package {exc.name!r}: pip install 'rulebook2game[gdl]'"
            ) from exc
        return load_gdl_oracle(spec, game_dir)
    if not sep or scheme != "openspiel" or not spec.strip():
        raise OracleError(
            f"unknown oracle binding {binding!r} (expected openspiel:NAME or gdl:PATH.kif)"
        )
    spec = spec.strip()
    name = spec.split("(", 1)[0].strip()
    own = game_oracle_spec(game_dir) if game_dir is not None else None
    if own is not None and game_dir is not None:
        register_python_engine(game_dir, own)
        return OpenSpielEngine(own.engine, game_adapter(own))
    adapter = ADAPTERS.get(name)
    if adapter is None:
        known = ", ".join(sorted(ADAPTERS))
        raise OracleError(
            f"no adapter for openspiel game {name!r} (built in: {known}); give the game "
            f"directory an {ORACLE_FILE} that maps its actions (see the README)"
        )
    return OpenSpielEngine(spec, adapter)


def oracle_names() -> list[str]:
    """Every binding ``load_oracle`` accepts without parameters."""
    return [f"openspiel:{name}" for name in sorted(ADAPTERS)]
