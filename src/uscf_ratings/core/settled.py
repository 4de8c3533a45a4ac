"""Every default of an event filled in once, before it is rated: what is rated is what
is stored.

A file leaves some of what the procedure reads unsaid, and the procedure then assumes
it. Where the assumption is made late (at rating time, from a field left empty), an
event rated from its file and the same event read back from the office's database can
be rated differently: the database keeps event JSON, whose reader fills the same
empty field in its own way. So each default is filled here, explicitly, in the model;
`uscf rate`, the office (office/submission.py) and the web's rating all rate the
settled event, and the office stores it as event JSON, field for field
(docs/office.md, "What is stored is what was rated").

The defaults:

- **A rating's date** (`Rating.date`). Staleness D_k counts "the number of days from
  when that rating was computed to the end date of the tournament now being rated"
  (2024 and 2025 texts, section 2, blended initialization). A rating a file gives for a
  section was current when the section began, so a rating without a date is dated the
  section's start date: the default event JSON has always documented
  (schemas/event.schema.json), now the default of every format.
- **A section's systems** (`Section.systems`): those of its time control under the
  rules of its start date (footnote 1; `core.pipeline.section_systems`), written out.
- **N** where the file gives none is already explicit: the reader puts its assumed N
  in ``games`` with ``games_known=False``, and both are stored.

A FIDE or CFC rating without a date is left without one: the texts read it as current
as of the section (D_k = 0), and event JSON stores it so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date

from .model import Event, Player, Rating, Section, System
from .pipeline import section_systems
from .rules import NoRuleSet, rules_for
from .timecontrol import TimeControlError
from .validate import SectionError


def settled(event: Event) -> Event:
    """``event`` with every default filled in (the module's docstring lists them); the
    same object when there is nothing to fill, so that a caller can tell. A section
    whose systems cannot be found (no systems and no time control; a date the rules do
    not cover) keeps ``systems`` empty: rating it refuses it, saying why."""
    sections = tuple(settled_section(s) for s in event.sections)
    if all(a is b for a, b in zip(sections, event.sections, strict=True)):
        return event
    return replace(event, sections=sections)


def settled_section(section: Section) -> Section:
    """A section with its systems and its players' rating dates filled in."""
    systems = section.systems
    if not systems:
        try:
            systems = section_systems(section, rules_for(section.start_date))
        except (SectionError, NoRuleSet, TimeControlError):
            systems = section.systems  # refused when it is rated, with the reason
    players = tuple(_dated(p, section.start_date) for p in section.players)
    if systems == section.systems and all(
            a is b for a, b in zip(players, section.players, strict=True)):
        return section
    return replace(section, systems=systems, players=players)


def _dated(player: Player, section_start: date) -> Player:
    if all(r.date is not None for r in player.ratings.values()):
        return player
    ratings: Mapping[System, Rating] = {
        system: r if r.date is not None else replace(r, date=section_start)
        for system, r in player.ratings.items()}
    return replace(player, ratings=ratings)
