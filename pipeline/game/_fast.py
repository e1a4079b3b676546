"""The per-step call as a small C extension, built on first use, with ctypes as fallback.

A ctypes call costs about as much as a whole step of a small game, and turning the io
buffer into a list of legal ids costs as much again. ``_fast_step.c`` (shipped beside
this module) does both in C: it calls the build's ``r2g_step_io`` through its address
and returns the legal ids as a list. It is compiled once per Python version with the
system C compiler (the one ``rlc`` links with) into the user's cache folder
(``$XDG_CACHE_HOME/rulebook2game``, else ``~/.cache/rulebook2game``). Where it cannot be
built (no compiler, no Python headers, an unwritable cache), or with
``RULEBOOK2GAME_NO_FAST_STEP=1`` set, the same step runs through ctypes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

SOURCE = Path(__file__).with_name("_fast_step.c")
DISABLE = "RULEBOOK2GAME_NO_FAST_STEP"
"""Set (to anything but empty) to step through ctypes only."""

FastStep = Callable[[int, int, int, int, int, tuple[int, ...], int, int], "list[int] | None"]


@functools.cache
def fast_step() -> FastStep | None:
    """The extension's ``step(function, all, candidates, io, words, ids, game, action)``, or
    None where it cannot be built or is disabled (see the module docstring)."""
    if os.environ.get(DISABLE):
        return None
    try:
        return _load()
    except (OSError, ImportError, subprocess.SubprocessError):
        return None


def _cache_dir() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "rulebook2game"


def _load() -> FastStep:
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    include = Path(sysconfig.get_paths()["include"])
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + sys.version.encode() + suffix.encode()).hexdigest()[:16]
    target = _cache_dir() / f"fast-step-{key}" / f"_r2g_fast_step{suffix}"
    if not target.is_file():
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None or not (include / "Python.h").is_file():
            raise OSError("no C compiler or no Python headers")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{os.getpid()}{suffix}")
        command = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(SOURCE), "-o"]
        subprocess.run([*command, str(partial)], check=True, capture_output=True, timeout=120)
        os.replace(partial, target)
    spec = importlib.util.spec_from_file_location("_r2g_fast_step", target)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {target}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    step: FastStep = module.step
    return step
