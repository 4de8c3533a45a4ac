"""The rules table of docs/rules.md, generated from the data in core/rules.py.

The docs page embeds the Markdown output; a test keeps the two equal, so the table can
never drift from what the engine does.
"""

from __future__ import annotations

from .core.norms import NORM_RULE_ROWS
from .core.rules import CHANGES, STANDING_RULES, RuleChange


def _rows() -> list[RuleChange]:
    return sorted(CHANGES, key=lambda c: (c.effective, c.field)) + list(STANDING_RULES)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown() -> str:
    lines = _markdown_rows(_rows())
    lines += ["", "Norms toward the titles ([norms and titles](norms.md)):", ""]
    lines += _markdown_rows(list(NORM_RULE_ROWS))
    return "\n".join(lines)


def _markdown_rows(rows: list[RuleChange]) -> list[str]:
    lines = [
        "| From | Rule | Status | Source | Sentence | Note |",
        "|---|---|---|---|---|---|",
    ]
    for c in rows:
        start = c.effective.isoformat() + ("" if c.field != "-" else " on")
        lines.append(f"| {start} | {_cell(c.rule)} | {c.status} | {_cell(c.source)} | "
                     f"{_cell(c.sentence)} | {_cell(c.note)} |")
    return lines


def render_text() -> str:
    lines = []
    for c in _rows() + [None, *NORM_RULE_ROWS]:
        if c is None:
            lines.append("Norms toward the titles:")
            continue
        start = c.effective.isoformat() + ("" if c.field != "-" else "+")
        lines.append(f"{start}  [{c.status}] {c.rule}")
        lines.append(f"            {c.source}: \"{c.sentence}\"")
        if c.note:
            lines.append(f"            note: {c.note}")
    return "\n".join(lines)
