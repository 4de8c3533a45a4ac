"""docs/domain.md shows the domain's tables as core/domain.py states them."""

from __future__ import annotations

from pathlib import Path

from uscf_ratings.core.domain import markdown

PAGE = Path(__file__).resolve().parent.parent / "docs" / "domain.md"
START, END = "<!-- domain-table -->\n", "<!-- /domain-table -->"


def test_the_page_shows_the_code_s_table() -> None:
    text = PAGE.read_text(encoding="utf-8")
    shown = text[text.index(START) + len(START):text.index(END)]
    assert shown == markdown(), (
        "docs/domain.md is out of date: paste `python -c \"from uscf_ratings.core.domain "
        "import markdown; print(markdown(), end='')\"` between its markers")
