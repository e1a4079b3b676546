"""The records a diff produces; renderers turn them into text, Markdown, HTML or JSON."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from rulebook2game.diff.ambiguities import AmbiguityChange
from rulebook2game.diff.behaviour import StepDifference, Walk
from rulebook2game.diff.pages import PageChange
from rulebook2game.diff.scope import ScopeChange


@dataclass(frozen=True)
class Citation:
    """One citation of a page, with the rulebook text it points at."""

    cite: str
    """As written in the page header: a section (``4.1``) or a sentence (``4.2#3``)."""
    title: str
    """The cited section's title ("" when unknown)."""
    sentences: tuple[tuple[str, str], ...]
    """``(sentence id, text)`` of every cited sentence (a section cites all of its own)."""

    @property
    def found(self) -> bool:
        """Whether the rulebook has the cited section or sentence."""
        return bool(self.sentences) or bool(self.title)


@dataclass(frozen=True)
class PageReview:
    """A changed page next to the rule text it cites."""

    change: PageChange
    citations: tuple[Citation, ...]


@dataclass(frozen=True)
class BehaviourDiff:
    """Where the two compiled engines now disagree."""

    old_compile_error: str | None
    new_compile_error: str | None
    traces: tuple[Walk, ...]
    """One lockstep walk per golden trace of either side (by file name)."""
    random: tuple[Walk, ...]
    """One lockstep walk per seed."""
    seeds: tuple[int, ...]
    max_steps: int

    @property
    def compiled(self) -> bool:
        """Whether both sides compiled (otherwise no walk was made)."""
        return self.old_compile_error is None and self.new_compile_error is None

    @property
    def differences(self) -> list[tuple[Walk, StepDifference]]:
        """Every walk that found a difference, with it."""
        return [(w, w.difference) for w in (*self.traces, *self.random) if w.difference]

    @property
    def counterexamples(self) -> list[tuple[str, StepDifference]]:
        """One shortest known action sequence per distinct difference, with its source walk.

        Random walks carry a shrunk ``minimal`` difference; a golden trace's difference
        is its own counterexample.
        """
        out: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], tuple[str, StepDifference]]
        out = {}
        for walk, found in self.differences:
            small = walk.minimal or found
            key = (small.what, small.old + small.new, small.gained, small.lost)
            if key not in out or len(small.prefix) < len(out[key][1].prefix):
                out[key] = (walk.label, small)
        return sorted(out.values(), key=lambda item: len(item[1].prefix))

    @property
    def gained(self) -> tuple[str, ...]:
        """Actions newly legal at some first divergence (sorted, distinct)."""
        return tuple(sorted({a for _, d in self.differences for a in d.gained}))

    @property
    def lost(self) -> tuple[str, ...]:
        """Actions no longer legal at some first divergence (sorted, distinct)."""
        return tuple(sorted({a for _, d in self.differences for a in d.lost}))

    @property
    def changed(self) -> bool:
        """Whether any walk differs, a replay outcome flipped, or a side failed to compile."""
        flipped = any((w.old_replay is None) != (w.new_replay is None) for w in self.traces)
        return not self.compiled or bool(self.differences) or flipped


@dataclass(frozen=True)
class GameDiff:
    """Everything ``rulebook2game diff`` reports."""

    old: str
    new: str
    rules_source: str
    """Where the cited text came from: ``rulebook.json``, ``rules.md`` or ``none``."""
    pages: tuple[PageReview, ...]
    behaviour: BehaviourDiff | None
    """``None`` when the behaviour diff was not asked for."""
    command: str
    """The command that reproduces this diff."""
    ambiguities: tuple[AmbiguityChange, ...] = ()
    """Recorded ambiguities added, removed or read differently (``finish``'s notes)."""
    out_of_scope: tuple[ScopeChange, ...] = ()
    """Sentences declared out of scope (``scope.toml``) on one side only, or for another
    reason."""

    @property
    def changed(self) -> bool:
        """Whether the two sides differ in pages, in recorded ambiguities, in what is out
        of scope or in behaviour."""
        return (
            bool(self.pages)
            or bool(self.ambiguities)
            or bool(self.out_of_scope)
            or (self.behaviour is not None and self.behaviour.changed)
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (schema ``rulebook2game-diff/1``)."""
        data = dataclasses.asdict(self)
        data["format"] = "rulebook2game-diff/1"
        data["changed"] = self.changed
        if self.behaviour is not None:
            data["behaviour"]["gained"] = list(self.behaviour.gained)
            data["behaviour"]["lost"] = list(self.behaviour.lost)
        return data
