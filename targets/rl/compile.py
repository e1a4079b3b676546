"""Compile a workspace's rule pages with ``rlc`` into ``GAME_DIR/build/``.

Two flavours of build:

- **checked** (no ``-O2``): preconditions and array bounds are enforced; a violated
  one aborts with ``pages/x.rl:LINE:COL error: ...``. Checks run on this build.
- **optimized** (``-O2``): no checks, for speed (benchmarks, long fuzz runs).

Each build lives in ``build/rl-<checked|optimized>-<hash>/`` (``wrapper.py``,
``lib.so``, ``build.json``); the hash covers the pages, the runtime support files, the
compiler version and the flags, so an unchanged workspace reuses its build. Builds are
made in a temporary folder inside ``build/`` and renamed into place when complete.

``rlc`` reports one error per run, so a failed :class:`CompileResult` carries the
errors rlc gave (usually one) and says that the list is not complete.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rulebook2game.errors import CompileError
from rulebook2game.targets.rl.diagnostics import (
    ONE_ERROR_NOTE,
    Diagnostic,
    page_diagnostic,
    parse_diagnostics,
)
from rulebook2game.targets.rl.pages import (
    action_text_diagnostics,
    check_hooks,
    enumeration_diagnostics,
    find_play_page,
    undefined_symbol_diagnostic,
)
from rulebook2game.targets.rl.toolchain import Toolchain, ToolchainError, find_toolchain
from rulebook2game.workspace import Workspace

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
RUNTIME_FILES = ("r2g_runtime.rl",)
"""Support code compiled with every game: action tables and the native playout loop."""

CHECKED_FLAGS = ("--emit-bound-checks", "--emit-precondition-checks")
OPTIMIZED_FLAGS = ("-O2",)
KEEP_BUILDS = 3
"""Older builds of the same flavour kept next to the current one."""
RLC_TIMEOUT = 300.0
LIB_NAME = "lib.so"
WRAPPER_NAME = "wrapper.py"


@dataclass(frozen=True)
class RlBuild:
    """A compiled game: the ``rlc`` Python wrapper and the shared library it loads."""

    directory: Path
    optimized: bool
    play_page: str
    """Name of the page that defines ``act play() -> Game``."""

    @property
    def wrapper(self) -> Path:
        return self.directory / WRAPPER_NAME

    @property
    def library(self) -> Path:
        return self.directory / LIB_NAME


@dataclass(frozen=True)
class CompileResult:
    """The outcome of one compile: a build, or the diagnostics that prevented it."""

    ok: bool
    optimized: bool
    diagnostics: tuple[Diagnostic, ...] = ()
    build: RlBuild | None = None
    seconds: float = 0.0
    cached: bool = False
    """True when an identical earlier build was reused."""

    @property
    def complete(self) -> bool:
        """Whether ``diagnostics`` lists every error (never, after a failed rlc run)."""
        return self.ok

    def summary(self) -> str:
        """One line: ``ok`` or the first error's location and message."""
        if self.ok:
            flavour = "optimized" if self.optimized else "checked"
            reused = ", reused" if self.cached else ""
            return f"compiled ({flavour}{reused}) in {self.seconds:.2f} s"
        if not self.diagnostics:
            return "compile failed"
        first = self.diagnostics[0]
        return f"{first.location}: {first.message}"

    def report(self) -> str:
        """Every diagnostic, rendered, followed by the note that rlc stops at the first."""
        if self.ok:
            return self.summary()
        parts = [str(d) for d in self.diagnostics] or ["compile failed"]
        return "\n".join([*parts, f"({ONE_ERROR_NOTE})"])

    def require(self) -> RlBuild:
        """The build; raise :class:`RlCompileError` when the compile failed."""
        if self.build is None:
            raise RlCompileError(self)
        return self.build


class RlCompileError(CompileError):
    """The rule pages do not compile; carries the :class:`CompileResult`."""

    def __init__(self, result: CompileResult) -> None:
        self.result = result
        self.diagnostics = result.diagnostics
        super().__init__(f"{result.summary()} ({ONE_ERROR_NOTE})")


def compile_workspace(ws: Workspace, optimized: bool = False) -> CompileResult:
    """Compile ``ws``'s pages (checked build unless ``optimized``), reusing a cached build."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    tools = find_toolchain()
    pages = ws.pages()
    problem = _pre_check(ws, pages)
    if isinstance(problem, Diagnostic):
        return CompileResult(False, optimized, (problem,), seconds=time.perf_counter() - started)
    play_page = problem
    flags = OPTIMIZED_FLAGS if optimized else CHECKED_FLAGS
    key = _build_key(tools, pages, flags)
    final = ws.build_dir / f"rl-{'optimized' if optimized else 'checked'}-{key}"
    build = RlBuild(final, optimized, play_page)
    if (final / "build.json").is_file():
        _touch(final)
        return CompileResult(True, optimized, (), build, time.perf_counter() - started, True)
    ws.build_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=ws.build_dir))
    try:
        diagnostics = _build_into(ws, tools, pages, flags, work)
        if diagnostics:
            return CompileResult(
                False, optimized, tuple(diagnostics), seconds=time.perf_counter() - started
            )
        _write_json(work / "build.json", {"play_page": play_page, "flags": list(flags), "key": key})
        _install(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _prune(ws.build_dir, final)
    return CompileResult(True, optimized, (), build, time.perf_counter() - started)


def build_directory(ws: Workspace, optimized: bool = False) -> Path:
    """Where the build of ``ws``'s pages as they are now lives (built or not yet)."""
    ws = Workspace(ws.root.resolve())
    flags = OPTIMIZED_FLAGS if optimized else CHECKED_FLAGS
    key = _build_key(find_toolchain(), ws.pages(), flags)
    return ws.build_dir / f"rl-{'optimized' if optimized else 'checked'}-{key}"


def check_syntax(ws: Workspace) -> CompileResult:
    """Type-check the pages and their hooks without building a library (~0.1 s)."""
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    tools = find_toolchain()
    pages = ws.pages()
    problem = _pre_check(ws, pages)
    if isinstance(problem, Diagnostic):
        return CompileResult(False, False, (problem,), seconds=time.perf_counter() - started)
    ws.build_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=ws.build_dir))
    try:
        diagnostics = _type_check(ws, tools, pages, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return CompileResult(
        not diagnostics, False, tuple(diagnostics), seconds=time.perf_counter() - started
    )


def _pre_check(ws: Workspace, pages: list[Path]) -> Diagnostic | str:
    """The play page's name, or a diagnostic when pages are missing or ambiguous."""
    if not pages:
        return page_diagnostic(
            ws.root, ws.pages_dir, 0, "no rule pages: write at least one pages/NAME.rl"
        )
    return find_play_page(ws.root, pages)


def _build_into(
    ws: Workspace, tools: Toolchain, pages: list[Path], flags: tuple[str, ...], work: Path
) -> list[Diagnostic]:
    """Type-check, check hooks, then write wrapper and library into ``work``."""
    diagnostics = _type_check(ws, tools, pages, work)
    if diagnostics:
        return diagnostics
    sources = [*_page_args(ws, pages), *(str(RUNTIME_DIR / f) for f in RUNTIME_FILES)]
    sources.append(str(tools.learn_rl))
    include = ["-i", "pages", "-i", str(RUNTIME_DIR)]
    wrapper_cmd = [str(tools.rlc), *sources, "--python", "-o", str(work / WRAPPER_NAME), *include]
    lib_cmd = [str(tools.rlc), *sources, "--shared", "--pylib", "-o", str(work / LIB_NAME)]
    results = _run_parallel(ws.root, [wrapper_cmd, [*lib_cmd, *flags, *include]])
    for code, output in results:
        if code != 0:
            found = parse_diagnostics(output, ws.root)
            return found or [_raw_failure(output)]
    return _check_library(work / LIB_NAME, work / WRAPPER_NAME, ws.root, pages)


def _type_check(ws: Workspace, tools: Toolchain, pages: list[Path], work: Path) -> list[Diagnostic]:
    """rlc's front end on the pages alone, then the required hooks."""
    out = work / "check.py"
    cmd = [
        str(tools.rlc),
        *_page_args(ws, pages),
        str(tools.learn_rl),
        "--python",
        "-o",
        str(out),
        "-i",
        "pages",
    ]
    code, output = _run_parallel(ws.root, [cmd])[0]
    if code != 0:
        return parse_diagnostics(output, ws.root) or [_raw_failure(output)]
    return check_hooks(ws.root, pages, out.read_text(encoding="utf-8", errors="replace"))


def _page_args(ws: Workspace, pages: list[Path]) -> list[str]:
    return [p.relative_to(ws.root).as_posix() for p in pages]


def _run_parallel(cwd: Path, commands: list[list[str]]) -> list[tuple[int, str]]:
    """Run commands concurrently; (exit code, stderr + stdout) of each."""
    procs: list[subprocess.Popen[str]] = []
    try:
        for cmd in commands:
            procs.append(
                subprocess.Popen(
                    cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                )
            )
        out: list[tuple[int, str]] = []
        for proc in procs:
            stdout, stderr = proc.communicate(timeout=RLC_TIMEOUT)
            out.append((proc.returncode, stderr + stdout))
    except FileNotFoundError as exc:
        raise ToolchainError(f"cannot run rlc: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise ToolchainError(f"rlc did not finish within {RLC_TIMEOUT:.0f} s") from exc
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for _, output in out:
        if "posix_spawn failed" in output:
            raise ToolchainError(
                "rlc could not run the linker: install binutils, libc6-dev and gcc (ld, crt1.o)"
            )
    return out


def _raw_failure(output: str) -> Diagnostic:
    lines = [line for line in output.splitlines() if line.strip()]
    text = " / ".join(lines[-3:]) if lines else "rlc failed without a message"
    return Diagnostic("rlc", 0, 0, text)


_LOAD_PROBE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("r2g_probe", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.stdout.flush()
if not module.print_enumeration_errors(module.AnyGameAction()):
    sys.exit(5)
sys.stdout.flush()
actions = module.enumerate(module.AnyGameAction())
for i in range(actions.size()):
    print("action:", str(actions.get(i).contents).strip())
"""
"""Loads the wrapper (and so the library), lists action arguments that cannot be
enumerated (exit 5) or else every action's text."""
_ENUMERATION_PROBLEM = 5


def _check_library(library: Path, wrapper: Path, root: Path, pages: list[Path]) -> list[Diagnostic]:
    """rlc can exit 0 and leave no usable library (an ``ext fun`` nobody defines), or a
    game whose actions cannot be enumerated (an ``Int`` argument)."""
    for path in (library, wrapper):
        if not path.is_file() or path.stat().st_size == 0:
            return [Diagnostic("rlc", 0, 0, f"rlc reported success but wrote no {path.name}")]
    probe = subprocess.run(
        [sys.executable, "-c", _LOAD_PROBE, str(wrapper)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=wrapper.parent,
    )
    if probe.returncode == 0:
        return action_text_diagnostics(root, pages, probe.stdout)
    if probe.returncode == _ENUMERATION_PROBLEM:
        return enumeration_diagnostics(root, pages, probe.stdout)
    return [undefined_symbol_diagnostic(root, pages, probe.stderr)]


def _build_key(tools: Toolchain, pages: list[Path], flags: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    digest.update(f"rlc {tools.version} {tools.rlc}\n{' '.join(flags)}\n".encode())
    for page in pages:
        digest.update(f"page {page.name}\n".encode())
        digest.update(page.read_bytes())
    for name in RUNTIME_FILES:
        digest.update(f"runtime {name}\n".encode())
        digest.update((RUNTIME_DIR / name).read_bytes())
    return digest.hexdigest()[:16]


def _write_json(path: Path, data: dict[str, object]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _install(work: Path, final: Path) -> None:
    """Move the finished build into place (another process may have won the race)."""
    staged = Path(tempfile.mkdtemp(prefix=".stage-", dir=final.parent))
    for name in (WRAPPER_NAME, LIB_NAME, "build.json"):
        os.replace(work / name, staged / name)
    try:
        os.rename(staged, final)
    except OSError:
        shutil.rmtree(staged, ignore_errors=True)
        if not (final / "build.json").is_file():
            raise


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)


def _prune(build_dir: Path, keep: Path) -> None:
    """Remove all but the newest few builds of the same flavour."""
    flavour = keep.name.rsplit("-", 1)[0]
    others = [p for p in build_dir.glob(f"{flavour}-*") if p.is_dir() and p != keep]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[KEEP_BUILDS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)
