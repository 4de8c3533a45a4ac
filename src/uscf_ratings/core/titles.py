"""The titles a member holds on a date, and the norms toward each level.

From ../shared/spec/titles.md, "Titles":

- **Norms-based titles** (4th Category to Senior Life Master): five norms at a level earn its
  title; a norm at a higher level also counts at every lower level. Every title needs an
  established rating; Candidate Master, Life Master and Senior Life Master also need an
  established rating at the level, at some point (before or after the norms). A title is
  earned at the event where the last of its conditions is met, and is for life.
- **National Master**: the first established Regular rating of 2200 or more.
- **Original Life Master**: an established Regular rating above 2200 kept over 300 rated games
  (sections 5 of the rating texts); the rating state carries it (`Rating.olm`), as it sets a
  floor.

The ratings are Regular ratings, the system norms are earned in. A member's history comes
as `TitleEvent` values in rating order, starting from what an imported history or member list
says was already earned (`Earned`). Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from .constants import DOCUMENTED, Constants
from .norms import LEVEL_COUNT, NORM_CODES, norm_level
from .results import NORM_LEVELS


@dataclass(frozen=True)
class TitleEvent:
    """One rated Regular section of a member: the norm it earned and the rating after it."""

    date: date  #: the section's end date
    event: str
    section: int
    norm: str | None  #: the crosstable's code, or None
    rating: float | None  #: the Regular post-event rating
    established: bool  #: whether that rating is established
    olm: bool = False  #: whether the rating state after it holds the OLM title


@dataclass(frozen=True)
class Earned:
    """What was earned before the history starts (an imported history, a member list):
    titles with their dates where known, and norms by level code (norms at that level,
    not counting higher ones)."""

    titles: Mapping[str, date | None] = field(default_factory=dict)  #: AwardType name -> date
    norms: Mapping[str, int] = field(default_factory=dict)  #: code -> count
    #: the highest established Regular rating reached before, where known
    peak: float | None = None


@dataclass(frozen=True)
class Title:
    """A title held: its name in US Chess's records (AwardType), when and where it was
    earned, and why."""

    key: str  #: "CandidateMaster", "NationalMaster", "OriginalLifeMaster", ...
    name: str
    category: str  #: "NormsTitle" or "RatingsTitle"
    date: date | None
    event: str | None
    section: int | None
    basis: str


@dataclass(frozen=True)
class NormEarned:
    """Norms counted toward a level: where one was earned and at which level, or how many
    an import carried at that level."""

    date: date | None
    event: str | None  #: None for norms carried from an import
    section: int | None
    code: str
    count: int = 1  #: norms this entry stands for (an import's count at one level)


@dataclass(frozen=True)
class LevelProgress:
    """The norms toward one level's title: how many count (at the level or above), how many
    it needs, which events earned them, and what the title still waits for."""

    code: str
    title: str
    level: float
    norms: int
    needed: int
    earned: tuple[NormEarned, ...]
    held: bool
    waiting: str | None  #: what is missing once the norms are there, or None


@dataclass(frozen=True)
class TitleStatus:
    """Every title held on a date, and the progress toward each norms-based title."""

    titles: tuple[Title, ...]
    progress: tuple[LevelProgress, ...]

    @property
    def highest_norms_title(self) -> Title | None:
        norms_titles = [t for t in self.titles if t.category == "NormsTitle"]
        order = [level.api for level in NORM_LEVELS]
        return max(norms_titles, key=lambda t: order.index(t.key), default=None)

    def holds(self, key: str) -> bool:
        return any(t.key == key for t in self.titles)


NATIONAL_MASTER = ("NationalMaster", "National Master")
ORIGINAL_LIFE_MASTER = ("OriginalLifeMaster", "Original Life Master")
RATINGS_TITLES = dict((NATIONAL_MASTER, ORIGINAL_LIFE_MASTER))
#: every title's AwardType name to its name in words
TITLE_NAMES: dict[str, str] = {level.api: level.title for level in NORM_LEVELS} | RATINGS_TITLES


def title_status(events: Sequence[TitleEvent], as_of: date | None = None,
                 earned: Earned | None = None, c: Constants = DOCUMENTED) -> TitleStatus:
    """The titles held after ``events`` (in rating order) up to ``as_of`` (every event when
    None), starting from ``earned``."""
    held, norms, waiting = _walk(events, as_of, earned or Earned(), c)
    progress = []
    for index, level in enumerate(NORM_LEVELS):
        counted = tuple(n for i in range(index, LEVEL_COUNT) for n in norms[i])
        progress.append(LevelProgress(
            level.code, level.title, norm_level(index, c), sum(n.count for n in counted),
            int(c.title_norms),
            counted, level.api in held, None if level.api in held else waiting[index]))
    return TitleStatus(_in_order(held), tuple(progress))


def titles_held(events: Sequence[TitleEvent], c: Constants = DOCUMENTED) -> tuple[Title, ...]:
    """The titles of `title_status` after every one of ``events``, with nothing earned
    before, without the progress toward each level (an experiment counts the titles of
    thousands of members a variant)."""
    return _in_order(_walk(events, None, Earned(), c)[0])


def _in_order(held: dict[str, Title]) -> tuple[Title, ...]:
    """The titles by date, then from the lowest norms title to the ratings titles."""
    order = [level.api for level in NORM_LEVELS] + list(RATINGS_TITLES)
    return tuple(sorted(held.values(), key=lambda t: (
        t.date or date.min, order.index(t.key) if t.key in order else len(order))))


def _walk(events: Sequence[TitleEvent], as_of: date | None, earned: Earned, c: Constants
          ) -> tuple[dict[str, Title], list[list[NormEarned]], list[str | None]]:
    """The titles held by key, the norms earned at each level and what each level's title
    waits for, after ``events`` up to ``as_of``, from ``earned``."""
    held: dict[str, Title] = {
        key: Title(key, TITLE_NAMES.get(key, key),
                   "RatingsTitle" if key in RATINGS_TITLES else "NormsTitle",
                   day, None, None, "carried from an import")
        for key, day in earned.titles.items()
        if day is None or as_of is None or day <= as_of}  # a dated title from its date on
    norms: list[list[NormEarned]] = [
        [NormEarned(None, None, None, code, earned.norms[code])] if earned.norms.get(code)
        else [] for code in NORM_CODES]
    #: norms at each level (not counting higher ones): a level's count is the sum from it up
    at_level = [sum(n.count for n in level) for level in norms]
    peak = earned.peak
    established = peak is not None
    waiting: list[str | None] = [None] * LEVEL_COUNT

    def award_norms_titles(event: TitleEvent | None) -> None:
        """The norms-based titles whose conditions all hold after ``event`` (None: on what
        the import carried, before the first event)."""
        if sum(at_level) < c.title_norms:
            return  # the lowest level counts every norm: no level has enough
        for index, level in enumerate(NORM_LEVELS):
            count = sum(at_level[index:])
            if level.api in held or count < c.title_norms:
                continue
            waiting[index] = _missing(index, established, peak, c)
            if waiting[index] is not None:
                continue
            basis = (f"{count} norms at {norm_level(index, c):.0f} or above"
                     + (f", an established rating of {peak:.0f}"
                        if level.needs_rating and peak is not None else ""))
            held[level.api] = (
                _at((level.api, level.title), "NormsTitle", event, basis) if event is not None
                else Title(level.api, level.title, "NormsTitle", None, None, None,
                           basis + " (carried from an import)"))

    award_norms_titles(None)
    for event in events:
        if as_of is not None and event.date > as_of:
            break
        if event.norm is not None:
            level_index = NORM_CODES.index(event.norm)
            norms[level_index].append(
                NormEarned(event.date, event.event, event.section, event.norm))
            at_level[level_index] += 1
        if event.established and event.rating is not None:
            established = True
            peak = event.rating if peak is None else max(peak, event.rating)
            if event.rating >= c.national_master and NATIONAL_MASTER[0] not in held:
                held[NATIONAL_MASTER[0]] = _at(NATIONAL_MASTER, "RatingsTitle", event,
                                               f"an established Regular rating of "
                                               f"{event.rating:.0f}")
        if event.olm and ORIGINAL_LIFE_MASTER[0] not in held:
            held[ORIGINAL_LIFE_MASTER[0]] = _at(
                ORIGINAL_LIFE_MASTER, "RatingsTitle", event,
                f"an established Regular rating above {c.olm_floor:.0f} kept over "
                f"{c.olm_games:.0f} rated games")
        award_norms_titles(event)
    return held, norms, waiting


def _missing(index: int, established: bool, peak: float | None, c: Constants) -> str | None:
    """What a level's title still needs once its norms are there, or None."""
    at = norm_level(index, c)
    if NORM_LEVELS[index].needs_rating and (peak is None or peak < at):
        return f"waiting for an established rating of {at:.0f}"
    if not established:
        return "waiting for an established rating"
    return None


def _at(title: tuple[str, str], category: str, event: TitleEvent, basis: str) -> Title:
    return Title(title[0], title[1], category, event.date, event.event, event.section,
                 f"{basis} ({event.event}, section {event.section})")
