"""Builders of Vassal files for the tests, written from the documented format.

They do not use the package's own encoder: tokens are escaped and quoted by
the rules Vassal's SequenceEncoder follows, chains nested pair by pair, and
saved games obfuscated as ``!VCSK`` + key + hex(byte ^ key).
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from pathlib import Path

ESC = "\x1b"


def enc(tokens: Sequence[str], delimiter: str) -> str:
    """Vassal's SequenceEncoder: escape the delimiter, quote a token ending in a backslash."""
    out = []
    for token in tokens:
        escaped = token.replace(delimiter, "\\" + delimiter)
        if token.endswith("\\") or (token.startswith("'") and token.endswith("'")):
            escaped = f"'{escaped}'"
        out.append(escaped)
    return delimiter.join(out)


def chain(traits: Sequence[str]) -> str:
    """A piece type (or state) from trait texts, outermost first, nested as Vassal nests them."""
    text = traits[-1]
    for trait in reversed(traits[:-1]):
        text = enc([trait, text], "\t")
    return text


def add(piece_id: str, types: Sequence[str], states: Sequence[str]) -> str:
    """The add-piece command ``+/id/type/state``."""
    return "+/" + enc([piece_id, chain(types), chain(states)], "/")


def basic(name: str, image: str = "") -> str:
    """A basic piece type ``piece;cloneKey;deleteKey;image;name``."""
    return "piece;;;" + enc([image, name], ";")


def basic_state(map_name: str = "null", x: int = 0, y: int = 0, gpid: str = "") -> str:
    """A basic piece state ``map;x;y;gpid;0`` (no persistent properties)."""
    return enc([map_name, str(x), str(y), gpid, "0"], ";")


def layer(name: str, images: Sequence[str], level_names: Sequence[str]) -> str:
    """An ``emb2`` layer trait: commands and keys, images, level names, then the layer name."""
    fields = ["Activate", "2", "A", "Flip", "2", "F", "", "2", "", "", "", "", "false", "0", "0"]
    fields += [enc(images, ","), enc(level_names, ","), "true", name]
    return "emb2;" + enc(fields, ";")


def marker(*keys: str) -> str:
    """A marker trait declaring ``keys``; its state is the values, comma-separated."""
    return "mark;" + enc(keys, ",")


def prototype_ref(name: str) -> str:
    """A reference to a prototype."""
    return "prototype;" + name


def slot_xml(tag: str, entry: str, gpid: str, types: Sequence[str], states: Sequence[str]) -> str:
    """A PieceSlot/CardSlot element holding an add-piece command."""
    text = add("null", types, states)
    element = f"VASSAL.build.widget.{tag}"
    return f'<{element} entryName="{_attr(entry)}" gpid="{gpid}">{_text(text)}</{element}>'


def prototype_xml(name: str, types: Sequence[str], states: Sequence[str]) -> str:
    """A prototype definition (its innermost trait is an empty basic piece)."""
    text = add("null", [*types, basic("")], [*states, basic_state()])
    return (
        f'<VASSAL.build.module.PrototypeDefinition name="{_attr(name)}" description="">'
        f"{_text(text)}</VASSAL.build.module.PrototypeDefinition>"
    )


def write_zip(path: Path, entries: dict[str, str | bytes]) -> Path:
    """A zip with the given entries."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return path


def moduledata(name: str, version: str = "1.0") -> str:
    """The small moduledata header."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?><data version="1">'
        f"<version>{version}</version><VassalVersion>3.7.0</VassalVersion>"
        f"<description>test</description><name>{name}</name></data>"
    )


def obfuscate(text: str, key: int) -> bytes:
    """``!VCSK``, the key as two hex digits, then each UTF-8 byte XOR key as two hex digits."""
    body = "".join(f"{b ^ key:02x}" for b in text.encode("utf-8"))
    return f"!VCSK{key:02x}{body}".encode("ascii")


def commands(*items: str) -> str:
    """Commands joined as a composite command (ESC-separated, nested ones escaped)."""
    return enc(items, ESC)


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
