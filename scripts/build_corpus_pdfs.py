"""Build each corpus game's rules.pdf from its rules.md with Typst.

    python scripts/build_corpus_pdfs.py                 # every corpora/*/rules.md
    python scripts/build_corpus_pdfs.py corpora/pig     # some games
    python scripts/build_corpus_pdfs.py --check         # exit 1 if a PDF is stale

The markdown is a small subset, converted to Typst markup here: ``#``/``##``/``###``
headings, paragraphs, ``-`` bullets, ``1.`` numbered items, pipe tables, and inline
``**bold**``, ``*italic*`` and ```code```. Typst runs with its embedded fonts only
and no document date, so the same rules.md always gives the same bytes.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

import typst

ROOT = Path(__file__).resolve().parent.parent
PREAMBLE = """#set document(title: "{title}", date: none)
#set page(paper: "a4", margin: (x: 2.2cm, y: 2.4cm), numbering: "1")
#set text(font: "Libertinus Serif", size: 11pt, lang: "en")
#set par(justify: true)
#show heading.where(level: 1): it => align(center, text(20pt, it.body))
#show heading.where(level: 2): set block(above: 1.4em, below: 0.8em)
#show raw: set text(font: "DejaVu Sans Mono", size: 9.5pt)

"""
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*")
_SPECIAL = re.compile(r"([\\#$*_`<>@\[\]~\-+=/])")


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def inline(text: str) -> str:
    """Markdown inline markup -> Typst markup."""
    out: list[str] = []
    pos = 0
    for match in _INLINE.finditer(text):
        out.append(_escape(text[pos : match.start()]))
        code, bold, italic = match.groups()
        if code is not None:
            out.append("`" + code + "`")
        elif bold is not None:
            out.append("*" + inline(bold) + "*")
        else:
            out.append("_" + inline(italic) + "_")
        pos = match.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def _table(rows: list[str]) -> str:
    cells = [[c.strip() for c in r.strip().strip("|").split("|")] for r in rows]
    header, body = cells[0], [r for r in cells[2:]]
    head = ", ".join(f"[*{inline(c)}*]" for c in header)
    rest = ", ".join(f"[{inline(c)}]" for r in body for c in r)
    return f"#table(columns: {len(header)}, inset: 5pt, align: left, {head}, {rest})"


def _blocks(markdown: str) -> list[list[str]]:
    """Split into blocks: a heading line, a paragraph, a list item, a table."""
    blocks: list[list[str]] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        starts_item = bool(re.match(r"(- |\d+\. )", stripped))
        if not stripped:
            blocks.append([])
        elif stripped.startswith("#") or starts_item:
            blocks.append([stripped])
        elif stripped.startswith("|") and blocks and blocks[-1][:1] and blocks[-1][0][:1] == "|":
            blocks[-1].append(stripped)
        elif stripped.startswith("|") or not blocks or not blocks[-1] or blocks[-1][0][0] == "#":
            blocks.append([stripped])
        else:
            blocks[-1].append(stripped)
    return [b for b in blocks if b]


def to_typst(markdown: str, title: str) -> str:
    """The whole Typst document for a rules.md text."""
    out = [PREAMBLE.format(title=title.replace('"', "'"))]
    for block in _blocks(markdown):
        first = block[0]
        heading = re.match(r"(#+)\s+(.*)", first)
        if heading:
            out.append("=" * len(heading.group(1)) + " " + inline(heading.group(2)) + "\n")
        elif first.startswith("|"):
            out.append(_table(block) + "\n")
        elif first.startswith("- "):
            out.append("- " + inline(" ".join([first[2:], *block[1:]])) + "\n")
        elif re.match(r"\d+\. ", first):
            text = re.sub(r"^\d+\.\s+", "", first)
            out.append("+ " + inline(" ".join([text, *block[1:]])) + "\n")
        else:
            out.append("\n" + inline(" ".join(block)) + "\n\n")
    return "".join(out)


def build_pdf(rules_md: Path) -> bytes:
    """The PDF bytes for one rules.md."""
    markdown = rules_md.read_text(encoding="utf-8")
    title_line = next((ln for ln in markdown.splitlines() if ln.startswith("# ")), "# Rules")
    source = to_typst(markdown, title_line[2:].strip())
    with tempfile.TemporaryDirectory(prefix="rulebook2game-typst-") as tmp:
        main = Path(tmp) / "rules.typ"
        main.write_text(source, encoding="utf-8")
        pdf = typst.compile(str(main), root=tmp, ignore_system_fonts=True)
    assert isinstance(pdf, bytes)
    return pdf


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, help="game directories (default: all)")
    parser.add_argument("--check", action="store_true", help="only report stale PDFs")
    args = parser.parse_args()
    dirs = args.games or sorted(p.parent for p in (ROOT / "corpora").glob("*/rules.md"))
    stale = 0
    for game in dirs:
        pdf = build_pdf(game / "rules.md")
        target = game / "rules.pdf"
        if args.check:
            if not target.is_file() or target.read_bytes() != pdf:
                print(f"stale: {target}")
                stale += 1
        else:
            _write_atomic(target, pdf)
            print(f"wrote {target} ({len(pdf)} bytes)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
