"""``rulebook2game diff``: pages with their cited rules, then the behaviour change.

:func:`diff_games` resolves both sides (see :mod:`rulebook2game.diff.sides`), diffs
their pages, looks up the rule text each changed page cites (new side first, then
old, see :mod:`rulebook2game.diff.rules`), compiles both sides into their own build
folders and walks both engines in lockstep (see :mod:`rulebook2game.diff.behaviour`).
"""

from __future__ import annotations

import shlex
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rulebook2game.check.findings import action_name
from rulebook2game.check.shrink import engine_alternatives, shrink
from rulebook2game.diff.ambiguities import compare_readings, side_readings
from rulebook2game.diff.behaviour import StepDifference, Walk, lockstep, random_walks, trace_walk
from rulebook2game.diff.engines import Compiled, compile_game
from rulebook2game.diff.model import BehaviourDiff, Citation, GameDiff, PageReview
from rulebook2game.diff.pages import diff_pages
from rulebook2game.diff.rules import RuleText, load_rule_text
from rulebook2game.diff.scope import compare_scope, side_scope
from rulebook2game.diff.sides import Side, game_dir_of, resolve_side, working_dir
from rulebook2game.errors import BadInputError
from rulebook2game.targets import page_suffix_for
from rulebook2game.trace import Trace, read_trace
from rulebook2game.workspace import load_game_config

DEFAULT_WALKS = 20
DEFAULT_SEED = 0
DEFAULT_MAX_STEPS = 1000
SHRINK_TESTS = 300


@dataclass(frozen=True)
class DiffOptions:
    """How much behaviour to compare."""

    walks: int = DEFAULT_WALKS
    seed: int = DEFAULT_SEED
    max_steps: int = DEFAULT_MAX_STEPS
    behaviour: bool = True
    shrink: bool = True


def scratch_dir(new_spec: str) -> Path:
    """Where revisions and runs are materialised: ``build/diff/`` of the new side's game."""
    here = working_dir(new_spec)
    try:
        return game_dir_of(here if here.exists() else here.parent) / "build" / "diff"
    except BadInputError:
        return Path(tempfile.mkdtemp(prefix="rulebook2game-diff-"))


def command_line(old: str, new: str, options: DiffOptions) -> str:
    """The command that reproduces a diff."""
    words = ["rulebook2game", "diff", old, new, "--walks", str(options.walks)]
    words += ["--seed", str(options.seed), "--max-steps", str(options.max_steps)]
    return shlex.join(words)


def diff_games(old_spec: str, new_spec: str, options: DiffOptions | None = None) -> GameDiff:
    """Diff two sides' pages and behaviour."""
    opts = options or DiffOptions()
    scratch = scratch_dir(new_spec)
    new = resolve_side(new_spec, scratch)
    old = resolve_side(old_spec, scratch)
    same_game(old, new)
    new_rules, old_rules = load_rule_text(new.root), load_rule_text(old.root)
    reviews = tuple(
        PageReview(change, tuple(_citation(c, new_rules, old_rules) for c in change.cites))
        for change in diff_pages(
            old.pages(),
            new.pages(),
            suffixes=(page_suffix_for(old.root), page_suffix_for(new.root)),
        )
    )
    source = new_rules.source if new_rules.source != "none" else old_rules.source
    behaviour = behaviour_diff(old, new, opts) if opts.behaviour else None
    readings = compare_readings(side_readings(old_spec, old), side_readings(new_spec, new))
    return GameDiff(
        old_spec,
        new_spec,
        source,
        reviews,
        behaviour,
        command_line(old_spec, new_spec, opts),
        readings,
        compare_scope(side_scope(old), side_scope(new)),
    )


def same_game(old: Side, new: Side) -> None:
    """Refuse two sides that are different games: a diff is between versions of one game.

    Raises:
        BadInputError: both sides have a ``game.toml`` and their ``name`` differs.
    """
    names = []
    for side in (old, new):
        path = side.root / "game.toml"
        if not path.is_file():
            return
        names.append(load_game_config(path).name)
    if names[0] != names[1]:
        raise BadInputError(
            f"{old.label} is the game {names[0]!r} and {new.label} is {names[1]!r} "
            "(game.toml name): diff compares two versions of one game"
        )


def _citation(cite: str, first: RuleText, second: RuleText) -> Citation:
    found = first.citation(cite)
    return found if found.found else second.citation(cite)


def golden_traces(old: Side, new: Side) -> list[tuple[str, Trace]]:
    """Both sides' golden traces by file name; a name whose content differs appears twice."""
    out: list[tuple[str, Trace]] = []
    old_files = {p.name: p for p in sorted((old.root / "traces").glob("*.jsonl"))}
    new_files = {p.name: p for p in sorted((new.root / "traces").glob("*.jsonl"))}
    for name in sorted(set(old_files) | set(new_files)):
        o, n = old_files.get(name), new_files.get(name)
        if o is not None and n is not None and o.read_bytes() == n.read_bytes():
            out.append((f"trace {name}", read_trace(n)))
            continue
        out += [(f"trace {name} (old)", read_trace(o))] if o is not None else []
        out += [(f"trace {name} (new)", read_trace(n))] if n is not None else []
    return out


def behaviour_diff(old: Side, new: Side, opts: DiffOptions) -> BehaviourDiff:
    """Compile both sides and walk them in lockstep."""
    seeds = tuple(range(opts.seed, opts.seed + opts.walks))
    traces = golden_traces(old, new)
    with compile_game(old.root) as a, compile_game(new.root) as b:
        if a.engine is None or b.engine is None:
            return BehaviourDiff(a.error, b.error, (), (), seeds, opts.max_steps)
        trace_walks = tuple(trace_walk(a.engine, b.engine, t, label) for label, t in traces)
        walks = random_walks(a.engine, b.engine, seeds=seeds, max_steps=opts.max_steps)
        if opts.shrink:
            walks = _shrink_walks(a, b, walks)
    return BehaviourDiff(None, None, trace_walks, tuple(walks), seeds, opts.max_steps)


def _signature(d: StepDifference) -> tuple[str, frozenset[str]]:
    return d.what, frozenset(action_name(x) for x in (*d.gained, *d.lost))


def _shrink_walks(a: Compiled, b: Compiled, walks: Sequence[Walk]) -> list[Walk]:
    """Replace each distinct difference's prefix by a minimal one showing the same kind."""
    assert a.engine is not None and b.engine is not None
    old, new = a.engine, b.engine
    done: dict[tuple[str, frozenset[str]], StepDifference] = {}
    out: list[Walk] = []
    for walk in walks:
        d = walk.difference
        if d is None or d.what == "error":
            out.append(walk)
            continue
        key = _signature(d)
        if key not in done:

            def shows(actions: Sequence[str], key: tuple[str, frozenset[str]] = key) -> bool:
                found = lockstep(old, new, actions=actions).difference
                return found is not None and found.step == len(actions) and _signature(found) == key

            small = shrink(
                d.prefix, shows, max_tests=SHRINK_TESTS, alternatives=engine_alternatives(old)
            ).actions
            found = lockstep(old, new, actions=small).difference
            done[key] = found if found is not None and _signature(found) == key else d
        out.append(replace(walk, minimal=done[key]))
    return out
