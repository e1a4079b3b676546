"""The rulebook model: JSON round trip, atomic writes, compact text for the agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook2game.errors import BadInputError
from rulebook2game.extract import Rulebook, extract_rulebook, load_rulebook, write_rulebook
from rulebook2game.extract_eval.variants import variant


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory: pytest.TempPathFactory) -> Rulebook:
    pdf = variant("one-column").render(tmp_path_factory.mktemp("model"))
    return extract_rulebook(pdf)


def test_round_trip_through_json(rulebook: Rulebook, tmp_path: Path) -> None:
    assert Rulebook.model_validate_json(rulebook.model_dump_json()) == rulebook
    out = tmp_path / "rulebook.json"
    write_rulebook(rulebook, out)
    assert load_rulebook(out) == rulebook
    assert [p.name for p in tmp_path.iterdir()] == ["rulebook.json"]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "rulebook2game-rulebook/1"
    first = data["sections"][1]["sentences"][0]
    assert set(first) == {"id", "kind", "role", "block", "page", "text"}


def test_sentence_ids_are_section_id_and_index(rulebook: Rulebook) -> None:
    for section in rulebook.sections:
        assert [s.id for s in section.sentences] == [
            f"{section.id}#{n}" for n in range(1, len(section.sentences) + 1)
        ]
        assert all(s.section == section.id for s in section.sentences)


def test_toc_and_section_text(rulebook: Rulebook) -> None:
    toc = rulebook.toc_text()
    assert toc.splitlines()[0].startswith("Harbor Lights: 11 sections")
    assert "  [3.2] Movement (p. " in toc
    text = rulebook.section_text("3.2")
    assert text.startswith("[3.2] Movement (p. ")
    assert "[3.2#1] Ships move from space to space along the printed lanes." in text
    assert "3.2.1 [3.2#3] A ship that starts its move in fog may move only one space." in text
    assert "(caption) [3.2#" in text
    table = rulebook.section_text("4")
    assert "table:\n[4#3] Delivery | Points | Bonus\n[4#4] One cube | 1 | none" in table


def test_section_text_says_which_sentences_are_not_rules(rulebook: Rulebook) -> None:
    # The agent reads sections through this text: what coverage will not count as a rule
    # (framing) and what a scenario should cover (examples) must be visible there.
    assert "[front#1] (framing) Harbor Lights is a game" in rulebook.section_text("front")
    sidebar = rulebook.section_text("2")
    assert "[2#7] (example) Example: In a three-player game" in sidebar
    assert "[2#6] " in sidebar and "[2#6] (" not in sidebar  # a rule carries no tag


def test_a_parent_section_names_its_subsections(rulebook: Rulebook) -> None:
    # a section whose text is all in its subsections must not read as empty
    parent = rulebook.section_text("3")
    assert "Subsections (read each by its id): " in parent and "[3.2] Movement" in parent
    assert "Subsections" not in rulebook.section_text("3.2")


def test_unknown_section_names_close_ids(rulebook: Rulebook) -> None:
    with pytest.raises(KeyError, match=r"did you mean 3\.2"):
        rulebook.section_text("3.2.9")


def test_load_rejects_what_is_not_a_rulebook(tmp_path: Path) -> None:
    bad = tmp_path / "rulebook.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    with pytest.raises(BadInputError, match="not a valid rulebook"):
        load_rulebook(bad)
    with pytest.raises(BadInputError, match="cannot be read"):
        load_rulebook(tmp_path / "missing.json")
