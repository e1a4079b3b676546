"""Findings: what a check found, with the evidence a reader (or the agent) needs.

A :class:`Finding` names its kind, says what went wrong in one line, carries a
minimal counterexample trace, and points at the rule pages involved (the page that
declares the action in question, the page at the failing source line) and the
rulebook sections those pages cite.

Pages declare what they implement in a header comment at the top of the file::

    # page: scoring
    # implements: 4.1, 4.2#3

(section ids, optionally ``#n`` for sentence ``n`` of the section). The
:class:`PageIndex` reads those headers and every ``act NAME(`` declaration, so an
action name or an ``file.rl:LINE`` location maps back to a page and its sections.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulebook2game.actions import parse_action
from rulebook2game.check.page_source import PageInfo, read_page_info
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets import page_suffix_for, page_suffixes
from rulebook2game.trace import Trace

# Kinds of findings, by stage.
COMPILE_ERROR = "compile_error"
CRASH = "crash"
"""Generated code crashed, aborted, hung or ran out of memory (detail in the message)."""
NO_LEGAL_ACTION = "no_legal_action"
NO_TERMINATION = "no_termination"
SERIALIZATION = "serialization"
NONDETERMINISM = "nondeterminism"
DEAD_ACTION = "dead_action"
INVARIANT = "invariant"
REPLAY = "replay"
ORACLE_PLAYER = "oracle_player"
ORACLE_LEGAL = "oracle_legal"
ORACLE_CHANCE = "oracle_chance"
ORACLE_TERMINAL = "oracle_terminal"
ORACLE_RETURNS = "oracle_returns"
SCENARIO = "scenario"
"""A scenario (a rulebook example, ``scenarios/*.toml``) broke an expectation."""
UNEXECUTED = "unexecuted"
"""Page lines no check executed (the ``lines`` stage): missing evidence, not a wrong rule."""
SEATS = "seats"
"""The engine's seats differ from ``[seats]`` of interface.toml (count, who moves first)."""

HOOKS_OF = {
    "returns": ("score",),
    "terminal": ("score",),
    "player": ("get_current_player",),
}
"""rl hooks whose pages are involved in a difference of each kind (returns, player, ...)."""

LEGAL_KINDS = frozenset({ORACLE_LEGAL, ORACLE_CHANCE, DEAD_ACTION, NO_LEGAL_ACTION})
"""Kinds about which actions are offered: their preconditions are involved."""

KINDS = (
    COMPILE_ERROR,
    CRASH,
    NO_LEGAL_ACTION,
    NO_TERMINATION,
    SERIALIZATION,
    NONDETERMINISM,
    DEAD_ACTION,
    INVARIANT,
    REPLAY,
    ORACLE_PLAYER,
    ORACLE_LEGAL,
    ORACLE_CHANCE,
    ORACLE_TERMINAL,
    ORACLE_RETURNS,
    SCENARIO,
    SEATS,
)

_SUFFIXES = "|".join(re.escape(s.lstrip(".")) for s in page_suffixes())
_LOCATION = re.compile(rf"([A-Za-z0-9_./\\-]+\.(?:{_SUFFIXES})):(\d+)(?::\d+)?")
"""``file.rl:LINE`` (any target's page suffix) in a message."""


@dataclass(frozen=True)
class PageRef:
    """A rule page involved in a finding, and why."""

    page: str
    """The page name (file stem: ``scoring`` is ``pages/scoring.rl``)."""
    role: str
    """``declares <action>`` or ``failing line``."""
    line: int | None = None
    sections: tuple[str, ...] = ()
    file: str = ""
    """The page file (``pages/scoring.rl``); empty: ``pages/PAGE.rl``."""

    @property
    def path(self) -> str:
        """The page file, workspace-relative."""
        return self.file or f"pages/{self.page}.rl"

    def __str__(self) -> str:
        where = self.path + (f":{self.line}" if self.line else "")
        cites = f" (cites {', '.join(self.sections)})" if self.sections else ""
        return f"{where} — {self.role}{cites}"


@dataclass(frozen=True)
class SectionRef:
    """A rulebook section cited by a page involved in a finding."""

    id: str
    title: str = ""
    text: str = ""


@dataclass(frozen=True)
class Finding:
    """One thing a check found wrong with the rule pages."""

    kind: str
    stage: str
    """compile | fuzz | replay | oracle"""
    message: str
    """One line: what went wrong."""
    trace: Trace | None = None
    """Minimal counterexample: the shortest action sequence that shows the finding."""
    step: int | None = None
    """Index of the step at which it shows (``len(trace.steps)`` = after the last one)."""
    expected: str = ""
    actual: str = ""
    actions: tuple[str, ...] = ()
    """Action texts in question (the one taken, the missing or extra ones)."""
    location: str | None = None
    """``file.rl:LINE`` of the failing source line, when the engine reported one."""
    functions: tuple[str, ...] = ()
    """rl functions involved (``score`` for wrong returns): their pages are named too."""
    pages: tuple[PageRef, ...] = ()
    sections: tuple[SectionRef, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def headline(self) -> str:
        """``kind: message`` on one line."""
        return f"{self.kind}: {self.message}"

    @property
    def page_names(self) -> list[str]:
        """Names of the pages involved, without repetition."""
        return list(dict.fromkeys(p.page for p in self.pages))


@lru_cache(maxsize=65536)
def action_name(text: str) -> str:
    """The name of an action text (``drop(col=3)`` -> ``drop``); the text itself if unparsable."""
    try:
        return parse_action(text).name
    except ValueError:
        return text


class PageIndex:
    """Maps action names and source locations back to pages and their sections."""

    def __init__(self, pages: Iterable[PageInfo], rulebook: dict[str, SectionRef] | None = None):
        self.pages = {p.name: p for p in pages}
        self.rulebook = rulebook or {}

    @classmethod
    def load(cls, pages_dir: Path, rulebook_json: Path | None = None) -> PageIndex:
        """Index every ``*.rl`` page of ``pages_dir`` and the rule text they cite.

        The text comes from ``rulebook_json`` (default: ``rulebook.json`` next to
        ``pages/``), else from ``rules.md`` there; without either, ids only.
        """
        suffix = page_suffix_for(pages_dir.parent)
        infos = [read_page_info(p) for p in sorted(pages_dir.glob(f"*{suffix}"))]
        cites = {sid for info in infos for sid in info.sections}
        return cls(infos, cited_sections(pages_dir.parent, cites, rulebook_json))

    def pages_declaring(self, action: str) -> list[PageRef]:
        """The pages with an ``act NAME(`` for the action (text or bare name)."""
        name = action_name(action)
        refs = []
        for info in self.pages.values():
            for declared, line in info.actions:
                if declared == name:
                    refs.append(
                        PageRef(info.name, f"declares {name}", line, info.sections, _file(info))
                    )
        return refs

    def pages_defining(self, function: str) -> list[PageRef]:
        """The pages defining a function (``.name``: a method of a class or enum)."""
        method = function.startswith(".")
        name = function.lstrip(".")
        return [
            PageRef(info.name, f"defines {name}", line, info.sections, _file(info))
            for info in self.pages.values()
            for defined, line in (info.methods if method else info.functions)
            if defined == name
        ]

    def callee_pages(self, action: str, precondition: bool) -> list[PageRef]:
        """Pages defining what the action's precondition (or else its effect) calls."""
        name = action_name(action)
        refs: list[PageRef] = []
        for info in self.pages.values():
            for decl in info.declarations:
                if decl.name != name:
                    continue
                calls = decl.precondition_calls if precondition else decl.effect_calls
                for call in calls:
                    part = "precondition" if precondition else "effect"
                    for ref in self.pages_defining(call):
                        role = f"{name}'s {part} calls {call.lstrip('.')}"
                        refs.append(replace(ref, role=role))
        return refs

    def page_at(self, location: str) -> PageRef | None:
        """The page of an ``file.rl:LINE`` location, or ``None`` if no page has that file."""
        match = _LOCATION.search(location)
        if match is None:
            return None
        stem = Path(match.group(1).replace("\\", "/")).stem
        info = self.pages.get(stem)
        if info is None:
            return None
        return PageRef(info.name, "failing line", int(match.group(2)), info.sections, _file(info))

    def sections_for(self, refs: Iterable[PageRef]) -> tuple[SectionRef, ...]:
        """The sections the pages cite, with title and text when the rulebook has them."""
        out: dict[str, SectionRef] = {}
        for ref in refs:
            for sid in ref.sections:
                base = sid.split("#", 1)[0]
                known = self.rulebook.get(sid) or self.rulebook.get(base)
                out.setdefault(sid, replace(known, id=sid) if known else SectionRef(sid))
        return tuple(out.values())

    def locate(self, finding: Finding) -> Finding:
        """The finding with its pages and sections filled in.

        Order: the page at the failing source line (when the engine reported one),
        the pages declaring the actions in question, the pages defining what their
        effects call, the pages defining the functions involved, then any pages the
        finding already named. Where one side offers an action the other refuses, the
        precondition decides: the pages defining what it calls come before the page that
        declares the action (on the mistranslated corpus, the bug's page comes first
        more often: ``scripts/finding_pages.py``).
        """
        refs: list[PageRef] = []
        for where in [finding.location, finding.message, finding.actual]:
            ref = self.page_at(where) if where else None
            if ref is not None:
                refs.append(ref)
                break
        legal = finding.kind in LEGAL_KINDS or finding.extra.get("what") in ("legal", "chance")
        declaring = [r for text in finding.actions for r in self.pages_declaring(text)]
        callees = [
            r for text in finding.actions for r in self.callee_pages(text, precondition=legal)
        ]
        refs += [*callees, *declaring] if legal else [*declaring, *callees]
        for function in (*finding.functions, *HOOKS_OF.get(finding.extra.get("what", ""), ())):
            refs.extend(self.pages_defining(function))
        refs.extend(finding.pages)
        unique = tuple(_first_per_page(refs))
        sections = rank_sections(finding, self.sections_for(unique))
        return replace(finding, pages=unique, sections=sections)


_TOPIC_WORDS = {
    "terminal": "end ends ended over finish finished last stop stops wins win",
    "returns": "score scores scored point points win wins winner lose loses draw penalty",
    "player": "turn turns next player first order lead leads begins starts passes",
    "legal": "may must cannot can't only legal allowed choose chooses either",
    "chance": "random chance roll rolls deal dealt shuffle die dice draw",
}
_KIND_TOPIC = {
    NO_TERMINATION: "terminal",
    ORACLE_TERMINAL: "terminal",
    ORACLE_RETURNS: "returns",
    INVARIANT: "returns",
    ORACLE_PLAYER: "player",
    ORACLE_LEGAL: "legal",
    DEAD_ACTION: "legal",
    NO_LEGAL_ACTION: "legal",
    ORACLE_CHANCE: "chance",
}
_WORD = re.compile(r"[a-z']+")


def rank_sections(finding: Finding, sections: Iterable[SectionRef]) -> tuple[SectionRef, ...]:
    """The cited sections, those whose words fit the finding first (a stable sort).

    A page citing a whole section cites every sentence of it; a reader should meet
    the passage about the difference (the end of the game for a terminal
    difference, scoring for returns, ...) before the rest.
    """
    topic = str(finding.extra.get("what") or _KIND_TOPIC.get(finding.kind, ""))
    topic = _KIND_TOPIC.get(topic, topic)
    words = set(_TOPIC_WORDS.get(topic, "").split())
    words |= {action_name(a).lower() for a in finding.actions}
    listed = list(sections)
    if not words:
        return tuple(listed)

    def score(ref: SectionRef) -> int:
        return -sum(1 for w in _WORD.findall(ref.text.lower()) if w in words)

    return tuple(sorted(listed, key=score))


def _file(info: PageInfo) -> str:
    return f"pages/{info.path.name}"


def _first_per_page(refs: Iterable[PageRef]) -> list[PageRef]:
    """One reference per page (the first, i.e. the most specific), in order."""
    seen: dict[str, PageRef] = {}
    for ref in refs:
        seen.setdefault(ref.page, ref)
    return list(seen.values())


def find_location(text: str) -> str | None:
    """The first ``file.rl:LINE`` in ``text`` (e.g. an abort message), if any."""
    match = _LOCATION.search(text)
    return f"{Path(match.group(1)).name}:{match.group(2)}" if match else None


def cited_sections(
    root: Path, cites: Iterable[str], rulebook_json: Path | None = None
) -> dict[str, SectionRef]:
    """Title and text of every cited id, read as ``rulebook2game diff`` reads rule text."""
    # Imported here: the diff package builds on the checks.
    from rulebook2game.diff.rules import rule_text_from_json, rule_text_from_markdown

    json_path = rulebook_json or root / "rulebook.json"
    try:
        if json_path.is_file():
            text = rule_text_from_json(json_path)
        elif (root / "rules.md").is_file():
            text = rule_text_from_markdown(root / "rules.md")
        else:
            return {}
    except Rulebook2GameError:
        return load_rulebook_sections(json_path) if json_path.is_file() else {}
    out: dict[str, SectionRef] = {}
    for cite in cites:
        citation = text.citation(cite)
        if citation.sentences or citation.title:
            body = " ".join(sentence for _, sentence in citation.sentences)
            out[cite] = SectionRef(cite, citation.title, body)
    return out


def load_rulebook_sections(path: Path) -> dict[str, SectionRef]:
    """Sections of a ``rulebook.json`` by id; empty when the file is missing or unreadable.

    The rulebook is context for a reader, never a reason for a check to fail, so a
    broken file gives no sections rather than an error.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    sections = data.get("sections", []) if isinstance(data, dict) else data
    out: dict[str, SectionRef] = {}
    if not isinstance(sections, list):
        return out
    for section in sections:
        if not isinstance(section, dict) or "id" not in section:
            continue
        blocks = section.get("blocks") or []
        text = " ".join(
            str(b.get("text", "")).strip() for b in blocks if isinstance(b, dict)
        ).strip() or str(section.get("text", ""))
        sid = str(section["id"])
        out[sid] = SectionRef(sid, str(section.get("title", "")), text)
    return out
