"""Coverage by sentence: rule sentences cited by pages, example sentences by scenarios.

Which sentences are examples: a ledger entry whose ``role`` (or ``kind``) is
``example`` (the extraction marks a worked example's continuation sentences too),
otherwise a sentence that opens as an example does ("For example", "Example", "E.g.",
"Say", "Suppose"). Examples are not counted as rules: pages need not cite them;
scenarios should. Framing and figure sentences are neither (see
:mod:`rulebook2game.diff.rules`).

:func:`coverage` is the one count of coverage: ``check``'s report, the translator's
``run_checks`` and ``finish``, and ``eval`` all use it. Sentences the translator declared
out of scope (``scope.toml``, :mod:`rulebook2game.check.scope`) are counted apart.

The rule text is read as the checks read cited text (``rulebook.json``, else
``rules.md``); a game directory with neither gets no sentence coverage.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rulebook2game.check import scope
from rulebook2game.check.page_source import read_page_info
from rulebook2game.check.report import SentenceCoverage
from rulebook2game.check.scenarios import read_scenario, scenario_paths
from rulebook2game.diff.rules import RuleText, Sentence
from rulebook2game.errors import Rulebook2GameError
from rulebook2game.targets import page_suffix_for

EXAMPLE_KINDS = frozenset({"example"})
_EXAMPLE_OPENING = re.compile(
    r"^\W*(for example|for instance|example\b|examples\b|e\.\s?g\.|suppose\b|say\b)",
    re.IGNORECASE,
)


def is_example(sentence: Sentence) -> bool:
    """Whether ``sentence`` is a worked example (see the module docstring)."""
    if sentence.kind in EXAMPLE_KINDS or sentence.role in EXAMPLE_KINDS:
        return True
    return bool(_EXAMPLE_OPENING.match(sentence.text))


def example_sentences(text: RuleText) -> tuple[Sentence, ...]:
    """The example sentences of the rulebook, in reading order."""
    return tuple(
        s for s in text.sentences if s.numbered and s.role in ("rule", "example") and is_example(s)
    )


def rule_sentences(text: RuleText) -> tuple[Sentence, ...]:
    """The sentences pages must cite: rules, examples excluded."""
    return tuple(s for s in text.rule_sentences() if not is_example(s))


def load_text(root: Path) -> RuleText | None:
    """The rule text of a game directory from ``rulebook.json`` or ``rules.md``, if any."""
    from rulebook2game.diff.rules import rule_text_from_json, rule_text_from_markdown

    try:
        if (root / "rulebook.json").is_file():
            return rule_text_from_json(root / "rulebook.json")
        if (root / "rules.md").is_file():
            return rule_text_from_markdown(root / "rules.md")
    except Rulebook2GameError:
        return None
    return None


def page_cites(pages_dir: Path) -> list[str]:
    """Every citation of every page header."""
    return [
        c
        for p in sorted(pages_dir.glob(f"*{page_suffix_for(pages_dir.parent)}"))
        for c in read_page_info(p).sections
    ]


def scenario_cites(root: Path) -> list[str]:
    """Every citation of every readable scenario."""
    cites: list[str] = []
    for path in scenario_paths(root):
        try:
            cites.extend(read_scenario(path).all_cites())
        except Rulebook2GameError:
            continue
    return cites


def coverage(
    text: RuleText,
    pages: Iterable[str],
    scenarios: Iterable[str],
    out_of_scope: Mapping[str, str] | None = None,
) -> SentenceCoverage:
    """Which rule sentences the pages cite and which examples the scenarios cite.

    ``out_of_scope`` (sentence id -> why, :func:`rulebook2game.check.scope.reasons`): the
    sentences the translator declared the engine does not implement, counted apart: never
    as uncited or uncovered, never as cited or covered (a page citing one too does not
    make it covered).
    """
    apart = dict(out_of_scope or {})
    by_pages = text.covered(pages) - apart.keys()
    by_scenarios = text.covered(scenarios) - apart.keys()
    rules = rule_sentences(text)
    examples = example_sentences(text)
    uncited = [s for s in rules if s.id not in by_pages and s.id not in apart]
    uncovered = [s for s in examples if s.id not in by_scenarios and s.id not in apart]
    declared = [s for s in (*rules, *examples) if s.id in apart]
    # the text of every sentence listed as missing (a rule a scenario cites is still
    # uncited by pages) or out of scope
    return SentenceCoverage(
        source=text.source,
        rules=len(rules),
        rules_cited=sum(s.id in by_pages for s in rules),
        uncited=[s.id for s in uncited],
        examples=len(examples),
        examples_covered=sum(s.id in by_scenarios for s in examples),
        uncovered_examples=[s.id for s in uncovered],
        rules_out_of_scope=sum(s.id in apart for s in rules),
        examples_out_of_scope=sum(s.id in apart for s in examples),
        out_of_scope={s.id: apart[s.id] for s in declared},
        texts={s.id: s.text for s in (*uncited, *uncovered, *declared)},
    )


def out_of_scope(root: Path, text: RuleText) -> dict[str, str]:
    """Sentence id -> why of ``root/scope.toml`` (none when it is absent or broken: the
    compile stage reports a broken one)."""
    try:
        return scope.reasons(text, scope.read_scope(root))
    except Rulebook2GameError:
        return {}


def coverage_of(root: Path, pages_dir: Path) -> SentenceCoverage | None:
    """Sentence coverage of a game directory, or ``None`` when it has no rule text."""
    text = load_text(root)
    if text is None or not text.sentences:
        return None
    return coverage(text, page_cites(pages_dir), scenario_cites(root), out_of_scope(root, text))
