"""An event's content, as one string: how the office knows a report it holds already.

The same tournament reaches the office as a DBF folder, then as a zip of it, then as
the director's SwissSys file: three files, three event ids (each taken from the file's
name or its header), one set of games. Rated three times, each game would count three
times. So each stored event keeps the fingerprint of its content (the ``fingerprint``
column of ``events``, migration 0008), and the office refuses an event whose
fingerprint is stored under another id (office/office.py, `_store_events`), unless
told it is a different event (``--different-event``) or it corrects that event
(``uscf db correct``).

The content is what every format gives alike and what makes the games the same games:

- each section's start and end dates;
- the member ids of its players;
- each game played (W, L or D) as its round, the two players' member ids and the
  result of the first of them in id order.

It leaves out what differs between formats or between two writings of one report: the
event id and name, section numbers and names, pair numbers and the order of players
and sections, pre-event ratings (a SwissSys file rounds them to whole points), systems
and time controls (a DBF names the system, a SwissSys file may not), forfeits, byes
and unplayed rounds (not rated games: formats write them differently), and the details
(place, directors). Sections are taken as a multiset, so two sections that swap their
numbers are the same content.

A player without a member id counts by the empty id; the office stores no such player
(office/admission.py) unless ids are given from the event id (``--assign-ids``), which
then differ from event to event, as they should: nothing else tells two such players
apart.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..core.model import PLAYED_CODES, Event, Section

#: the code of a game for the other player
_MIRRORED = {"W": "L", "L": "W", "D": "D"}


def fingerprint(event: Event) -> str:
    """The event's content (the module's docstring says what it holds) as 64 hex
    digits: SHA-256 of a canonical JSON text of it."""
    sections = sorted(_section_content(s) for s in event.sections)
    text = json.dumps(sections, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _section_content(section: Section) -> str:
    ids = {p.pair: p.id for p in section.players}
    games: set[tuple[int, str, str, str]] = set()
    for player in section.players:
        for r in player.results:
            if r.code not in PLAYED_CODES or r.opponent is None:
                continue
            mine, theirs, code = player.id, ids.get(r.opponent, ""), r.code
            if theirs < mine:  # each game once, whichever row it is read from
                mine, theirs, code = theirs, mine, _MIRRORED[code]
            games.add((r.round, mine, theirs, code))
    content: list[Any] = [section.start_date.isoformat(), section.end_date.isoformat(),
                          sorted({p.id for p in section.players}), sorted(games)]
    return json.dumps(content, separators=(",", ":"), ensure_ascii=True)
