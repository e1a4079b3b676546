"""How often a finding names the page that holds the planted bug, and where in its list.

Runs the full check (seeded, small budgets, the reference engine included) on each
hand-made corpus mistranslation (``tests/test_check_mistranslations.py`` and
``evals/mistranslations.toml``, as :mod:`scripts.evidence_kinds` reads them) and, for the
first finding of each caught case, records the pages it names in order: whether the
page with the bug comes first, is named at all, and how many pages are named. Legal-move
differences (a reference, a trace or a second translation offers an action the engine
refuses, or the reverse) are counted apart too: there the page that decides the action
can be named.

    python scripts/finding_pages.py [--json OUT] [GAME ...]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from evidence_kinds import all_cases  # noqa: E402

from rulebook2game.check.findings import LEGAL_KINDS as LEGAL  # noqa: E402
from rulebook2game.check.run import ALL_STAGES, run_check  # noqa: E402
from rulebook2game.workspace import open_workspace  # noqa: E402
from tests.test_check_mistranslations import OPTIONS, _mutated_game  # noqa: E402


def main(argv: list[str]) -> None:
    out = None
    if argv[:1] == ["--json"]:
        out, argv = Path(argv[1]), argv[2:]
    rows = []
    for case in all_cases():
        if argv and case.game not in argv:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            ws = open_workspace(_mutated_game(Path(tmp), case))
            report = run_check(ws, ALL_STAGES, seed=0, options=OPTIONS)
        if not report.findings:
            rows.append({"case": str(case), "page": case.page, "caught": False})
            continue
        first = report.findings[0]
        pages = list(dict.fromkeys(p.page for p in first.pages))
        rows.append(
            {
                "case": str(case),
                "page": case.page,
                "caught": True,
                "stage": first.stage,
                "kind": first.kind,
                "legal": first.kind in LEGAL or "legal" in first.message,
                "message": first.message[:100],
                "pages": pages,
                "roles": [f"{p.page}: {p.role}" for p in first.pages],
            }
        )
        row = rows[-1]
        where = "FIRST" if pages[:1] == [case.page] else ("named" if case.page in pages else "-")
        print(
            f"{row['case']:<44} {row['kind']:<22} {where:<6}"
            f" {'legal' if row['legal'] else '':<5} {'; '.join(row['roles'])}",
            flush=True,
        )
    caught = [r for r in rows if r["caught"]]
    legal = [r for r in caught if r["legal"]]
    for label, group in (("all caught", caught), ("legal-move differences", legal)):
        n = max(1, len(group))
        first_ok = sum(r["pages"][:1] == [r["page"]] for r in group)
        named = sum(r["page"] in r["pages"] for r in group)
        mean = sum(len(r["pages"]) for r in group) / n
        print(
            f"{label}: {len(group)} cases; bug page first {first_ok}, named {named}, "
            f"pages named per finding {mean:.2f}"
        )
    if out is not None:
        out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
