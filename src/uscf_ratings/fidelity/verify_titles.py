"""A member's norms and titles as US Chess records them, against ours (`uscf verify`).

Ours come from the sections fetched: each section of the events given that the member
played in is rated (fidelity/verify.py), and the member's norm is the one
`rate_section` gives (core/norms.py, from our post-event ratings). US Chess's are the
member's norms and awards (formats/member_titles.py). Each section is compared; a
difference is given the first cause, in `NORM_CAUSES`' order, that the records show:

1. `NOT_FETCHED`: US Chess records a norm in a section that is not among the events given;
2. `NOT_IN_SECTION`: the section is there, but the member is not in it;
3. a norm whose status is ``Deleted`` or ``Preview``: US Chess does not count it (only
   ``Active`` norms count), where ours is the same norm;
4. `FEWER_GAMES`: the member played fewer than ``norm_min_games`` rated games here;
5. `NOT_ELIGIBLE`: our rule finds the member not eligible for another reason (an opponent
   met more than twice, an online section, a section not rated Regular);
6. `OPPONENT_POST`: our norm, computed again from the published post-event ratings
   (`norms_by_pair`) instead of ours, is US Chess's: our post-event rating of an opponent
   decides it (the opponent whose ratings differ most is named);
7. `MARGIN_ROUNDING`: at the level decided, S - E is within `ROUNDING_PER_GAME` a game
   of the margin: a rating rounded to a whole number (US Chess's records give whole
   post ratings) moves E by at most 0.5/400 a game (the table's steepest slope, 1/400 a
   rating point, for 0 < D <= 200);
8. `OTHER_GAMES`: US Chess counted another number of games than we did;
9. ``unexplained``.

Titles are `core.titles.title_status` over the member's sections fetched (our norm, our
post-event Regular rating, whether it is established, the OLM flag of the state after),
against US Chess's awards of the titles computed here (the seven norms titles, National
Master, Original Life Master). The history fetched may be a part of the member's: a title
US Chess awarded before the first section fetched, or with norms in sections not fetched,
is `HISTORY_BEFORE`: it cannot be decided from what was fetched, and the titles neither
side holds that norms or ratings outside it could decide are listed as undecided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from ..core.constants import DOCUMENTED, Constants
from ..core.model import SCORE, System
from ..core.norms import NORM_CODES, norm_rules_for, norms_by_pair, section_reason
from ..core.results import NORM_LEVELS, NormResult, SectionResult
from ..core.titles import RATINGS_TITLES, TITLE_NAMES, Title, TitleEvent, title_status
from ..formats.member_titles import AwardRecord, MemberTitles, NormRecord
from ..formats.ratings_api import ApiEvent, ApiSection
from .verify import EventCheck

NOT_FETCHED = "the section is not in what was fetched"
NOT_IN_SECTION = "the member is not in the fetched section"
FEWER_GAMES = "fewer than 4 games"
NOT_ELIGIBLE = "not eligible by our rule"
OPPONENT_POST = "our post-event rating of an opponent differs (norm decided by it)"
MARGIN_ROUNDING = "margin within rounding"
OTHER_GAMES = "US Chess counted other games"
UNEXPLAINED = "unexplained"
HISTORY_BEFORE = "title needs history before what was fetched"
OUR_NORMS_DIFFER = "our norms differ (see the norms)"
NOT_AWARDED = "not in US Chess's awards, though its own norms reach it"
OTHER_EVENT = "awarded at another section"
#: a rating rounded to a whole number moves E by at most 0.5 x 1/400 a game (module text)
ROUNDING_PER_GAME = 0.5 / 400
#: the titles compared: every norms title and the two that rest on ratings
COMPARED = tuple(level.api for level in NORM_LEVELS) + tuple(RATINGS_TITLES)


def status_cause(status: str) -> str:
    return f"status {status} on US Chess's side (not counted)"


@dataclass(frozen=True)
class FetchedSection:
    """A section fetched and rated (or refused): what the comparison needs of it."""

    event: str
    event_name: str
    api: ApiSection
    result: SectionResult | None  #: None: the section could not be rated
    refused: str | None = None


def fetched_sections(verified: Iterable[tuple[ApiEvent, EventCheck]]
                     ) -> list[FetchedSection]:
    """Every section of the events read and verified (`verify.verify`), with our rating."""
    return [FetchedSection(records.event.id, records.event.name, api, section.result,
                           section.refused)
            for records, check in verified
            for api, section in zip(records.sections, check.sections, strict=True)]


@dataclass(frozen=True)
class NormCheck:
    """The member's norm in one section: US Chess's record (any status) and ours."""

    event: str
    event_name: str
    section: int | None
    end: date | None
    theirs: str | None  #: the code of US Chess's record; None: no record
    status: str | None  #: its status
    ours: str | None  #: our code; None: none earned, or not computed (not fetched)
    fetched: bool
    cause: str | None  #: None where they agree
    detail: str = ""

    @property
    def agrees(self) -> bool:
        return self.cause is None


@dataclass(frozen=True)
class TitleCheck:
    key: str  #: the AwardType name
    name: str
    theirs: AwardRecord | None
    ours: Title | None
    cause: str | None
    detail: str = ""

    @property
    def agrees(self) -> bool:
        return self.cause is None


@dataclass(frozen=True)
class MemberCheck:
    member: str
    source: str
    norms: tuple[NormCheck, ...]
    titles: tuple[TitleCheck, ...]
    undecided: tuple[str, ...]  #: titles neither side holds that what was fetched cannot decide
    notes: tuple[str, ...]  #: what the reading noticed (awards not compared)


def verify_member(records: MemberTitles, source: str, fetched: Sequence[FetchedSection],
                  c: Constants = DOCUMENTED) -> MemberCheck:
    """Compare the member's norms and titles of ``records`` with ours over ``fetched``."""
    member = records.member
    played = [s for s in fetched if any(p.id == member for p in s.api.section.players)]
    keys = {(s.event, s.api.section.number) for s in fetched}
    by_key: dict[tuple[str, int | None], list[NormRecord]] = {}
    for record in records.norms:
        section = record.section
        if section is None:  # no section given: the one the member played in, if one
            mine = [s.api.section.number for s in played if s.event == record.event]
            section = mine[0] if len(mine) == 1 else None
        by_key.setdefault((record.event, section), []).append(record)
    checks: list[NormCheck] = []
    ours_by_key: dict[tuple[str, int], NormResult | None] = {}
    for s in played:
        key = (s.event, s.api.section.number)
        check, norm = _compare(s, member, _record(by_key.pop(key, [])), c)
        ours_by_key[key] = norm
        checks.append(check)
    for (event, section), found in by_key.items():
        kept = _record(found)
        assert kept is not None
        cause = NOT_IN_SECTION if (event, section) in keys else NOT_FETCHED
        checks.append(NormCheck(event, kept.event_name, section, kept.end, kept.code,
                                kept.status, None, (event, section) in keys, cause))
    checks.sort(key=lambda n: (n.end or date.min, n.event, n.section or 0))
    titles, undecided = _titles(records, played, ours_by_key, checks, c)
    return MemberCheck(member, source, tuple(checks), titles, undecided, records.notes)


def _record(found: list[NormRecord]) -> NormRecord | None:
    """The record of a section: the Active one where there are several."""
    return next((r for r in found if r.counted), found[0] if found else None)


def _member_pairs(s: FetchedSection, member: str) -> list[int]:
    return [p.pair for p in s.api.section.players if p.id == member]


def _compare(s: FetchedSection, member: str, record: NormRecord | None, c: Constants
             ) -> tuple[NormCheck, NormResult | None]:
    section = s.api.section
    theirs = record.code if record is not None else None
    status = record.status if record is not None else None
    end = section.end_date

    def check(ours: str | None, cause: str | None, detail: str = "") -> NormCheck:
        return NormCheck(s.event, s.event_name, section.number, end, theirs, status, ours,
                         True, cause, detail)

    if s.result is None:
        return check(None, f"the section could not be rated: {s.refused}"), None
    pairs = _member_pairs(s, member)
    norm = s.result.player(pairs[0]).norm
    ours = norm.code if norm is not None else None
    counted = theirs if record is not None and record.counted else None
    if ours == counted:
        return check(ours, None, norm.reason if norm is not None else ""), norm
    return check(ours, *_cause(s, pairs, record, counted, norm, c)), norm


def _cause(s: FetchedSection, pairs: list[int], record: NormRecord | None,
           counted: str | None, norm: NormResult | None, c: Constants) -> tuple[str, str]:
    """The first cause of the module's list that the records show, and its detail."""
    section = s.api.section
    ours = norm.code if norm is not None else None
    if record is not None and not record.counted and record.code == ours:
        return status_cause(record.status), ""
    games = sum(1 for p in section.players if p.pair in pairs for r in p.results
                if r.code in SCORE and r.opponent is not None)
    theirs_games = "" if record is None or record.played_games is None else \
        f"; US Chess counted {record.played_games}"
    if games < c.norm_min_games:
        return FEWER_GAMES, f"{games} rated game{'s' if games != 1 else ''} here{theirs_games}"
    if norm is None or not norm.eligible:
        return NOT_ELIGIBLE, norm.reason if norm is not None else ""
    again = _from_published(s, pairs[0], c)
    if again is not None and again.code == counted:
        return OPPONENT_POST, _opponent_detail(s, pairs)
    higher = max((NORM_CODES.index(x) for x in (ours, counted) if x is not None), default=0)
    level = norm.levels[higher] if len(norm.levels) > higher else None
    if level is not None and abs(level.margin - norm.needed) <= norm.games * ROUNDING_PER_GAME:
        return MARGIN_ROUNDING, (f"at {level.title}: S - E = {level.margin:.4f}, a norm needs "
                                 f"more than {norm.needed:g}")
    if record is not None and record.played_games is not None and \
            record.played_games != norm.games:
        return OTHER_GAMES, f"US Chess counted {record.played_games}, we counted {norm.games}"
    return UNEXPLAINED, norm.reason


def _from_published(s: FetchedSection, pair: int, c: Constants) -> NormResult | None:
    """The member's norm from the published post-event ratings instead of ours."""
    section = s.api.section
    rules = norm_rules_for(section.start_date)
    if rules is None:
        return None
    posts = {p: r.post for (p, system), r in s.api.published.items() if system is rules.system}
    reason = section_reason(section.type, section.online, section.systems or (),
                            section.start_date)
    found = norms_by_pair(section.players, posts, reason, c)
    return found.get(pair)


def _opponent_detail(s: FetchedSection, pairs: list[int]) -> str:
    """The member's opponent whose post-event Regular rating differs most, ours and
    published."""
    assert s.result is not None
    opponents = {r.opponent for p in s.api.section.players if p.pair in pairs
                 for r in p.results if r.code in SCORE and r.opponent is not None}
    worst: tuple[float, str] | None = None
    for pair in opponents:
        published = s.api.published.get((pair, System.R))
        rating = s.result.player(pair).ratings.get(System.R)
        if published is None or rating is None or rating.post is None:
            continue
        gap = abs(rating.post - published.post)
        if worst is None or gap > worst[0]:
            worst = (gap, f"pair {pair}: ours {rating.post:.2f}, published "
                          f"{published.post:.2f}")
    return worst[1] if worst else ""


# --- titles ----------------------------------------------------------------------------

def _titles(records: MemberTitles, played: Sequence[FetchedSection],
            ours_by_key: dict[tuple[str, int], NormResult | None],
            norms: Sequence[NormCheck], c: Constants
            ) -> tuple[tuple[TitleCheck, ...], tuple[str, ...]]:
    events = []
    for s in sorted(played, key=lambda x: (x.api.section.end_date, x.api.section.start_date,
                                           x.event, x.api.section.number)):
        if s.result is None:
            continue
        player = s.result.player(_member_pairs(s, records.member)[0])
        rating = player.ratings.get(System.R)
        state = rating.state_after if rating is not None else None
        norm = ours_by_key.get((s.event, s.api.section.number))
        events.append(TitleEvent(s.api.section.end_date, s.event, s.api.section.number,
                                 norm.code if norm is not None else None,
                                 rating.post if rating is not None else None,
                                 state is not None and state.established_after(
                                     c.established_after), bool(state and state.olm)))
    ours = title_status(events, None, None, c)
    first = events[0].date if events else None
    outside = [n for n in norms if n.cause == NOT_FETCHED and n.status == "Active"
               and n.theirs is not None]
    norms_differ = any(n.cause not in (None, NOT_FETCHED) for n in norms)
    awarded = {a.type: a for a in records.awards if a.type in COMPARED
               and a.category != "WinMilestone"}
    theirs_norms = title_status(_their_events(records), None, None, c)
    checks = []
    for key in COMPARED:
        theirs, mine = awarded.get(key), next((t for t in ours.titles if t.key == key), None)
        if theirs is None and mine is None:
            continue
        cause, detail = _title_cause(key, theirs, mine, first, outside, norms_differ,
                                     theirs_norms.holds(key))
        checks.append(TitleCheck(key, TITLE_NAMES[key], theirs, mine, cause, detail))
    undecided = []
    for index, level in enumerate(NORM_LEVELS):
        if level.api in awarded or ours.holds(level.api):
            continue
        counting = [n for n in outside if NORM_CODES.index(n.theirs or "") >= index]
        if counting:
            undecided.append(f"{level.title}: {len(counting)} of US Chess's norms toward it "
                             "are in sections not fetched")
    for key in RATINGS_TITLES:
        if key not in awarded and not ours.holds(key):
            undecided.append(f"{TITLE_NAMES[key]}: rests on the whole rating history, of "
                             f"which {len(events)} section(s) were fetched")
    return tuple(checks), tuple(undecided)


def _their_events(records: MemberTitles) -> list[TitleEvent]:
    """US Chess's counted norms as a history, for our title rule."""
    counted = sorted((n for n in records.norms if n.counted and n.end is not None),
                     key=lambda n: (n.end or date.min, n.event, n.section or 0))
    return [TitleEvent(n.end or date.min, n.event, n.section or 0, n.code,
                       None if n.post_rating is None else float(n.post_rating),
                       n.post_type == "Established") for n in counted]


def _title_cause(key: str, theirs: AwardRecord | None, mine: Title | None,
                 first: date | None, outside: Sequence[NormCheck], norms_differ: bool,
                 their_norms_reach: bool) -> tuple[str | None, str]:
    before = theirs is not None and theirs.date is not None and (
        first is None or theirs.date < first)
    index = next((i for i, level in enumerate(NORM_LEVELS) if level.api == key), None)
    counting = [n for n in outside if index is not None
                and NORM_CODES.index(n.theirs or "") >= index]
    if theirs is not None and mine is not None:
        if theirs.event is None or (theirs.event, theirs.section) == (mine.event, mine.section) \
                or (theirs.section is None and theirs.event == mine.event):
            return None, mine.basis
        if before or counting:
            return HISTORY_BEFORE, f"awarded {theirs.date}; the first section fetched ends {first}"
        return OTHER_EVENT, f"US Chess: {theirs.event}, ours: {mine.event}"
    if theirs is not None:
        if before or counting or first is None:
            why = (f"{len(counting)} norm(s) toward it in sections not fetched" if counting
                   else f"awarded {theirs.date}, before the first section fetched ({first})")
            return HISTORY_BEFORE, why
        if norms_differ:
            return OUR_NORMS_DIFFER, ""
        return UNEXPLAINED, ""
    assert mine is not None
    if norms_differ:
        return OUR_NORMS_DIFFER, mine.basis
    if their_norms_reach:
        return NOT_AWARDED, mine.basis
    return UNEXPLAINED, mine.basis


# --- output ----------------------------------------------------------------------------

def causes(checks: Iterable[MemberCheck]) -> Counter[str]:
    """How many norms and titles differ for each cause."""
    found: Counter[str] = Counter()
    for m in checks:
        found.update(n.cause for n in m.norms if n.cause is not None)
        found.update(t.cause for t in m.titles if t.cause is not None)
    return found


def summary(checks: Sequence[MemberCheck]) -> str:
    """One line: sections and titles compared, agreeing, and the causes of the others."""
    norms = [n for m in checks for n in m.norms]
    titles = [t for m in checks for t in m.titles]
    line = (f"{len(norms)} section norm(s) and {len(titles)} title(s) compared: "
            f"{sum(n.agrees for n in norms)} and {sum(t.agrees for t in titles)} agree")
    differ = causes(checks)
    if differ:
        line += " (" + "; ".join(f"{count} {cause}" for cause, count in
                                 differ.most_common()) + ")"
    return line


def to_dict(check: MemberCheck) -> dict[str, object]:
    """``check`` as JSON data (``uscf verify --json``)."""
    return {
        "member": check.member, "source": check.source,
        "norms": [{"event": n.event, "event_name": n.event_name, "section": n.section,
                   "end": None if n.end is None else n.end.isoformat(), "theirs": n.theirs,
                   "status": n.status, "ours": n.ours, "fetched": n.fetched,
                   "agrees": n.agrees, "cause": n.cause, "detail": n.detail}
                  for n in check.norms],
        "titles": [{"title": t.key, "name": t.name,
                    "theirs": None if t.theirs is None else {
                        "date": None if t.theirs.date is None else t.theirs.date.isoformat(),
                        "event": t.theirs.event, "section": t.theirs.section},
                    "ours": None if t.ours is None else {
                        "date": None if t.ours.date is None else t.ours.date.isoformat(),
                        "event": t.ours.event, "section": t.ours.section,
                        "basis": t.ours.basis},
                    "agrees": t.agrees, "cause": t.cause, "detail": t.detail}
                   for t in check.titles],
        "undecided": list(check.undecided), "notes": list(check.notes),
    }
