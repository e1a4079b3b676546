"""Compile a workspace's rule pages with ``rlc`` into ``GAME_DIR/build/``.

Two flavours of build:

- **checked** (no ``-O2``): preconditions and array bounds are enforced; a violated
  one aborts with ``pages/x.rl:LINE:COL error: ...``. Checks run on this build.
- **optimized** (``-O2``): no checks, for speed (benchmarks, long fuzz runs).

Each build lives in ``build/rl-<checked|optimized>-<hash>/`` (``wrapper.py``,
``lib.so``, ``build.json``, ``resume_points.json``, ``src/``); the hash covers the pages,
``interface.toml``, the runtime support files, the compiler version and the flags, so an
unchanged workspace reuses its build. Builds are made in a temporary folder inside
``build/`` and renamed into place when complete; ``build/`` keeps the newest
:data:`KEEP_BUILDS` builds of each flavour. A build that fails is kept for inspection as
``build/rl-<flavour>-failed/`` (the pages as rlc saw them, whatever rlc wrote, and
``failure.txt``), replacing the previous failed one.
``resume_points.json`` maps each action to the point where the game resumes with it
(read from rlc's expanded program, see :mod:`rulebook2game.targets.rl.resume_points`),
so the native playout loop tests only the actions that can follow.

``rlc`` compiles a copy of the pages (``src/pages/`` of the build folder) in which
identifiers its generated Python wrapper cannot hold (``raise``, ``from``, ...) are
renamed; see :mod:`rulebook2game.targets.rl.names`. Messages are mapped back, so pages,
traces and diagnostics only ever show the names as written.

``rlc`` reports one error per run, so a failed :class:`CompileResult` whose errors come
from rlc says that the list is not complete; the target's own checks (hooks, shadowed
names, the interface contract) report every error they find.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, replace
from pathlib import Path

from rulebook2game.errors import BadWorkspaceError, CompileError
from rulebook2game.targets.base import compiled_line
from rulebook2game.targets.rl import typed_step
from rulebook2game.targets.rl.contract import interface_diagnostics
from rulebook2game.targets.rl.coverage import PROBES_FILE, add_probes
from rulebook2game.targets.rl.diagnostics import (
    ONE_ERROR_NOTE,
    Diagnostic,
    Remark,
    page_diagnostic,
    parse_diagnostics,
)
from rulebook2game.targets.rl.names import MangledSource, mangle_source, unmangle_text
from rulebook2game.targets.rl.pages import (
    action_text_diagnostics,
    check_hooks,
    enumeration_diagnostics,
    find_play_page,
    undefined_symbol_diagnostic,
)
from rulebook2game.targets.rl.playout_rng import MAX_POINTS
from rulebook2game.targets.rl.resume_points import DUMP_FLAGS, RESUME_FILE, parse_resume_points
from rulebook2game.targets.rl.scopes import shadowing_diagnostics
from rulebook2game.targets.rl.toolchain import (
    Toolchain,
    ToolchainError,
    accepts_option,
    find_toolchain,
)
from rulebook2game.targets.rl.traps import trap_diagnostics
from rulebook2game.targets.rl.typed_step import TYPED_STEP_FILE, typed_step_source
from rulebook2game.workspace import Workspace

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
RUNTIME_FILES = ("r2g_runtime.rl", "r2g_play.rl")
"""Support code compiled with every game: action tables and the native playout loop."""

CHECKED_FLAGS = ("--emit-bound-checks", "--emit-precondition-checks")
OPTIMIZED_FLAGS = ("-O2",)
INLINE_FLAGS = ("--inline-threshold=4000",)
"""LLVM's inlining budget for the optimized build (LLVM's own is 225). With it, the
game's actions are inlined into the loop's step and the step into the playout loop,
which then keeps the game, the generator and the table in registers: rl Hearts ran
1.40x as many playouts a second, RulePage Hearts 1.2x, Pig 1.5-1.65x, the other
corpus games 1.1-1.2x, for a compile about 2.5-4x as long (Hearts 3.6 s -> 16 s);
see evals/reports/2026-11-29-inline-budget.md. Left out for an rlc that does not know
the option, and for pages over ``INLINE_MAX_SOURCE``."""
INLINE_MAX_SOURCE = 128 * 1024
"""Bytes of rl above which the optimized build keeps LLVM's inlining budget: compile
time grows with the code inlined, and RBG chess (509 KiB of generated rl) took 97 s
instead of 30 s with it. Every hand-written and RulePage game of the corpora is under
25 KiB."""
KEEP_BUILDS = 3
"""Builds of each flavour (checked, optimized) kept in ``build/``, the current one included."""
STALE_SECONDS = 3600.0
"""Unfinished temporary folders in ``build/`` older than this are removed."""
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
    rlc_stopped: bool = False
    """The errors come from an rlc run, which stops at its first error."""

    @property
    def complete(self) -> bool:
        """Whether ``diagnostics`` lists every error (not when rlc stopped at one)."""
        return self.ok or not self.rlc_stopped

    @property
    def note(self) -> str:
        """What to know about the list of errors (empty when it is complete)."""
        return "" if self.complete else ONE_ERROR_NOTE

    def summary(self) -> str:
        """One line: ``ok`` or the first error's location and message."""
        if self.ok:
            flavour = "optimized" if self.optimized else "checked"
            return compiled_line(flavour, self.cached, self.seconds)
        if not self.diagnostics:
            return "compile failed"
        first = self.diagnostics[0]
        return f"{first.location}: {first.message}"

    def report(self) -> str:
        """Every diagnostic, rendered, then :attr:`note` when rlc stopped at the first."""
        if self.ok:
            return self.summary()
        parts = [str(d) for d in self.diagnostics] or ["compile failed"]
        return "\n".join([*parts, f"({self.note})"] if self.note else parts)

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
        note = f" ({result.note})" if result.note else ""
        super().__init__(f"{result.summary()}{note}")


def compile_workspace(
    ws: Workspace,
    optimized: bool = False,
    *,
    coverage: bool = False,
    slot_draw: Path | None = None,
) -> CompileResult:
    """Compile ``ws``'s pages (checked build unless ``optimized``), reusing a cached build.

    ``coverage``: a checked build whose statements report that they ran
    (see :mod:`rulebook2game.targets.rl.coverage`), in ``build/rl-coverage-<hash>/``.
    ``slot_draw``: rl that a target wrote from the pages it lowered, the game's own
    playout steps, each a draw among its candidate slots (``R2GSlotPlay`` in the
    runtime). It names the runtime, so it is compiled into the library only, not
    type-checked with the pages alone; and only when the resume points show every action
    waiting at one point, the one place where the loop may call it. Like the typed step,
    steps rlc refuses are left out and the library built without them: the loop then
    draws the same moves its generic way.
    """
    started = time.perf_counter()
    ws = Workspace(ws.root.resolve())
    tools = find_toolchain()
    pages = ws.pages()
    problem = _pre_check(ws, pages)
    if isinstance(problem, Diagnostic):
        return CompileResult(False, optimized, (problem,), seconds=time.perf_counter() - started)
    play_page = problem
    flags = optimized_flags(tools, pages) if optimized else CHECKED_FLAGS
    flavour = f"rl-{'optimized' if optimized else 'checked'}"
    if coverage:
        flags, flavour = CHECKED_FLAGS, "rl-coverage"
    key = _build_key(
        tools,
        [*pages, *([slot_draw] if slot_draw else [])],
        (*flags, *(("coverage",) if coverage else ())),
        ws.root / "interface.toml",
    )
    final = ws.build_dir / f"{flavour}-{key}"
    build = RlBuild(final, optimized, play_page)
    if (final / "build.json").is_file():
        _touch(final)
        _prune(ws.build_dir, final)
        return CompileResult(True, optimized, (), build, time.perf_counter() - started, True)
    ws.build_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=ws.build_dir))
    try:
        diagnostics = _build_into(ws, tools, pages, flags, work, coverage, slot_draw)
        if diagnostics:
            kept = ws.build_dir / f"{flavour}-failed"
            stopped = isinstance(diagnostics, _RlcStopped)
            diagnostics = [_point_at(d, kept, ws.root) for d in diagnostics]
            _keep_failed(work, kept, diagnostics)
            return CompileResult(
                False,
                optimized,
                tuple(diagnostics),
                seconds=time.perf_counter() - started,
                rlc_stopped=stopped,
            )
        _write_json(work / "build.json", {"play_page": play_page, "flags": list(flags), "key": key})
        _install(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(ws.build_dir / f"{flavour}-failed", ignore_errors=True)
    _prune(ws.build_dir, final)
    return CompileResult(True, optimized, (), build, time.perf_counter() - started)


def optimized_flags(tools: Toolchain, pages: list[Path]) -> tuple[str, ...]:
    """``-O2``, with the larger inlining budget when rlc knows it and the pages are small."""
    if sum(page.stat().st_size for page in pages) > INLINE_MAX_SOURCE:
        return OPTIMIZED_FLAGS
    known = tuple(flag for flag in INLINE_FLAGS if accepts_option(tools.rlc, flag))
    return (*OPTIMIZED_FLAGS, *known)


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
        diagnostics = _type_check(ws, tools, pages, work, _stage_pages(ws, pages, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return CompileResult(
        not diagnostics,
        False,
        tuple(diagnostics),
        seconds=time.perf_counter() - started,
        rlc_stopped=isinstance(diagnostics, _RlcStopped),
    )


def _pre_check(ws: Workspace, pages: list[Path]) -> Diagnostic | str:
    """The play page's name, or a diagnostic when pages are missing or ambiguous."""
    if not pages:
        return page_diagnostic(
            ws.root, ws.pages_dir, 0, "no rule pages: write at least one pages/NAME.rl"
        )
    return find_play_page(ws.root, pages)


STAGING_VERSION = 1
"""Changes when :func:`_stage_pages` changes how it rewrites pages (a new build key)."""
SOURCE_DIR = "src"
"""Folder of a build holding the pages as ``rlc`` compiles them (names renamed)."""


def _stage_pages(ws: Workspace, pages: list[Path], work: Path) -> dict[str, MangledSource]:
    """Write the pages, with unsafe identifiers renamed, under ``work/src/pages/``."""
    staged: dict[str, MangledSource] = {}
    for page in pages:
        relative = page.relative_to(ws.root).as_posix()
        text = page.read_text(encoding="utf-8", errors="replace")
        source = mangle_source(_blank_comment_lines(text))
        target = work / SOURCE_DIR / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(source.text, encoding="utf-8")
        staged[relative] = source
    return staged


def _blank_comment_lines(text: str) -> str:
    """Empty every line that holds only a comment (line numbers stay the same).

    rlc rejects a comment line where it expects a particular token: as the first line
    of an ``actions:`` block, or between an ``if`` block and its ``else``."""
    lines = text.split("\n")
    return "\n".join("" if line.lstrip().startswith("#") else line for line in lines)


class _RlcStopped(list[Diagnostic]):
    """Diagnostics from an rlc run that failed: rlc stops at its first error."""


def _diagnostics(output: str, ws: Workspace, staged: dict[str, MangledSource]) -> list[Diagnostic]:
    """rlc's messages about the staged pages, as messages about the pages themselves."""
    found = parse_diagnostics(output, ws.root) or [_raw_failure(output)]
    return _RlcStopped(_restore(d, staged) for d in found)


def _restore(diagnostic: Diagnostic, staged: dict[str, MangledSource]) -> Diagnostic:
    source = staged.get(diagnostic.file)
    column = diagnostic.column
    if source is not None:
        column = source.original_column(diagnostic.line, column)
    remarks = tuple(
        Remark(r.file, r.line, r.column, unmangle_text(r.message)) for r in diagnostic.remarks
    )
    return replace(
        diagnostic, column=column, message=unmangle_text(diagnostic.message), remarks=remarks
    )


def _build_into(
    ws: Workspace,
    tools: Toolchain,
    pages: list[Path],
    flags: tuple[str, ...],
    work: Path,
    coverage: bool = False,
    slot_draw: Path | None = None,
) -> list[Diagnostic]:
    """Type-check, check hooks, then write wrapper and library into ``work``."""
    staged = _stage_pages(ws, pages, work)
    diagnostics = _type_check(ws, tools, pages, work, staged)
    if diagnostics:
        return diagnostics
    sources = [*_page_args(ws, pages), *(str(RUNTIME_DIR / f) for f in RUNTIME_FILES)]
    sources.append(str(tools.learn_rl))
    if coverage:
        sources.extend(add_probes(work, _page_args(ws, pages), work / SOURCE_DIR))
    include = ["-i", "pages", "-i", str(RUNTIME_DIR)]
    wrapper_cmd = [str(tools.rlc), *sources, "--python", "-o", f"../{WRAPPER_NAME}", *include]
    dump_cmd = [str(tools.rlc), *sources, *DUMP_FLAGS, *include]
    # the wrapper and the resume points first: the loop's typed step is written from them
    (wrapper_code, wrapper_output), (code, dump) = _run_parallel(
        work / SOURCE_DIR, [wrapper_cmd, dump_cmd]
    )
    if wrapper_code != 0:
        return _diagnostics(wrapper_output, ws, staged)
    points = parse_resume_points(dump) if code == 0 else None
    _write_json(work / RESUME_FILE, {"points": points})
    typed = typed_step_source((work / WRAPPER_NAME).read_text(encoding="utf-8"), points, MAX_POINTS)
    if typed is not None:
        (work / SOURCE_DIR / TYPED_STEP_FILE).write_text(typed, encoding="utf-8")
    extra = []
    if slot_draw is not None and points is not None and len(set(points.values())) == 1:
        extra.append(str(slot_draw))
    if typed is not None:
        extra.append(TYPED_STEP_FILE)
    lib_cmd = [str(tools.rlc), *sources, *extra, "--shared", "--pylib", "-o", f"../{LIB_NAME}"]
    ((code, output),) = _run_parallel(work / SOURCE_DIR, [[*lib_cmd, *flags, *include]])
    if code != 0 and any(Path(name).name in output for name in extra):
        # loop support written by a target or this module that rlc refuses is no fault
        # of the pages: the generic loop draws the same moves
        if typed is not None:
            (work / SOURCE_DIR / TYPED_STEP_FILE).unlink()
        lib_cmd = [str(tools.rlc), *sources, "--shared", "--pylib", "-o", f"../{LIB_NAME}"]
        ((code, output),) = _run_parallel(work / SOURCE_DIR, [[*lib_cmd, *flags, *include]])
    if code != 0:
        return _diagnostics(output, ws, staged)
    _add_header(work / WRAPPER_NAME, [wrapper_cmd, [*lib_cmd, *flags, *include]])
    found, texts = _check_library(work / LIB_NAME, work / WRAPPER_NAME, ws.root, pages)
    if found:
        return found
    try:
        interface = ws.interface()
    except BadWorkspaceError as exc:
        return [Diagnostic("interface.toml", 0, 0, str(exc))]
    if interface is None:
        return []
    return interface_diagnostics(ws.root, pages, interface, texts)


IMPLICIT_IMPORTS = (
    "action",
    "bounded_arg",
    "collections.vector",
    "serialization.print",
    "serialization.to_byte_vector",
    "string",
    "math.numeric",
    "enum_utils",
    "algorithms.equal",
)
"""Standard modules that ``learn.rl`` and the runtime import: every page sees them."""


def _add_header(wrapper: Path, commands: list[list[str]]) -> None:
    """Say at the top of the generated wrapper how it was built and what was added."""
    shown = "\n".join(f"#   {shlex.join(cmd)}" for cmd in commands)
    imports = textwrap.fill(", ".join(IMPLICIT_IMPORTS), 86, initial_indent="#   ")
    imports = imports.replace("\n", "\n#   ")
    header = f"""\
# Generated by rlc for rulebook2game; do not edit. Built in src/ (beside this file) with:
{shown}
# Besides the pages, every compile includes rlc's learn.rl and the target's runtime, and
# rl makes what they import visible to every page:
{imports}
# so a page that uses BInt compiles here without `import bounded_arg`, while plain
# `rlc pages/x.rl` needs the import. Identifiers that Python cannot hold are renamed
# r2g_kw_<name> in src/pages (see rulebook2game.targets.rl.names).
"""
    wrapper.write_text(header + wrapper.read_text(encoding="utf-8"), encoding="utf-8")


def _type_check(
    ws: Workspace,
    tools: Toolchain,
    pages: list[Path],
    work: Path,
    staged: dict[str, MangledSource],
) -> list[Diagnostic]:
    """rlc's front end on the pages alone, then names that shadow others, then the hooks."""
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
    code, output = _run_parallel(work / SOURCE_DIR, [cmd])[0]
    if code != 0:
        return _diagnostics(output, ws, staged)
    shadows = shadowing_diagnostics(ws.root, pages)
    if shadows:
        return shadows
    traps = trap_diagnostics(ws.root, pages)
    if traps:
        return traps
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


def _check_library(
    library: Path, wrapper: Path, root: Path, pages: list[Path]
) -> tuple[list[Diagnostic], list[str]]:
    """Problems with the built library, else none and the text of every action.

    rlc can exit 0 and leave no usable library (an ``ext fun`` nobody defines), or a
    game whose actions cannot be enumerated (an ``Int`` argument)."""
    for path in (library, wrapper):
        if not path.is_file() or path.stat().st_size == 0:
            return [Diagnostic("rlc", 0, 0, f"rlc reported success but wrote no {path.name}")], []
    probe = subprocess.run(
        [sys.executable, "-c", _LOAD_PROBE, str(wrapper)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=wrapper.parent,
    )
    stdout, stderr = unmangle_text(probe.stdout), unmangle_text(probe.stderr)
    if probe.returncode == 0:
        texts = [
            line[len("action: ") :] for line in stdout.splitlines() if line.startswith("action: ")
        ]
        return action_text_diagnostics(root, pages, stdout), texts
    if probe.returncode == _ENUMERATION_PROBLEM:
        return enumeration_diagnostics(root, pages, stdout), []
    return [undefined_symbol_diagnostic(root, pages, stderr)], []


def _point_at(diagnostic: Diagnostic, kept: Path, root: Path) -> Diagnostic:
    """A failure of the build itself names the folder where the failed build is kept."""
    if diagnostic.file != "rlc" and "does not load" not in diagnostic.message:
        return diagnostic
    where = kept.relative_to(root).as_posix()
    return replace(diagnostic, message=f"{diagnostic.message} (the build is kept in {where}/)")


def _keep_failed(work: Path, kept: Path, diagnostics: list[Diagnostic]) -> None:
    """Keep a failed build's folder for inspection, replacing the previous failed one."""
    report = "\n".join(str(d) for d in diagnostics)
    (work / "failure.txt").write_text(report + "\n", encoding="utf-8")
    shutil.rmtree(kept, ignore_errors=True)
    with contextlib.suppress(OSError):
        os.rename(work, kept)


def _build_key(tools: Toolchain, pages: list[Path], flags: tuple[str, ...], interface: Path) -> str:
    """Hash of everything a build depends on; ``interface.toml`` is in it because the
    build is checked against it."""
    digest = hashlib.sha256()
    if interface.is_file():
        digest.update(b"interface\n" + interface.read_bytes())
    digest.update(f"rlc {tools.version} {tools.rlc}\n{' '.join(flags)}\n".encode())
    digest.update(f"staged {STAGING_VERSION}\n".encode())
    for page in pages:
        digest.update(f"page {page.name}\n".encode())
        digest.update(page.read_bytes())
    for name in RUNTIME_FILES:
        digest.update(f"runtime {name}\n".encode())
        digest.update((RUNTIME_DIR / name).read_bytes())
    digest.update(b"typed step\n" + Path(typed_step.__file__).read_bytes())
    return digest.hexdigest()[:16]


def _write_json(path: Path, data: dict[str, object]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _install(work: Path, final: Path) -> None:
    """Move the finished build into place (another process may have won the race)."""
    staged = Path(tempfile.mkdtemp(prefix=".stage-", dir=final.parent))
    for name in (WRAPPER_NAME, LIB_NAME, "build.json", RESUME_FILE, SOURCE_DIR, PROBES_FILE):
        if name in (PROBES_FILE, RESUME_FILE) and not (work / name).exists():
            continue
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
    """Keep the newest :data:`KEEP_BUILDS` builds of ``keep``'s flavour (``keep`` among
    them) and remove temporary folders that an interrupted compile left behind."""
    flavour = keep.name.rsplit("-", 1)[0]
    others = [
        p
        for p in build_dir.glob(f"{flavour}-*")
        if p.is_dir() and p != keep and p.name != f"{flavour}-failed"
    ]
    others.sort(key=_mtime, reverse=True)
    for old in others[KEEP_BUILDS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)
    now = time.time()
    for pattern in (".tmp-*", ".stage-*"):
        for leftover in build_dir.glob(pattern):
            if now - _mtime(leftover) > STALE_SECONDS:
                shutil.rmtree(leftover, ignore_errors=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
