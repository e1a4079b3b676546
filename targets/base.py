"""The target plug-in interface: what the pipeline may ask of a target language.

A target (``rl``, ``rulepage``) is a folder of ``targets/`` with a module ``target.py``
whose ``TARGET`` object satisfies :class:`Target`. Checks, agent tools, diff, regress,
eval and bench reach a target only through this interface and the registry in
:mod:`rulebook2game.targets`:

- ``compile(ws, optimized=...)``: the workspace's pages -> a build, or diagnostics at
  the user's page and line (never only at a generated file); builds are cached by a
  hash of what went into them.
- ``check_syntax(ws)``: a fast front-end check without building (mutant screening).
- ``start_engine(build, ...)``: an :class:`~rulebook2game.engine.Engine` on a build,
  running generated code in the sandboxed worker.
- ``reference``: the language notes the model reads; ``page_suffix`` and the shared
  ``# page:`` header rules (:mod:`rulebook2game.page_header`) describe a page file.
- ``mutation_operators``: extra mutation operators for the target's own syntax.
- ``coverage_build(ws)``: a checked build whose statements report that they ran, with
  the page line of each probe (the ``lines`` stage and the narrowing of findings,
  :mod:`rulebook2game.check.lines`), started with ``start_engine`` like any build.

:func:`compile_and_start` is the one place that compiles a game directory and starts
its engine. :class:`PlayoutRng` reproduces the random choices of the native playout
loop of the shared runtime (``targets/rl/runtime/r2g_runtime.rl``), which every target
that lowers to rl links, so a fuzz batch can be replayed step by step whatever the target.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets.rl.playout_rng import PlayoutRng

__all__ = [
    "CoverageBuild",
    "MutationOperator",
    "PlayoutRng",
    "Started",
    "Target",
    "TargetBuild",
    "TargetCompile",
    "TargetDiagnostic",
    "compile_and_start",
    "compiled_line",
]

if TYPE_CHECKING:
    from rulebook2game.engine import Engine
    from rulebook2game.mutate.operators import Edit
    from rulebook2game.mutate.source import PageSource
    from rulebook2game.workspace import Workspace

    MutationOperator = Callable[[PageSource, frozenset[str]], Iterator[Edit]]
else:
    MutationOperator = Callable[..., Iterator[Any]]


def compiled_line(flavour: str, cached: bool, seconds: float) -> str:
    """The summary of a compile that succeeded. A reused build says why it is not new:
    a build of exactly these pages was already made (by this command or another), so
    pages that were edited and then put back, or built by ``check`` before, compile in
    no time without being stale."""
    if cached:
        return (
            f"compiled ({flavour}; these exact pages were built before: reused) in {seconds:.2f} s"
        )
    return f"compiled ({flavour}) in {seconds:.2f} s"


class TargetDiagnostic(Protocol):
    """One compile error at a page file, line and column (rendered like gcc's)."""

    @property
    def file(self) -> str:
        """Workspace-relative file (``pages/board.rl``)."""
        ...

    @property
    def line(self) -> int:
        """1-based line; 0 when the message has no line."""
        ...

    @property
    def message(self) -> str:
        """The message without location."""
        ...

    @property
    def location(self) -> str:
        """``file:line:column`` (just ``file`` without a line)."""
        ...


class TargetBuild(Protocol):
    """A compiled game (opaque to the pipeline beyond where it lives)."""

    @property
    def directory(self) -> Path:
        """The build folder inside the game's ``build/``."""
        ...

    @property
    def optimized(self) -> bool:
        """True for the fast build without runtime checks."""
        ...


class TargetCompile(Protocol):
    """The outcome of one compile: a build, or the diagnostics that prevented it."""

    @property
    def ok(self) -> bool:
        """Whether a build came out."""
        ...

    @property
    def build(self) -> TargetBuild | None:
        """The build, when ``ok``."""
        ...

    @property
    def diagnostics(self) -> tuple[TargetDiagnostic, ...]:
        """The errors, when not ``ok`` (maybe not all of them: see ``Target.one_error_note``)."""
        ...

    @property
    def seconds(self) -> float:
        """Time the compile took."""
        ...

    @property
    def cached(self) -> bool:
        """True when an identical earlier build was reused."""
        ...

    @property
    def complete(self) -> bool:
        """Whether ``diagnostics`` lists every error (else ``Target.one_error_note`` applies)."""
        ...

    def summary(self) -> str:
        """One line: how it compiled, or the first error."""
        ...


@dataclass(frozen=True)
class CoverageBuild:
    """A coverage build of a game's pages (see :meth:`Target.coverage_build`)."""

    build: Any
    """The target's own build (what ``start_engine`` takes), compiled with probes."""
    lines: tuple[tuple[str, int], ...]
    """Per probe id, the page file and line it stands for (``("", 0)``: a probe in code
    the target generated that no page line stands for)."""


class Target(Protocol):
    """A target language behind the pipeline (see the module docstring)."""

    @property
    def name(self) -> str:
        """The name written in ``game.toml``'s ``target``."""
        ...

    @property
    def page_suffix(self) -> str:
        """Suffix of a page file in ``pages/`` (``.rl``)."""
        ...

    @property
    def reference(self) -> Path:
        """The language notes the model reads (markdown)."""
        ...

    @property
    def one_error_note(self) -> str | None:
        """Said after a failed compile when the errors listed may not be all of them."""
        ...

    @property
    def mutation_operators(self) -> tuple[tuple[str, MutationOperator], ...]:
        """Mutation operators for this target's own constructs, added to the common ones."""
        ...

    @property
    def presentation(self) -> frozenset[str]:
        """Definitions or block clauses that only draw the state (never mutated)."""
        ...

    def compile(self, ws: Workspace, *, optimized: bool = False) -> TargetCompile:
        """Compile ``ws``'s pages (checked build unless ``optimized``), reusing a cached build."""
        ...

    def check_syntax(self, ws: Workspace) -> TargetCompile:
        """Check the pages without building a library (fast; ``build`` is ``None``)."""
        ...

    def native_wrapper(self, build: Any) -> Path:
        """The Python wrapper of ``build``'s native library, for in-process play.

        Only :func:`rulebook2game.load` uses it, and only for a build whose checked twin
        passed ``check`` (or on the caller's explicit trust).
        """
        ...

    def coverage_build(self, ws: Workspace) -> CoverageBuild | str:
        """The coverage build of ``ws``'s pages (a checked build, cached like the others),
        or one line saying why there is none (a target without one, a failed compile)."""
        ...

    def start_engine(
        self, build: Any, *, game: str, request_timeout: float | None = None
    ) -> Engine[Any]:
        """An engine on ``build`` (from this target's ``compile``) in the sandboxed worker.

        ``request_timeout`` bounds the CPU seconds of one request (default: the
        worker's own limits).

        Raises:
            WorkerError: the worker could not start or load the build.
        """
        ...


@dataclass
class Started:
    """A compiled and started engine, or why there is none; ``close()`` stops its worker."""

    engine: Engine[Any] | None
    error: str | None
    """One line when there is no engine (compile failure or a worker that did not start)."""
    compiled: TargetCompile | None = None
    """The compile outcome (``None`` when the target is unknown)."""
    seconds: float = 0.0

    @property
    def compile_failed(self) -> bool:
        """True when the pages did not compile (``compiled.diagnostics`` says why)."""
        return self.compiled is not None and not self.compiled.ok

    def close(self) -> None:
        """Stop the engine's worker, if it has one."""
        closer = getattr(self.engine, "close", None)
        if callable(closer):
            closer()
        self.engine = None

    def __enter__(self) -> Started:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def compile_and_start(
    ws: Workspace, *, optimized: bool = False, request_timeout: float | None = None
) -> Started:
    """Compile ``ws`` with its target (checked build unless ``optimized``) and start an engine.

    Never raises for the pages' faults: an unknown target, a failed compile and a worker
    that does not start come back as ``error``. A broken ``game.toml`` raises
    :class:`~rulebook2game.errors.WorkspaceError`.
    """
    from rulebook2game.targets import get_target

    config = ws.config()
    try:
        target = get_target(config.target)
    except Rulebook2GameError as exc:
        return Started(None, str(exc))
    result = target.compile(ws, optimized=optimized)
    if result.build is None:
        return Started(None, result.summary(), result, result.seconds)
    try:
        engine = target.start_engine(
            result.build, game=config.name, request_timeout=request_timeout
        )
    except Rulebook2GameError as exc:
        return Started(None, f"engine did not start: {exc}", result, result.seconds)
    return Started(engine, None, result, result.seconds)
