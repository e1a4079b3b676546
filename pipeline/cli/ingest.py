"""``rulebook2game ingest RULES.pdf -o GAME_DIR``: extract, translate, check, repair.

Exit codes: 0 the checks are green; 1 they are not (or the run failed); 2 bad input;
3 no model endpoint is configured, so the game directory and its ``AGENTS.md`` brief
were written for a coding agent and nothing was checked. 3 rather than 0 because 0
promises a checked engine (``ingest ... && rulebook2game play GAME_DIR`` must be
safe), and rather than 1 because nothing failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from rulebook2game.agent.state import Progress as AgentProgress
from rulebook2game.cli._common import console, err_console, fail_cleanly
from rulebook2game.errors import BadInputError
from rulebook2game.llm.usage import Budget
from rulebook2game.resources import known_targets

if TYPE_CHECKING:
    from rulebook2game.ingest import IngestOptions, IngestResult

_PATH = {"exists": False, "dir_okay": False}


def _report(result: IngestResult) -> None:
    """The run in a few lines, then the check report as ``rulebook2game check`` shows it."""
    if result.repeated and result.run is not None:
        console.print(
            f"run {result.run.root} already did this job (same rulebook, inputs and model): "
            "0 model calls made; --fresh starts a new translation",
            highlight=False,
            soft_wrap=True,
        )
        _check_report(result)
        return
    if result.run is None or result.agent is None or result.report is None:
        return
    state, total = result.agent, result.agent.total
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_row("run", str(result.run.root))
    table.add_row("agent", (state.status or "") + (f" ({state.reason})" if state.reason else ""))
    table.add_row("turns", f"{state.turn} ({state.repairs} repair rounds)")
    cost = "cost unknown (no price for this model)" if total.cost is None else f"${total.cost:.4f}"
    table.add_row("tokens", f"{total.tokens:,}, {total.cached} responses from cache/log; {cost}")
    second = result.second
    if second is not None and second.status == "not made":
        table.add_row("second opinion", f"not made: {second.reason}")
    elif second is not None:
        usage = second.usage
        spent = usage.get("cost_usd")
        money = "cost unknown" if spent is None else f"${spent:.4f}"
        table.add_row(
            "second opinion",
            f"{second.target} in {second.folder}/ ({second.agent_status}, {second.turns} turns"
            f"{', reused' if second.status == 'reused' else ''}); "
            f"tokens {usage.get('tokens', 0):,}; {money}; not counted above",
        )
        table.add_row("disagreements", f"{second.found} found, {second.left} left after judging")
    console.print(table)
    _check_report(result)


def _check_report(result: IngestResult) -> None:
    report_json = result.workspace.reports_dir / "check.json"
    if report_json.is_file():
        from rulebook2game.check.report import load_report, render_console

        render_console(load_report(report_json), console)


def ingest_command(
    rules: Annotated[Path, typer.Argument(help="The rulebook PDF.", **_PATH)],
    out: Annotated[Path, typer.Option("--out", "-o", help="The game directory to write.")],
    target: Annotated[str, typer.Option(help="Target language.")] = "rl",
    model: Annotated[str | None, typer.Option(help="Model name at the endpoint.")] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL).")
    ] = None,
    interface: Annotated[
        Path | None, typer.Option(help="Fix the action vocabulary (interface.toml).")
    ] = None,
    oracle: Annotated[str | None, typer.Option(help="Reference engine, openspiel:NAME.")] = None,
    vassal: Annotated[Path | None, typer.Option(help="Vassal module (.vmod).")] = None,
    players: Annotated[
        int | None, typer.Option(min=1, help="Players (default: oracle's, else 2).")
    ] = None,
    password: Annotated[str | None, typer.Option(help="Password of an encrypted PDF.")] = None,
    max_turns: Annotated[int, typer.Option(min=1, help="Budget: model requests.")] = 40,
    max_tokens: Annotated[
        int, typer.Option(min=1, help="Budget: prompt + completion tokens.")
    ] = 2_000_000,
    max_repairs: Annotated[int, typer.Option(min=0, help="Budget: failed check rounds.")] = 8,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the request cache.")] = False,
    cache_dir: Annotated[
        Path | None, typer.Option(help="Request cache (default GAME_DIR/runs/cache).")
    ] = None,
    prices: Annotated[Path | None, typer.Option(help="Price table (TOML).")] = None,
    price_in: Annotated[float | None, typer.Option(help="USD per 1M prompt tokens.")] = None,
    price_out: Annotated[float | None, typer.Option(help="USD per 1M completion tokens.")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per model request.")] = 300.0,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Start a new run instead of resuming.")
    ] = False,
    second_opinion: Annotated[
        bool,
        typer.Option(
            "--second-opinion",
            help="Then a second translation in a fresh context (the other target), walked "
            "in lockstep with the first; the first translator judges each disagreement.",
        ),
    ] = False,
) -> None:
    """Rulebook in, checked rule pages out: extract, translate, check, repair."""
    with fail_cleanly():
        if timeout <= 0:
            raise BadInputError("--timeout must be positive")
        if target not in known_targets():
            known = ", ".join(known_targets())
            raise BadInputError(f"--target {target}: unknown target (known: {known})")
        from rulebook2game.ingest import IngestOptions  # imports the model client: slow

        options = IngestOptions(
            rules=rules,
            out=out,
            target=target,
            model=model,
            base_url=base_url,
            interface=interface,
            oracle=oracle,
            vassal=vassal,
            players=players,
            password=password,
            budget=Budget(max_turns, max_tokens, max_repairs),
            no_cache=no_cache,
            cache_dir=cache_dir,
            prices=prices,
            price_in=price_in,
            price_out=price_out,
            timeout=timeout,
            resume=not fresh,
            second_opinion=second_opinion,
        )
        result = _run_with_progress(options)
        if result.outcome == "handed_off":
            later = (
                "; for the second opinion, its section 'A second opinion' says how"
                if second_opinion
                else ""
            )
            err_console.print(
                f"no model endpoint (--base-url, OPENAI_BASE_URL, OPENAI_API_KEY): wrote "
                f"{result.brief} for a coding agent{later}; nothing checked (exit 3)",
                highlight=False,
                soft_wrap=True,
            )
        _report(result)
    raise typer.Exit(code=result.exit_code)


def _run_with_progress(options: IngestOptions) -> IngestResult:
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[dim]{task.fields[last]}"),
    )
    # Not a terminal (a pipe, a CI log): no bar, and no blank line left where it was.
    live = err_console.is_terminal
    with Progress(*columns, console=err_console, transient=True, disable=not live) as bar:
        task = bar.add_task("extract", total=options.budget.max_turns, last="")

        def show(event: AgentProgress) -> None:
            if event.what == "request":
                bar.update(
                    task,
                    description=f"turn {event.turn + 1} ({event.detail})",
                    completed=event.turn,
                )
            elif event.what in ("stop", "final_check"):
                bar.update(task, description=event.what.replace("_", " "), last=event.detail)
            else:
                bar.update(task, last=f"{event.what}: {event.detail}"[:70])
                err_console.print(
                    f"[dim]{event.turn:>3}[/] {event.what}: {event.detail}", highlight=False
                )

        from rulebook2game.ingest import ingest

        return ingest(options, on_progress=show)


def register(app: typer.Typer) -> None:
    """Add ``ingest`` to the command line."""
    app.command(name="ingest")(ingest_command)
