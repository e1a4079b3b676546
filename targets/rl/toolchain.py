"""Locate the ``rlc`` compiler installed by ``rl_language_core`` and its standard library.

The user never has to edit ``PATH``: the executable is looked for next to the running
interpreter, in the install scheme's ``scripts`` directories, in the files the
``rl_language_core`` distribution installed, and only then on ``PATH`` (where a
pyenv shim or a virtualenv's ``bin`` would be found).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path

from rulebook2game.errors import CompileError

DISTRIBUTION = "rl_language_core"
"""The PyPI distribution that ships the native ``rlc``."""

_INSTALL_HINT = f"install it with `pip install {DISTRIBUTION}`"


class ToolchainError(CompileError):
    """``rlc`` or its standard library cannot be found or cannot run."""


@dataclass(frozen=True)
class Toolchain:
    """Where ``rlc`` and its standard library are."""

    rlc: Path
    """The ``rlc`` executable."""
    stdlib: Path
    """``<prefix>/lib/rlc/stdlib`` (holds ``learn.rl``, ``action.rl``, ...)."""
    version: str
    """Version of the ``rl_language_core`` distribution (``unknown`` if not installed as one)."""

    @property
    def learn_rl(self) -> Path:
        """The stdlib file that instantiates what the Python wrapper needs."""
        return self.stdlib / "learn.rl"


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _distribution_files() -> Iterator[Path]:
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return
    for entry in dist.files or ():
        if entry.name == "rlc" and entry.parent.name == "bin":
            yield Path(str(dist.locate_file(entry))).resolve()


def _scheme_script_dirs() -> Iterator[Path]:
    yield Path(sysconfig.get_path("scripts"))
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        yield Path(sysconfig.get_path("scripts", user_scheme))


def candidate_paths() -> Iterator[Path]:
    """Places ``rlc`` may be, in the order they are tried."""
    yield Path(sys.executable).parent / "rlc"
    for folder in _scheme_script_dirs():
        yield folder / "rlc"
    yield from _distribution_files()
    on_path = shutil.which("rlc")
    if on_path:
        yield Path(on_path)


def _stdlib_for(rlc: Path) -> Path | None:
    for base in (rlc, rlc.resolve()):
        stdlib = base.parent.parent / "lib" / "rlc" / "stdlib"
        if (stdlib / "learn.rl").is_file():
            return stdlib
    return None


def _version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=1)
def find_toolchain() -> Toolchain:
    """The first ``rlc`` that has a standard library next to it.

    Raises:
        ToolchainError: no usable ``rlc`` was found, or the system linker it needs is missing.
    """
    if shutil.which("ld") is None:
        # rlc links every engine with the system linker; without it each compile fails
        # with a message about a missing program that does not say what to install.
        raise ToolchainError(
            "rlc needs the system linker `ld` and libc's development files: install binutils "
            "and libc6-dev (scripts/setup.sh does this when run as root)"
        )
    seen: set[Path] = set()
    for path in candidate_paths():
        if path in seen or not _is_executable(path):
            continue
        seen.add(path)
        stdlib = _stdlib_for(path)
        if stdlib is not None:
            return Toolchain(rlc=path, stdlib=stdlib, version=_version())
    if seen:
        found = ", ".join(str(p) for p in sorted(seen))
        raise ToolchainError(
            f"found rlc ({found}) but no lib/rlc/stdlib next to it; {_INSTALL_HINT}"
        )
    raise ToolchainError(f"the rl compiler `rlc` is not installed; {_INSTALL_HINT}")


@cache
def accepts_option(rlc: Path, option: str) -> bool:
    """Whether ``rlc`` takes a command-line option such as an LLVM tuning option.

    rlc passes the options of the LLVM it links to LLVM's own parser, so which of them
    it knows may change from one ``rl_language_core`` release to the next; one that it
    does not know fails every compile. Asked once per option (about 20 ms).
    """
    try:
        done = subprocess.run(
            [str(rlc), option, "--print-options"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "Unknown command line argument" not in done.stdout + done.stderr
