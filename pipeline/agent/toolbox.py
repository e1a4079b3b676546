"""The seams between the agent and the rest of the pipeline.

The agent needs three things it does not own: the rulebook text, a compiler and the
checks. Each sits behind a one-method protocol, so the real implementations
(``rulebook2game.extract``, ``rulebook2game.targets.<target>``, ``rulebook2game.check``)
and test doubles plug in the same way; the adapters to the real ones are in
:mod:`rulebook2game.agent.backends`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rulebook2game.check.position import PositionView
from rulebook2game.workspace import Workspace


class RulebookView(Protocol):
    """The rulebook as the model reads it."""

    def toc_text(self) -> str:
        """The table of contents: section ids and titles."""
        ...

    def section_text(self, section_id: str) -> str:
        """One section's text with sentence ids; ``KeyError`` for an unknown id."""
        ...


@dataclass(frozen=True)
class CompileReport:
    """The outcome of compiling the pages."""

    ok: bool
    diagnostics: tuple[str, ...] = ()
    """Each one rendered as ``pages/<page>.rl:<line>:<col>: error: <message>``."""
    note: str = ""
    """Said after the errors, e.g. that the compiler stopped at its first error."""


@dataclass(frozen=True)
class Finding:
    """One problem the checks found, as the model is shown it."""

    check: str
    """fuzz | replay | oracle | ..."""
    kind: str
    message: str
    trace: str = ""
    """The minimal counterexample: one canonical action text per line (with players)."""
    pages: tuple[str, ...] = ()
    cites: tuple[str, ...] = ()
    """Rulebook ids the involved pages cite."""
    cited: tuple[tuple[str, str], ...] = ()
    """(id, text) of cited rulebook passages the checks already looked up."""
    position: str = ""
    """The position where the problem shows, as the engine renders it."""
    other: str = ""
    """For a difference with a second translation: where it is (its game directory)."""
    other_pages: tuple[str, ...] = ()
    """Its pages involved."""
    other_cited: tuple[tuple[str, str], ...] = ()
    """(id, text) of the rules its pages cite."""


@dataclass(frozen=True)
class CheckReport:
    """The outcome of ``run_checks``."""

    green: bool
    compile: CompileReport
    findings: tuple[Finding, ...] = ()
    summary: str = ""
    """One line: what ran (playouts, traces, trajectories)."""
    markdown: str = ""
    """The full report for ``reports/`` (empty when the checker writes none)."""
    verdict: str = ""
    """The check's verdict line: PASS or FAIL and what was verified."""
    assurance: str = ""
    """``reference``, ``rulebook``, ``fuzz_only``, ``none`` or ``failed`` (empty: unknown)."""
    uncited: tuple[tuple[str, str], ...] = ()
    """(id, text) of rule sentences no page cites."""
    uncovered_examples: tuple[tuple[str, str], ...] = ()
    """(id, text) of example sentences no scenario cites."""
    rules_line: str = ""
    """``12 rule sentences, 9 cited by pages, 2 out of scope with reasons`` (empty: no
    rule text)."""
    out_of_scope: tuple[tuple[str, str], ...] = ()
    """(id, why) of the sentences ``scope.toml`` declares out of scope."""
    actions: tuple[tuple[str, int], ...] = ()
    """How often fuzzing played each declared action (0: never legal, or never chosen)."""
    unexecuted: Finding | None = None
    """Page lines no check executed (shown like a finding; the checks can be green)."""


class Compiler(Protocol):
    """Compiles a workspace's pages."""

    def compile(self, workspace: Workspace) -> CompileReport:
        """Compile every page; never raise for errors in the pages themselves."""
        ...


class Checker(Protocol):
    """Runs every check on a workspace."""

    def check(self, workspace: Workspace) -> CheckReport:
        """Compile and check; generated-code faults are findings, not exceptions."""
        ...


class PositionViewer(Protocol):
    """Plays actions from the start on the current pages and shows where they lead."""

    def show(
        self,
        workspace: Workspace,
        actions: tuple[str, ...],
        start: str | None = None,
        changes: Mapping[str, Any] | None = None,
    ) -> PositionView | str:
        """The position reached with ``changes`` set, or why there is none (the compile
        errors, one text); :class:`BadInputError` for a change that does not apply."""
        ...


@dataclass(frozen=True)
class Toolbox:
    """What the agent's tools run on."""

    rulebook: RulebookView
    compiler: Compiler
    checker: Checker
    positions: PositionViewer | None = None
    """``show_position`` (absent: the tool says it is not available)."""
