"""Titles in the office: what a member holds on a date, and the title supplement.

A member's titles come from `core.titles.title_status` over the member's stored Regular
rows in rating order (the norm each earned, the post-event rating, whether it is
established, the OLM title of the state after), starting from what a member list or an
imported history says was earned before (``member_titles``, ``member_norms``, and the
imported Regular baseline's peak). The rule is the core's; this module only reads.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sqlalchemy import Connection, or_, select

from ..core.constants import DOCUMENTED
from ..core.norms import NORM_CODES, NORM_RULE_SETS
from ..core.titles import TITLE_NAMES, Earned, TitleEvent, TitleStatus, title_status
from ..formats.csv_safety import safe_row
from . import schema as t
from .store import aliases

#: the system whose rows hold the norms and whose ratings titles rest on
TITLE_SYSTEM = NORM_RULE_SETS[-1].system.value
#: the numbers titles rest on (five norms, National Master's 2200, "established"): the
#: documents' values, the same at every date; not the rating rules of a date, which
#: begin in 2013 while titles and norms are older
TITLE_CONSTANTS = DOCUMENTED


def earned_before(c: Connection, ids: Iterable[str]) -> dict[str, Earned]:
    """What each of ``ids`` had earned before the pool's history, where anything was
    imported: titles, norm counts, and the peak of an established imported Regular
    rating (a baseline of more than 25 games). What was imported under an id merged into
    one of ``ids`` (before or after the merge) is that member's: titles at their earliest
    date, norm counts added."""
    ids = list(ids)
    merged = aliases(c)
    owner = {i: i for i in ids} | {d: k for d, k in merged.items() if k in set(ids)}
    read = list(owner)
    titles: dict[str, dict[str, date | None]] = {}
    norms: dict[str, dict[str, int]] = {}
    peaks: dict[str, float] = {}
    for r in c.execute(select(t.member_titles).where(t.member_titles.c.member_id.in_(read))):
        held = titles.setdefault(owner[r.member_id], {})
        known = [d for d in (held.get(r.title), r.earned) if d is not None]
        held[r.title] = min(known) if known else None
    n = t.member_norms.c
    for member, code, count in c.execute(select(n.member_id, n.code, n.count)
                                         .where(n.member_id.in_(read))):
        counts = norms.setdefault(owner[member], {})
        counts[code] = counts.get(code, 0) + count
    b = t.baselines.c
    for r in c.execute(select(b.member_id, b.rating, b.games, b.peak, b.as_of)
                       .where(b.member_id.in_(ids), b.system == TITLE_SYSTEM)):
        if r.games > TITLE_CONSTANTS.established_after:
            peaks[r.member_id] = max(r.rating, r.peak or r.rating)
    return {m: Earned(titles.get(m, {}), norms.get(m, {}), peaks.get(m))
            for m in set(titles) | set(norms) | set(peaks)}


def title_events(c: Connection, ids: Iterable[str]) -> dict[str, list[TitleEvent]]:
    """Each member's stored Regular results in rating order, as `title_status` reads
    them."""
    r = t.ratings.c
    found: dict[str, list[TitleEvent]] = {}
    for row in c.execute(
            select(r.member_id, r.event_id, r.section, r.end_date, r.norm, r.post,
                   r.games_after, r.olm)
            .where(r.member_id.in_(list(ids)), r.system == TITLE_SYSTEM)
            .order_by(r.end_date, r.start_date, r.event_id, r.section)):
        established = TITLE_CONSTANTS.established_after
        found.setdefault(row.member_id, []).append(TitleEvent(
            row.end_date, row.event_id, row.section, row.norm, row.post,
            row.games_after is not None and row.games_after > established,
            bool(row.olm)))
    return found


def member_title_status(c: Connection, member_id: str, as_of: date | None = None
                        ) -> TitleStatus:
    """The titles ``member_id`` (a merged id followed) holds on ``as_of`` (after every
    stored event when None), and the norms toward each level."""
    member_id = aliases(c).get(member_id, member_id)
    events = title_events(c, [member_id]).get(member_id, [])
    earned = earned_before(c, [member_id]).get(member_id)
    return title_status(events, as_of, earned, TITLE_CONSTANTS)


@dataclass(frozen=True)
class SupplementEntry:
    """A member of the title supplement: the titles held and the norms toward each level."""

    id: str
    name: str
    status: TitleStatus


def title_supplement(c: Connection, as_of: date) -> list[SupplementEntry]:
    """Every member who, on ``as_of``, holds a title or has a norm toward one, with the
    titles and the norms toward each level, by name. The members read are those with a
    stored norm up to ``as_of``, an imported title or norm count, or a Regular rating of
    the lowest title's rating or more (National Master, Original Life Master)."""
    r = t.ratings.c
    rating_titles = TITLE_CONSTANTS.national_master
    ids = set(c.execute(select(r.member_id).distinct().where(
        r.system == TITLE_SYSTEM, r.end_date <= as_of,
        or_(r.norm.is_not(None), r.post >= rating_titles))).scalars())
    ids |= set(c.execute(select(t.member_titles.c.member_id)).scalars())
    ids |= set(c.execute(select(t.member_norms.c.member_id)).scalars())
    merged = aliases(c)
    ids = {merged.get(i, i) for i in ids}  # what a merged id earned is its member's
    if not ids:
        return []
    entries = []
    constants = TITLE_CONSTANTS
    events, earned = {}, {}
    listed = sorted(ids)
    for at in range(0, len(listed), 1000):  # one query a thousand members
        part = listed[at:at + 1000]
        events.update(title_events(c, part))
        earned.update(earned_before(c, part))
    names = {member: name for member, name in c.execute(
        select(t.members.c.id, t.members.c.name).where(t.members.c.id.in_(listed)))}
    for member in listed:
        status = title_status(events.get(member, []), as_of, earned.get(member), constants)
        if status.titles or any(p.norms for p in status.progress):
            entries.append(SupplementEntry(member, names.get(member, ""), status))
    return sorted(entries, key=lambda e: (e.name.casefold(), e.id))


#: the supplement's columns: the titles held, then the norms toward each level (a norm at
#: a higher level counting at the lower ones), then what a title waits for
SUPPLEMENT_HEADER = ("id", "name", "titles", *NORM_CODES, "waiting")


def supplement_row(e: SupplementEntry) -> list[str]:
    """One member's row of the supplement: titles as their names with the date earned
    (``Candidate Master 2024-03-02``; no date for one imported without)."""
    titles = "; ".join(f"{t_.name} {t_.date.isoformat()}" if t_.date else t_.name
                       for t_ in e.status.titles)
    waiting = "; ".join(f"{p.title}: {p.waiting}" for p in e.status.progress if p.waiting)
    return [e.id, e.name, titles, *(str(p.norms) for p in e.status.progress), waiting]


def supplement_csv(entries: list[SupplementEntry]) -> str:
    """The title supplement as CSV (``uscf db title-supplement --csv`` and the web
    page's download); a cell a spreadsheet would run as a formula is made inert."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SUPPLEMENT_HEADER)
    for e in entries:
        writer.writerow(safe_row(supplement_row(e)))
    return out.getvalue()


def status_to_dict(status: TitleStatus) -> dict[str, object]:
    """A `TitleStatus` as JSON: titles held, and the norms toward each level with the
    events that earned them."""
    return {
        "titles": [{"key": x.key, "name": x.name, "category": x.category,
                    "date": x.date.isoformat() if x.date else None, "event": x.event,
                    "section": x.section, "basis": x.basis} for x in status.titles],
        "norms": [{"code": p.code, "title": p.title, "level": p.level, "norms": p.norms,
                   "needed": p.needed, "held": p.held, "waiting": p.waiting,
                   "earned": [{"date": n.date.isoformat() if n.date else None,
                               "event": n.event, "section": n.section, "code": n.code,
                               "count": n.count}
                              for n in p.earned]}
                  for p in status.progress],
    }


__all__ = ["TITLE_NAMES", "SupplementEntry", "earned_before", "member_title_status",
           "status_to_dict", "supplement_csv", "title_supplement"]
