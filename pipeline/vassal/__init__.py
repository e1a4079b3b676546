"""Vassal modules and game logs: the nouns of a game, and recorded play.

:func:`extract_vassal` is what the command line calls: a ``.vmod`` module
gives a component inventory (maps, boards, pieces, decks, prototypes,
properties), a ``.vlog``/``.vsav`` a typed list of events. Both are written as
JSON; :func:`render_inventory` gives the compact text a prompt includes.
"""

from __future__ import annotations

from pathlib import Path

from rulebook2game.errors import ModuleError
from rulebook2game.trace import write_text_atomic
from rulebook2game.vassal.log import read_log
from rulebook2game.vassal.models import GameLog, ModuleInventory
from rulebook2game.vassal.module import read_module
from rulebook2game.vassal.render import render_inventory

__all__ = [
    "GameLog",
    "ModuleInventory",
    "extract_vassal",
    "read_log",
    "read_module",
    "render_inventory",
]

MODULE_SUFFIXES = frozenset({".vmod", ".vmdx"})
LOG_SUFFIXES = frozenset({".vlog", ".vsav"})


def extract_vassal(path: Path, output: Path, module: Path | None = None) -> str:
    """Extract a module's inventory or a log's events into ``output`` (JSON).

    Args:
        path: a ``.vmod`` module, or a ``.vlog``/``.vsav`` game.
        output: where the JSON goes; written atomically, untouched on failure.
        module: for a game, the module used to name pieces (ignored for a module).

    Returns:
        A one-line summary of what was extracted.

    Raises:
        ModuleError: an input cannot be read, or the suffix is not a Vassal one.
    """
    suffix = path.suffix.lower()
    if suffix in MODULE_SUFFIXES:
        inventory = read_module(path)
        _write_atomically(output, inventory.model_dump_json(indent=1))
        slots = sum(k.count for k in inventory.kinds)
        return (
            f"{inventory.name or path.name}: {len(inventory.maps)} maps, "
            f"{len(inventory.kinds)} piece kinds ({slots} slots), {len(inventory.decks)} decks, "
            f"{len(inventory.prototypes)} prototypes, "
            f"{len(inventory.global_properties)} global properties -> {output}"
        )
    if suffix in LOG_SUFFIXES:
        inventory_of_module = read_module(module) if module is not None else None
        log = read_log(path, inventory_of_module)
        _write_atomically(output, log.model_dump_json(indent=1))
        moves = sum(1 for e in log.events if e.kind == "move")
        return (
            f"{path.name}: {len(log.events)} events in {log.steps} steps "
            f"({log.pieces} pieces, {moves} moves) -> {output}"
        )
    raise ModuleError(f"{path.name}: not a Vassal file (expected .vmod, .vlog or .vsav)")


def _write_atomically(output: Path, text: str) -> None:
    write_text_atomic(output, text + "\n")
