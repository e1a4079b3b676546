"""Render a long fixture rulebook with groff (the ``ms`` macros, ``-Tpdf``).

groff is a third layout engine next to reportlab and typst, with its own line breaking,
hyphenation and column balancing. Its output is committed (``tests/data/extract/long/``)
because groff is a system package the tests do not require; ``python -m
rulebook2game.extract_eval.render_groff DIR`` writes the ``.ms`` sources and the PDFs
again, with each fixture's expected ledger as ``<name>.expected.json`` (Debian:
``apt-get install --no-install-recommends groff``).

The layout reproduces what other layout engines do and the tuned fixtures do not: list
items whose continuation lines start under the bullet (no hanging indent), numbered rules
set as plain paragraphs that flow from one column into the next, bold leads, an italic
subtitle under the title, and text diagrams in a fixed-width font.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulebook2game.errors import BadInputError
from rulebook2game.extract_eval.long_score import expected_json
from rulebook2game.extract_eval.long_source import (
    LONG_BOOKS,
    OVERPRINTED,
    LongBlock,
    LongRulebook,
)

_FILE_DATE = re.compile(rb"D:\d{14}([+\-Z])")
"""The creation and change dates gropdf writes; fixed (same length, so the offsets of the
file stay right) to make the output the same on every run."""


def groff_source(book: LongRulebook) -> str:
    """The ``ms`` source of ``book``."""
    size = 12 if book.columns == 1 else 11
    out = [
        f'.ds LH "{_esc(book.title)}',
        '.ds CH "',
        '.ds RH "- % -',
        f".nr PS {size}",
        f".nr VS {size + 3 if book.columns == 1 else size + 2}",
        ".nr PD 0.4v",
        ".nr PI 0",
        ".nr HM 0.9i",
        ".nr FM 0.9i",
        ".nr LL 5.6i" if book.columns == 1 else ".nr LL 6.2i",
        ".lg 0",
        ".LP",
        ".ce",
        rf"\s[22]\fB{_esc(book.title)}\fP\s0",
        ".sp 0.4",
        ".ce",
        rf"\s[13]\fI{_esc(book.subtitle)}\fP\s0",
        ".sp 0.6",
    ]
    if book.columns == 2:
        out.append(".2C")
    out += _blocks(book.intro)
    for sec in book.sections:
        heading = f"{sec.number} {sec.title}" if sec.number else sec.title
        out += [".SH", rf"\s+2{_esc(heading)}\s0"]
        out += _blocks(sec.blocks)
    return "\n".join(out) + "\n"


def _blocks(blocks: tuple[LongBlock, ...]) -> list[str]:
    out: list[str] = []
    for b in blocks:
        out += _block(b)
    return out


def _block(b: LongBlock) -> list[str]:
    text = _esc(" ".join(b.sentences))
    lead = rf"\fB{_esc(b.lead)}\fP " if b.lead else ""
    if b.form == "para" and b.lead_alone:
        return [".LP", lead, ".br", text]
    if b.form == "para":
        return [".LP", lead + text]
    if b.form == "rule":
        return [".LP", rf"\fB{b.label}\fP {text}"]
    if b.form == "bullet":
        return [".LP", rf"\(bu {lead}{text}"]
    if b.form == "step":
        return [f".IP {b.label} 3n", text]
    if b.form == "figure":
        rows = [r"\&" + _esc(row) for row in b.rows]
        return [".DS L", ".ft CW", ".ps -1", *rows, ".ps", ".ft", ".DE"]
    if b.form == "tabbed":
        rows = [r"\&" + _esc(row) for row in b.rows]  # a literal tab moves to the stop
        return [".LP", ".nf", ".ta 2i", *rows, ".fi"]
    if b.form == "caption":
        return [".LP", rf"\s-1\fI{text}\fP\s0"]
    head, _, rest = text.partition(" ")
    return [".RS", ".LP", rf"\fB{head}\fP {rest}", ".RE"]


def _esc(text: str) -> str:
    return text.replace("\\", r"\e").replace("-", r"\-")


def render_groff(book: LongRulebook, directory: Path) -> Path:
    """Write ``<name>.ms`` and ``<name>.pdf`` into ``directory``; return the PDF's path.

    Raises:
        BadInputError: groff is not installed, or it failed.
    """
    groff = shutil.which("groff")
    if groff is None:
        raise BadInputError(
            "groff is not installed (apt-get install --no-install-recommends groff)"
        )
    directory.mkdir(parents=True, exist_ok=True)
    source = directory / f"{book.name}.ms"
    source.write_text(groff_source(book), encoding="utf-8")
    pdf = directory / f"{book.name}.pdf"
    done = subprocess.run(
        [groff, "-ms", "-Tpdf", "-P-pa4", "-dpaper=a4", str(source)],
        capture_output=True,
        check=False,
        env={"SOURCE_DATE_EPOCH": "0", "PATH": "/usr/bin:/bin"},
    )
    if done.returncode != 0 or not done.stdout:
        raise BadInputError(f"groff failed on {source}: {done.stderr.decode(errors='replace')}")
    pdf.write_bytes(_FILE_DATE.sub(rb"D:20000101000000\1", done.stdout))
    return pdf


def main(argv: list[str] | None = None) -> int:
    """Render every long fixture, with its expected ledger, into the directory given
    (default: the test data)."""
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else Path("tests/data/extract/long")
    print(render_groff(OVERPRINTED, directory))
    for book in LONG_BOOKS:
        print(render_groff(book, directory))
        expected = json.dumps(expected_json(book), indent=1, ensure_ascii=False) + "\n"
        (directory / f"{book.name}.expected.json").write_text(expected, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
