"""Every corpus game directory is complete and consistent."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pdfplumber
import pytest

from rulebook2game.page_header import parse_page_header
from rulebook2game.resources import CORPORA_DIR, PROJECT_DIR
from rulebook2game.trace import read_trace
from rulebook2game.workspace import open_workspace

GAME_DIRS = sorted(p.parent for p in CORPORA_DIR.glob("*/game.toml"))
HEADING = re.compile(r"^#{2,}\s+(\d+(?:\.\d+)*)\s+(.+?)\s*$", re.MULTILINE)


def _sections(game_dir: Path) -> dict[str, str]:
    """Section id -> title, from the numbered headings of rules.md."""
    text = (game_dir / "rules.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in HEADING.finditer(text)}


def _script(name: str) -> ModuleType:
    path = PROJECT_DIR / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_five_games_are_there() -> None:
    names = {p.name for p in GAME_DIRS}
    assert {"tic_tac_toe", "connect_four", "breakthrough", "pig", "hearts"} <= names


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_files_and_configuration(game_dir: Path) -> None:
    for name in ("rules.md", "rules.pdf", "game.toml", "interface.toml"):
        assert (game_dir / name).is_file(), name
    ws = open_workspace(game_dir)
    config = ws.config()
    interface = ws.interface()
    assert config.name == game_dir.name
    assert config.oracle is None or config.oracle.startswith("openspiel:")
    assert interface is not None and interface.actions
    assert set(interface.chance.actions) <= {a.name for a in interface.actions}
    assert ws.pages() and ws.traces()
    assert {"1", "2", "3", "4", "5", "6"} <= set(_sections(game_dir))


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_pages_cite_existing_sections(game_dir: Path) -> None:
    sections = _sections(game_dir)
    play_pages = []
    for page in open_workspace(game_dir).pages():
        text = page.read_text(encoding="utf-8")
        header = parse_page_header(text)
        assert header.name == page.stem, page.name
        assert header.cites, f"{page.name}: no '# implements:' header"
        unknown = set(header.cites) - set(sections)
        assert not unknown, f"{page.name} cites {unknown}"
        if re.search(r"^act play\(\) -> Game:", text, re.MULTILINE):
            play_pages.append(page.name)
    assert len(play_pages) == 1, play_pages


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_golden_traces_parse(game_dir: Path) -> None:
    config = open_workspace(game_dir).config()
    for path in open_workspace(game_dir).traces():
        trace = read_trace(path)
        assert trace.header.game == config.name and trace.header.players == config.players
        assert trace.end.terminal and trace.end.returns is not None
        assert config.max_game_length is None or len(trace.steps) <= config.max_game_length


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_rules_pdf_is_built_from_rules_md(game_dir: Path) -> None:
    pdf = game_dir / "rules.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-")
    with pdfplumber.open(pdf) as doc:
        text = " ".join((page.extract_text() or "") for page in doc.pages)
    flat = re.sub(r"\s+", " ", text)
    for number, title in _sections(game_dir).items():
        assert f"{number} {title}" in flat, title
    assert _script("build_corpus_pdfs").build_pdf(game_dir / "rules.md") == pdf.read_bytes()
