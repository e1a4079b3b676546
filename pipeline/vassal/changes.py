"""Readable descriptions of a piece's state change, trait by trait."""

from __future__ import annotations

from rulebook2game.vassal.sequence import decode
from rulebook2game.vassal.traits import Trait, split_chain

MAX_VALUE = 60
"""Longest state value quoted in a description."""


def describe_change(traits: list[Trait], old_state: str | None, new_state: str) -> list[str]:
    """One line per trait whose state differs between ``old_state`` and ``new_state``.

    ``traits`` is the piece's own chain (as added); a chain that no longer lines
    up with the states is described as a whole.
    """
    new_parts = split_chain(new_state)
    if old_state is None:
        return ["state set"]
    old_parts = split_chain(old_state)
    if len(new_parts) != len(old_parts) or len(new_parts) != len(traits):
        return ["state replaced"]
    return [
        _describe(trait, old, new)
        for trait, old, new in zip(traits, old_parts, new_parts, strict=True)
        if old != new
    ]


def _describe(trait: Trait, old: str, new: str) -> str:
    kind = trait.kind
    if kind == "piece":
        return _basic(old, new)
    if kind in ("emb2", "emb"):
        return _layer(trait, old, new)
    if kind == "mark":
        return _marker(trait, old, new)
    if kind == "PROP":
        return f"{trait.fields.get('name', 'property')}: {_quote(old)} -> {_quote(new)}"
    if kind == "label":
        return f"label: {_quote(old)} -> {_quote(new)}"
    if kind == "obs":
        return "masked" if _owner(new) else "unmasked"
    if kind == "hide":
        return "hidden" if _owner(new) else "shown"
    if kind == "rotate":
        return f"facing: {old} -> {new}"
    return f"{trait.label} ({kind}): {_quote(old)} -> {_quote(new)}"


def _basic(old: str, new: str) -> str:
    old_parts, new_parts = decode(old, ";"), decode(new, ";")
    if old_parts[:3] != new_parts[:3]:
        return f"position: {_place(old_parts)} -> {_place(new_parts)}"
    return "piece properties changed"


def _place(parts: list[str]) -> str:
    padded = [*parts, "", "", ""]
    return f"{padded[0]} ({padded[1]},{padded[2]})"


def _layer(trait: Trait, old: str, new: str) -> str:
    name = trait.fields.get("name") or "layer"
    old_level, new_level = old.split(";", 1)[0], new.split(";", 1)[0]
    text = f"{name}: level {old_level} -> {new_level}"
    names = trait.fields.get("level_names")
    try:
        level = int(new_level)
    except ValueError:
        return text
    if level <= 0:
        return text + " (inactive)"
    if isinstance(names, list) and level <= len(names) and names[level - 1]:
        text += f" [{names[level - 1].strip('+').strip()}]"
    return text


def _marker(trait: Trait, old: str, new: str) -> str:
    keys = trait.fields.get("properties", [])
    old_values, new_values = decode(old, ","), decode(new, ",")
    changed: list[str] = []
    for i, key in enumerate(keys if isinstance(keys, list) else []):
        before = old_values[i] if i < len(old_values) else ""
        after = new_values[i] if i < len(new_values) else ""
        if before != after:
            changed.append(f"{key}: {_quote(before)} -> {_quote(after)}")
    return "; ".join(changed) or f"marker: {_quote(old)} -> {_quote(new)}"


def _owner(state: str) -> bool:
    owner = state.split(";", 1)[0]
    return owner not in ("", "null")


def _quote(value: str) -> str:
    text = value if len(value) <= MAX_VALUE else value[: MAX_VALUE - 3] + "..."
    return repr(text)
