"""Reading the zip files Vassal writes (modules, saved games, logs).

Every failure to read (not a zip, a truncated or corrupt one, a missing
entry, malformed XML) becomes one :class:`ModuleError` line here, so the
modules above never see a foreign exception.
"""

from __future__ import annotations

import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from rulebook2game.errors import ModuleError

MAX_ENTRY_BYTES = 256 * 1024 * 1024
"""Entries larger than this are refused (a zip bomb, not a module)."""


@dataclass(frozen=True)
class ModuleData:
    """The small ``moduledata``/``savedata`` header: name, version, dates."""

    name: str = ""
    version: str = ""
    vassal_version: str = ""
    description: str = ""
    date_saved: str = ""


class Archive:
    """An open Vassal zip; use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.is_dir():
            raise ModuleError(f"{path} is a directory, not a Vassal file")
        if not path.is_file():
            raise ModuleError(f"{path}: no such file")
        try:
            self._zip = zipfile.ZipFile(path)
        except zipfile.BadZipFile as exc:
            raise ModuleError(f"{path.name}: not a zip archive, or a truncated one") from exc
        except OSError as exc:
            raise ModuleError(f"{path.name}: cannot be read ({exc.strerror or exc})") from exc
        self.names = frozenset(self._zip.namelist())

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc: object) -> None:
        self._zip.close()

    def read(self, name: str) -> bytes:
        """The bytes of one entry.

        Raises:
            ModuleError: the entry is missing, too large, or its data is corrupt.
        """
        if name not in self.names:
            raise ModuleError(f"{self.path.name}: has no {name} entry")
        info = self._zip.getinfo(name)
        if info.file_size > MAX_ENTRY_BYTES:
            raise ModuleError(
                f"{self.path.name}: entry {name} is too large ({info.file_size} bytes)"
            )
        try:
            return self._zip.read(name)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError) as exc:
            raise ModuleError(f"{self.path.name}: entry {name} is corrupt or truncated") from exc

    def read_xml(self, name: str) -> ET.Element:
        """Parse one entry as XML.

        Raises:
            ModuleError: the entry cannot be read or is not well-formed XML.
        """
        data = self.read(name)
        try:
            return ET.fromstring(data)
        except ET.ParseError as exc:
            raise ModuleError(f"{self.path.name}: {name} is not well-formed XML ({exc})") from exc

    def module_data(self, name: str = "moduledata") -> ModuleData:
        """The header entry, or an empty one when the archive has none or it is unreadable."""
        if name not in self.names:
            return ModuleData()
        try:
            root = self.read_xml(name)
        except ModuleError:
            return ModuleData()
        return ModuleData(
            name=_first_text(root, "name"),
            version=_first_text(root, "version"),
            vassal_version=_first_text(root, "VassalVersion"),
            description=_first_text(root, "description"),
            date_saved=_first_text(root, "dateSaved"),
        )


def _first_text(root: ET.Element, tag: str) -> str:
    """The text of the first ``tag`` child without a ``lang`` attribute (the default language)."""
    for element in root.findall(tag):
        if "lang" not in element.attrib:
            return (element.text or "").strip()
    return ""
