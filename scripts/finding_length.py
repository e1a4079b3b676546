"""Measure how long findings are, as the agent reads them and as check.md prints them.

Runs the full check on each hand-made corpus mistranslation of
``tests/test_check_mistranslations.py`` (seeded, small budgets) and prints, per case,
the characters of the first finding in the agent's ``run_checks`` result and in
``reports/check.md``, the pages it names and the sentences it quotes.

    python scripts/finding_length.py [GAME ...]
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebook2game.agent.backends import convert_finding  # noqa: E402
from rulebook2game.agent.dispatch import ToolRunner  # noqa: E402
from rulebook2game.agent.pages import PageStore  # noqa: E402
from rulebook2game.agent.prompts import render  # noqa: E402
from rulebook2game.check.report import CheckReport, render_markdown  # noqa: E402
from rulebook2game.check.run import ALL_STAGES, run_check  # noqa: E402
from rulebook2game.workspace import open_workspace  # noqa: E402
from tests.test_check_mistranslations import CASES, OPTIONS, _mutated_game  # noqa: E402


class _NoRulebook:
    def toc_text(self) -> str:
        return ""

    def section_text(self, section_id: str) -> str:
        raise KeyError(section_id)


def agent_text(runner: ToolRunner, report: CheckReport) -> str:
    """The first finding as ``run_checks`` shows it."""
    finding = convert_finding(report.findings[0])
    view = runner._finding_view(finding)
    fields = {
        "green": False,
        "summary": "",
        "compile_errors": [],
        "findings": [view],
        "more": 0,
        "verdict": "",
        "assurance": "",
        "uncited": [],
        "uncited_more": 0,
        "examples": [],
        "examples_more": 0,
    }
    return render("agent/checks.md.j2", **fields)


def markdown_text(report: CheckReport) -> str:
    """The first finding's section of check.md."""
    text = render_markdown(report)
    start = text.find("\n## 1. ")
    end = text.find("\n## ", start + 5)
    return text[start : end if end > 0 else len(text)]


def main(games: list[str]) -> None:
    rows = []
    for case in CASES:
        if games and case.game not in games:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            ws = open_workspace(_mutated_game(Path(tmp), case))
            report = run_check(ws, ALL_STAGES, seed=0, options=OPTIONS)
            if not report.findings:
                rows.append((str(case), 0, 0, 0, 0))
                continue
            toolbox = type("T", (), {"rulebook": _NoRulebook()})()
            runner = ToolRunner(ws, toolbox, PageStore(ws.pages_dir))  # type: ignore[arg-type]
            first = report.findings[0]
            rows.append(
                (
                    str(case),
                    len(agent_text(runner, report)),
                    len(markdown_text(report)),
                    len({p.page for p in first.pages}),
                    len(first.sections),
                )
            )
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'case':<28} {'agent':>6} {'md':>6} {'pages':>5} {'cites':>5}")
    for name, agent, md, pages, cites in rows:
        print(f"{name:<28} {agent:>6} {md:>6} {pages:>5} {cites:>5}")
    n = max(1, len(rows))
    print(
        f"{'mean':<28} {sum(r[1] for r in rows) / n:>6.0f} {sum(r[2] for r in rows) / n:>6.0f} "
        f"{sum(r[3] for r in rows) / n:>5.1f} {sum(r[4] for r in rows) / n:>5.1f}"
    )
    print(f"{'max':<28} {max(r[1] for r in rows):>6} {max(r[2] for r in rows):>6}")


if __name__ == "__main__":
    main(sys.argv[1:])
