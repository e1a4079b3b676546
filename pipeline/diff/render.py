"""Render a :class:`GameDiff` as rich terminal output, Markdown, HTML or JSON.

The human formats show the changed pages (rule text beside the code diff), then the
walks that found a difference (agreeing walks are only counted) and one shortest
known counterexample per distinct difference; JSON carries every walk.
"""

from __future__ import annotations

import html
import json

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from rulebook2game.diff.ambiguities import change_line
from rulebook2game.diff.behaviour import StepDifference, Walk
from rulebook2game.diff.model import BehaviourDiff, GameDiff, PageReview
from rulebook2game.diff.scope import scope_line


def render_json(diff: GameDiff) -> str:
    """The diff as JSON (schema ``rulebook2game-diff/1``)."""
    return json.dumps(diff.to_dict(), indent=2, ensure_ascii=False) + "\n"


# --- shared wording -----------------------------------------------------------------------


def replay_outcome(walk: Walk, traces: tuple[Walk, ...]) -> str:
    """``old passes, new fails`` for a golden-trace walk; empty for a random walk."""
    if walk not in traces:
        return ""
    old = "passes" if walk.old_replay is None else "fails"
    new = "passes" if walk.new_replay is None else "fails"
    return f"old {old}, new {new}"


def walk_outcome(walk: Walk) -> str:
    """The first difference of a walk, or how long the engines agreed."""
    return str(walk.difference) if walk.difference else f"agree for {walk.steps} steps"


def summary(b: BehaviourDiff) -> str:
    """One line: how many walks differ."""
    if not b.compiled:
        return "not compared: a side does not compile"
    total = len(b.traces) + len(b.random)
    kinds = f"{len(b.traces)} golden traces, {len(b.random)} random"
    return f"{len(b.differences)} of {total} walks differ ({kinds})"


def compile_errors(b: BehaviourDiff) -> list[str]:
    """One line per side that does not compile."""
    pairs = (("old", b.old_compile_error), ("new", b.new_compile_error))
    return [f"{side} side does not compile: {err}" for side, err in pairs if err]


def gained_lost(b: BehaviourDiff) -> list[str]:
    """Moves (or chance outcomes) newly possible and no longer possible, when there are any."""
    lines = [f"legal moves gained: {', '.join(b.gained)}"] if b.gained else []
    return lines + ([f"legal moves lost: {', '.join(b.lost)}"] if b.lost else [])


def counterexample_line(label: str, d: StepDifference) -> str:
    """A shortest known action sequence and the difference it ends on."""
    actions = " ".join(d.prefix) or "(no action)"
    return f"after {len(d.prefix)} actions [{actions}]: {d} (from {label})"


def _rows(b: BehaviourDiff) -> list[tuple[Walk, str, str]]:
    return [(w, replay_outcome(w, b.traces), walk_outcome(w)) for w, _ in b.differences] + [
        (w, replay_outcome(w, b.traces), "replay outcome changed")
        for w in b.traces
        if w.difference is None and (w.old_replay is None) != (w.new_replay is None)
    ]


# --- Markdown -----------------------------------------------------------------------------


def _md_page(review: PageReview) -> list[str]:
    ch = review.change
    lines = [f"### `{ch.name}` — {ch.status} (+{ch.lines_added} −{ch.lines_removed})", ""]
    for c in review.citations:
        title = c.title if c.found else "(not in the rulebook)"
        lines += [f"> **{c.cite}** {title}".rstrip()]
        lines += [f"> - `{sid}` {text}" for sid, text in c.sentences]
        lines += [""]
    if not review.citations:
        lines += ["_The page cites no rulebook section._", ""]
    if ch.cites_added or ch.cites_removed:
        added, removed = list(ch.cites_added), list(ch.cites_removed)
        lines += [f"Citations added: {added}; removed: {removed}", ""]
    return [*lines, "```diff", ch.unified_diff.rstrip("\n"), "```", ""]


def _md_behaviour(b: BehaviourDiff) -> list[str]:
    lines = ["## Behaviour", "", summary(b), ""]
    lines += [f"- {e}" for e in compile_errors(b)]
    lines += [f"- {line}" for line in gained_lost(b)]
    rows = _rows(b)
    if rows:
        lines += ["", "| walk | golden replay | first divergence |", "|---|---|---|"]
        lines += [f"| {w.label} | {r} | {o} |" for w, r, o in rows]
    if b.counterexamples:
        lines += ["", "Shortest counterexamples:", ""]
        lines += [f"- {counterexample_line(label, d)}" for label, d in b.counterexamples]
    seeds = f"{b.seeds[0]}..{b.seeds[-1]}" if b.seeds else "none"
    return [*lines, "", f"Random walks: seeds {seeds}, at most {b.max_steps} steps each.", ""]


def render_markdown(diff: GameDiff) -> str:
    """The diff as Markdown for a pull request or review comment."""
    lines = [f"# Rule diff: `{diff.old}` → `{diff.new}`", ""]
    lines += [f"Reproduce: `{diff.command}`  ", f"Rule text from: {diff.rules_source}", ""]
    lines += [f"## Pages ({len(diff.pages)} changed)", ""]
    if not diff.pages:
        lines += ["No page differs.", ""]
    for review in diff.pages:
        lines += _md_page(review)
    if diff.ambiguities:
        lines += [f"## Recorded ambiguities ({len(diff.ambiguities)} changed)", ""]
        lines += [f"- {change_line(c)}" for c in diff.ambiguities]
        lines += [""]
    if diff.out_of_scope:
        lines += [f"## Out of scope ({len(diff.out_of_scope)} changed, scope.toml)", ""]
        lines += [f"- {scope_line(c)}" for c in diff.out_of_scope]
        lines += [""]
    if diff.behaviour is not None:
        lines += _md_behaviour(diff.behaviour)
    return "\n".join(lines).rstrip("\n") + "\n"


# --- HTML ---------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1400px}
.page{display:grid;grid-template-columns:1fr 1.4fr;gap:1em;border-top:1px solid #ccc}
blockquote{margin:0 0 .8em;padding:.3em .8em;border-left:4px solid #8a8;background:#f6fbf6}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;font-size:90%}
.add{color:#070}.del{color:#a00}.hunk{color:#06c}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}
"""

E = html.escape


def _html_diff(text: str) -> str:
    out = []
    for line in text.splitlines():
        cls = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        cls = "hunk" if line.startswith("@@") else cls
        out.append(f'<span class="{cls}">{E(line)}</span>' if cls else E(line))
    return "<pre>" + "\n".join(out) + "</pre>"


def _html_page(review: PageReview) -> str:
    ch = review.change
    quotes = []
    for c in review.citations:
        items = "".join(f"<li><code>{E(s)}</code> {E(t)}</li>" for s, t in c.sentences)
        title = E(c.title) if c.found else "<em>not in the rulebook</em>"
        quotes.append(f"<blockquote><b>{E(c.cite)}</b> {title}<ul>{items}</ul></blockquote>")
    rules = "".join(quotes) or "<p><em>The page cites no rulebook section.</em></p>"
    counts = f"{ch.status} (+{ch.lines_added} −{ch.lines_removed})"
    head = f"<h3><code>{E(ch.name)}</code> — {counts}</h3>"
    return (
        f'{head}<div class="page"><div>{rules}</div><div>{_html_diff(ch.unified_diff)}</div></div>'
    )


def _html_behaviour(b: BehaviourDiff) -> str:
    rows = "".join(
        f"<tr><td>{E(w.label)}</td><td>{E(r)}</td><td>{E(o)}</td></tr>" for w, r, o in _rows(b)
    )
    table = (
        "<table><tr><th>walk</th><th>golden replay</th><th>first divergence</th></tr>"
        f"{rows}</table>"
        if rows
        else ""
    )
    notes = [*compile_errors(b), *gained_lost(b)]
    examples = "".join(f"<li>{E(counterexample_line(lb, d))}</li>" for lb, d in b.counterexamples)
    return (
        f"<h2>Behaviour</h2><p>{E(summary(b))}</p>"
        + "".join(f"<p>{E(n)}</p>" for n in notes)
        + table
        + (f"<h3>Shortest counterexamples</h3><ul>{examples}</ul>" if examples else "")
    )


def render_html(diff: GameDiff) -> str:
    """The diff as one self-contained HTML page (rule text beside each page diff)."""
    title = f"Rule diff: {diff.old} → {diff.new}"
    body = [
        f"<h1>{E(title)}</h1>",
        f"<p>Reproduce: <code>{E(diff.command)}</code><br>"
        f"Rule text from: {E(diff.rules_source)}</p>",
        f"<h2>Pages ({len(diff.pages)} changed)</h2>",
        *(_html_page(r) for r in diff.pages),
    ]
    if diff.ambiguities:
        items = "".join(f"<li>{E(change_line(c))}</li>" for c in diff.ambiguities)
        body.append(
            f"<h2>Recorded ambiguities ({len(diff.ambiguities)} changed)</h2><ul>{items}</ul>"
        )
    if diff.out_of_scope:
        items = "".join(f"<li>{E(scope_line(c))}</li>" for c in diff.out_of_scope)
        body.append(
            f"<h2>Out of scope ({len(diff.out_of_scope)} changed, scope.toml)</h2><ul>{items}</ul>"
        )
    if diff.behaviour is not None:
        body.append(_html_behaviour(diff.behaviour))
    head = f"<meta charset='utf-8'><title>{E(title)}</title><style>{_CSS}</style>"
    return f"<!doctype html><html><head>{head}</head><body>{''.join(body)}</body></html>\n"


# --- rich ---------------------------------------------------------------------------------


def _rich_page(review: PageReview) -> RenderableType:
    ch = review.change
    rules = Text()
    for c in review.citations:
        rules.append(f"{c.cite} ", style="bold green")
        rules.append((c.title if c.found else "(not in the rulebook)") + "\n", style="green")
        for sid, text in c.sentences:
            rules.append(f"  {sid} ", style="dim")
            rules.append(text + "\n")
    if not review.citations:
        rules.append("The page cites no rulebook section.\n", style="italic")
    code = Syntax(ch.unified_diff.rstrip("\n") or "(empty)", "diff", word_wrap=True)
    title = f"[bold]{escape(ch.name)}[/] {ch.status} (+{ch.lines_added} −{ch.lines_removed})"
    return Panel(Group(rules, code), title=title, title_align="left", expand=False)


def _rich_behaviour(b: BehaviourDiff) -> RenderableType:
    parts: list[RenderableType] = [Text(f"Behaviour: {summary(b)}", style="bold")]
    parts += [Text(e, style="red") for e in compile_errors(b)]
    rows = _rows(b)
    if rows:
        table = Table(show_edge=False)
        for column in ("walk", "golden replay", "first divergence"):
            table.add_column(column)
        for w, r, o in rows:
            table.add_row(escape(w.label), r, escape(o))
        parts.append(table)
    parts += [Text(line) for line in gained_lost(b)]
    if b.counterexamples:
        parts.append(Text("shortest counterexamples:", style="bold"))
        parts += [Text("  " + counterexample_line(lb, d)) for lb, d in b.counterexamples]
    return Group(*parts)


def render_rich(diff: GameDiff) -> RenderableType:
    """The diff for the terminal."""
    parts: list[RenderableType] = [
        Text(f"rule diff {diff.old} → {diff.new}", style="bold"),
        Text(f"{len(diff.pages)} page(s) changed; rule text from {diff.rules_source}"),
        *(_rich_page(r) for r in diff.pages),
    ]
    if diff.ambiguities:
        parts.append(Text(f"recorded ambiguities: {len(diff.ambiguities)} changed", style="bold"))
        parts += [Text("  " + change_line(c)) for c in diff.ambiguities]
    if diff.out_of_scope:
        parts.append(Text(f"out of scope: {len(diff.out_of_scope)} changed", style="bold"))
        parts += [Text("  " + scope_line(c)) for c in diff.out_of_scope]
    if diff.behaviour is not None:
        parts.append(_rich_behaviour(diff.behaviour))
    parts.append(Text(f"reproduce: {diff.command}", style="dim"))
    return Group(*parts)
