"""Reference engines by binding: ``load_oracle("openspiel:connect_four")``."""

from __future__ import annotations

from typing import Any

from rulebook2game.engine import Engine
from rulebook2game.errors import OracleError
from rulebook2game.oracle.openspiel import OpenSpielEngine
from rulebook2game.oracle.openspiel_games import ADAPTERS


def load_oracle(binding: str) -> Engine[Any]:
    """The reference engine named by ``binding``.

    ``binding`` is ``openspiel:NAME`` or ``openspiel:NAME(param=value, ...)`` (the
    parameters go to ``pyspiel.load_game`` unchanged). NAME must have an adapter in
    :data:`rulebook2game.oracle.openspiel_games.ADAPTERS`.

    Raises:
        OracleError: unknown scheme, unknown game, no adapter, or bad parameters.
    """
    scheme, sep, spec = binding.partition(":")
    if not sep or scheme != "openspiel" or not spec.strip():
        raise OracleError(f"unknown oracle binding {binding!r} (expected openspiel:NAME)")
    spec = spec.strip()
    name = spec.split("(", 1)[0].strip()
    adapter = ADAPTERS.get(name)
    if adapter is None:
        known = ", ".join(sorted(ADAPTERS))
        raise OracleError(f"no adapter for openspiel game {name!r} (known: {known})")
    return OpenSpielEngine(spec, adapter)


def oracle_names() -> list[str]:
    """Every binding ``load_oracle`` accepts without parameters."""
    return [f"openspiel:{name}" for name in sorted(ADAPTERS)]
