"""Piece images from the game's Vassal module, matched to the words the table shows.

A game directory may hold a Vassal module (``*.vmod``). Its pieces and cards have names
and images; a word of an action (its name or an argument value, ``card=QS``) or of the
rendered state matches a piece when both read the same ignoring case and punctuation
(``QS`` ~ ``Q S``, ``x`` ~ ``X``). Unmatched words stay text.
"""

from __future__ import annotations

import mimetypes
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulebook2game.errors import ModuleError
from rulebook2game.vassal.module import read_module

_WORD = re.compile(r"[A-Za-z0-9_]+")


def piece_key(word: str) -> str:
    """How a name is compared: lower case, letters and digits only."""
    return "".join(ch for ch in word.lower() if ch.isalnum())


@dataclass(frozen=True)
class PieceImages:
    """The images of a module's pieces, by :func:`piece_key` of their names."""

    module: Path
    images: dict[str, str] = field(default_factory=dict)
    """Piece key -> image file name inside the module (``images/<name>``)."""

    def match(self, words: Iterable[str]) -> dict[str, str]:
        """Each word that names a piece with an image -> the image's file name."""
        found: dict[str, str] = {}
        for word in words:
            image = self.images.get(piece_key(word))
            if image is not None:
                found[word] = image
        return found

    def read(self, image: str) -> tuple[bytes, str] | None:
        """The bytes and media type of one of :attr:`images`, ``None`` for any other name."""
        if image not in self.images.values():
            return None
        try:
            with zipfile.ZipFile(self.module) as archive:
                data = archive.read(f"images/{image}")
        except (OSError, KeyError, zipfile.BadZipFile):
            return None
        media = mimetypes.guess_type(image)[0] or "application/octet-stream"
        return data, media


def words_of(text: str) -> list[str]:
    """The words of a text (for matching the rendered state)."""
    return list(dict.fromkeys(_WORD.findall(text)))


def load_piece_images(root: Path) -> PieceImages | None:
    """The piece images of the first ``*.vmod`` in ``root``; ``None`` without a usable one."""
    modules = sorted(root.glob("*.vmod"))
    if not modules:
        return None
    try:
        inventory = read_module(modules[0])
        with zipfile.ZipFile(modules[0]) as archive:
            present = {n.removeprefix("images/") for n in archive.namelist()}
    except (ModuleError, OSError, zipfile.BadZipFile):
        return None
    images: dict[str, str] = {}
    for kind in inventory.kinds:
        key = piece_key(kind.name)
        if key and kind.image and kind.image in present:
            images.setdefault(key, kind.image)
    return PieceImages(modules[0], images)
