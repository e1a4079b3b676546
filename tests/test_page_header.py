"""The page header is read one way everywhere (agent, checks, diff, eval)."""

from __future__ import annotations

from rulebook2game.agent.header import parse_header
from rulebook2game.check.page_source import parse_section_ids
from rulebook2game.diff.pages import page_cites
from rulebook2game.page_header import PageHeader, parse_page_header

PAGE = """# page: scoring extra words
# implements: 6.1, 6.2#3; 6.1 7
# page: ignored
import board

# implements: 9.9  (not in the leading block)
"""


def test_header_name_and_citations() -> None:
    assert parse_page_header(PAGE) == PageHeader("scoring", ("6.1", "6.2#3", "7"))


def test_alternative_key_and_missing_header() -> None:
    assert parse_page_header("# sections: 2 3\nfun f():\n").cites == ("2", "3")
    assert parse_page_header("import x\n# page: late\n") == PageHeader(None, ())


def test_every_reader_agrees() -> None:
    expected = parse_page_header(PAGE).cites
    assert parse_header(PAGE).cites == expected
    assert page_cites(PAGE) == expected
    assert parse_section_ids("6.1, 6.2#3; 6.1 7") == expected
