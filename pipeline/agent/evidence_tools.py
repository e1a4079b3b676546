"""The evidence side of the agent's tools: scenarios, sentences out of scope, and what
``finish`` records.

Scenarios live in ``scenarios/*.toml`` of the game directory (format:
:mod:`rulebook2game.check.scenarios`). ``finish`` is refused once while example
sentences of the rulebook have no scenario, and records its summary and the
ambiguities the translator resolved in ``reports/finish.json``, which the check
report shows. Sentences the engine deliberately does not implement go to ``scope.toml``
(:mod:`rulebook2game.check.scope`), which every coverage count reads.
"""

from __future__ import annotations

import json
from typing import Any

from rulebook2game.agent import tools
from rulebook2game.agent.errors import ToolRetry
from rulebook2game.check.report import FinishNotes, load_report, render_markdown
from rulebook2game.check.scenarios import (
    NAME,
    SUFFIX,
    parse_scenario,
    read_scenario,
    scenario_paths,
    scenarios_dir,
)
from rulebook2game.check.scenarios import write_scenario as write_file
from rulebook2game.check.scope import SCOPE_FILE, add_out_of_scope, remove_out_of_scope
from rulebook2game.check.sentences import example_sentences, load_text, scenario_cites
from rulebook2game.errors import BadInputError
from rulebook2game.trace import write_text_atomic
from rulebook2game.workspace import Workspace

FINISH_FILE = "finish.json"
REFUSED_FILE = ".finish-refused"


def uncovered_examples(ws: Workspace) -> list[tuple[str, str]]:
    """(id, text) of the rulebook's example sentences no scenario cites."""
    text = load_text(ws.root)
    if text is None:
        return []
    covered = text.covered(scenario_cites(ws.root))
    return [(s.id, s.text) for s in example_sentences(text) if s.id not in covered]


def refused_before(ws: Workspace) -> bool:
    """Whether ``finish`` was already refused once for missing scenarios."""
    return (ws.reports_dir / REFUSED_FILE).is_file()


def mark_refused(ws: Workspace) -> None:
    """Remember the refusal (the command-line tool runs each call in a new process)."""
    write_text_atomic(ws.reports_dir / REFUSED_FILE, "finish was refused once\n")


def mutant_summary(ws: Workspace) -> dict[str, int] | None:
    """The counts of the last mutant run (``reports/mutants.json``), or None when the
    game has none (or it does not read)."""
    path = ws.reports_dir / "mutants.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        keys = ("enumerated", "run", "killed", "survived", "equivalent")
        return {key: int(data[key]) for key in keys}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def record_finish(ws: Workspace, args: tools.FinishArgs) -> None:
    """Write ``reports/finish.json``; re-render ``check.md`` with it when a report exists."""
    notes = FinishNotes.model_validate(args.model_dump())
    write_text_atomic(
        ws.reports_dir / FINISH_FILE,
        json.dumps(notes.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n",
    )
    check_json = ws.reports_dir / "check.json"
    if check_json.is_file():
        try:
            report = load_report(check_json).model_copy(update={"notes": notes})
        except BadInputError:
            return
        write_text_atomic(ws.reports_dir / "check.md", render_markdown(report))


def _checked_name(name: str) -> str:
    stem = name.removesuffix(SUFFIX)
    if not NAME.fullmatch(stem):
        raise ToolRetry("bad_scenario_name", name=name, pattern=NAME.pattern)
    return stem


def write_scenario(ws: Workspace, args: tools.WriteScenarioArgs) -> dict[str, Any]:
    """Validate and write one scenario; what the result says about it."""
    name = _checked_name(args.name)
    data = args.model_dump(exclude={"name"}, exclude_defaults=True)
    data["cites"] = list(args.cites)
    try:
        scenario = parse_scenario(data, f"scenario {name}")
    except BadInputError as exc:
        raise ToolRetry("bad_scenario", name=name, error=str(exc)) from None
    path = scenarios_dir(ws.root) / f"{name}{SUFFIX}"
    created = not path.exists()
    write_file(ws.root, name, scenario)
    text = load_text(ws.root)
    unknown = [c for c in scenario.all_cites() if text is not None and not text.resolve(c)]
    uncovered = uncovered_examples(ws)
    total = len(example_sentences(text)) if text is not None else 0
    return {
        "name": name,
        "created": created,
        "steps": len(scenario.actions),
        "expectations": len(scenario.expect),
        "cites": list(scenario.all_cites()),
        "unknown_cites": unknown,
        "examples_total": total,
        "examples_covered": total - len(uncovered),
    }


def list_scenarios(ws: Workspace) -> dict[str, Any]:
    """Every scenario with its citations, and the examples no scenario covers yet."""
    listing: list[dict[str, Any]] = []
    for path in scenario_paths(ws.root):
        try:
            s = read_scenario(path)
        except BadInputError as exc:
            listing.append({"name": path.stem, "error": str(exc)})
            continue
        listing.append(
            {
                "name": path.stem,
                "description": s.description,
                "cites": list(s.all_cites()),
                "steps": len(s.actions),
                "expectations": len(s.expect),
            }
        )
    return {"scenarios": listing, "uncovered": uncovered_examples(ws)}


def delete_scenario(ws: Workspace, name: str) -> str:
    """Delete ``scenarios/<name>.toml``; a correction when there is none."""
    stem = _checked_name(name)
    path = scenarios_dir(ws.root) / f"{stem}{SUFFIX}"
    if not path.is_file():
        names = [p.stem for p in scenario_paths(ws.root)]
        raise ToolRetry("no_such_scenario", name=stem, scenarios=names)
    path.unlink()
    return stem


def mark_out_of_scope(ws: Workspace, args: tools.MarkOutOfScopeArgs) -> dict[str, Any]:
    """Declare (or, with ``remove``, take back) sentences out of scope in ``scope.toml``."""
    ids = [s.strip() for s in args.sentences if s.strip()]
    if args.remove:
        try:
            removed = remove_out_of_scope(ws.root, ids)
        except BadInputError as exc:
            raise ToolRetry("bad_scope", error=str(exc)) from None
        return {"removed": removed, "sentences": ids, "file": SCOPE_FILE}
    if not args.why.strip():
        raise ToolRetry("out_of_scope_why")
    text = load_text(ws.root)
    if text is None:
        raise ToolRetry("bad_scope", error="this game has no rule text to take sentences from")
    unknown = [i for i in ids if not text.resolve(i) and i not in text.titles]
    if unknown or not ids:
        raise ToolRetry("unknown_out_of_scope", ids=unknown or args.sentences)
    try:
        add_out_of_scope(ws.root, ids, args.why.strip())
    except BadInputError as exc:
        raise ToolRetry("bad_scope", error=str(exc)) from None
    count = len(text.covered(ids))
    return {"removed": None, "sentences": ids, "count": count, "file": SCOPE_FILE}
