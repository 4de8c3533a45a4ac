"""A section's lineup kept with it, so that a re-rate reads it without its event JSON.

A re-rate rates every section from its key on again (office/run.py). It read each stored
event's JSON back into the model and made its sections' lineups again (core/layout.py):
about half a millisecond an event, 6 s of CPU time for the synthetic year's 11,976
events, which on two cores was as long as the rating loop itself (docs/performance.md).
``sections.lineup`` keeps, as JSON, what the lineup is made of that comes from the file:
the entrants (pair, member id, name), their rated games, the games won and drawn, the
file's rating of each row, and, for the rows the file leaves unrated, the player Step 1
reads (without the results, as `submission._travelling` sends it). With it go the
section's K (full or half), why it earns no norm (or none), and the event's pre_ratings
mode. What comes from the rules is made again when read, from the program's rule sets
(`core.layout.lineup_terms`, `RuleSet.constants`), as a lineup made from the event JSON
would be; the section's systems are those of the ``systems`` column, as stored.

A match or a foreign FIDE event (rated from its model, sections 6 and 7) keeps a text
that says so, and the loop reads its event JSON. NULL (a section stored before revision
0011 whose event JSON could not be read) or a text of another `LINEUP_FORMAT` is read
from the event JSON, as before: raise the format with any change to how a lineup is
made from a section (core/layout.lineup, core/steps.merge_entrants), and the texts
stored before it are not used (`uscf db upgrade` writes them again; a test holds the
text read back to the lineup made from the model, for every real section).
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterator
from datetime import date
from itertools import pairwise
from typing import Any

from ..core.layout import FileRatings, Lineup, lineup_terms
from ..core.model import (
    CfcRating,
    FideRating,
    InitialRating,
    MatchChange,
    Player,
    Rating,
    System,
    player_of_fields,
    rating_fields,
    rating_of_fields,
)
from ..core.pre_event import PreRatings
from ..core.rules import rules_for

#: the version of the text: raise it with any change to how a lineup is made
LINEUP_FORMAT = 1
_DATE_AT = 2  #: where a rating's fields hold its date, and its match changes
_CHANGES_AT = 13
#: each field's value where the file gives none, as JSON keeps it (rating, N and date are
#: always kept): a rating's fields are kept without the last ones that have these
_DEFAULTS: tuple[Any, ...] = (None, None, None, *[None] * 8, False, None, [], True)
#: a game's score as the text keeps it, a character a game (a float's text costs more to
#: write than the rest of the lineup)
_HALVES = {1.0: "2", 0.5: "1", 0.0: "0"}
_SCORES = {text: score for score, text in _HALVES.items()}
#: the fields after the date of a rating that has nothing more, as a `Rating` holds them
_USUAL: tuple[Any, ...] = (*[None] * 8, False, None, (), True)


def lineup_text(laid: Lineup | None, norm_reason: str | None, mode: PreRatings) -> str:
    """The text ``sections.lineup`` keeps of a section's lineup (None: a section rated
    from its model)."""
    if laid is None:
        return json.dumps({"format": LINEUP_FORMAT, "model": True, "mode": mode.value,
                           "norm_reason": norm_reason})
    return json.dumps(separators=(",", ":"), obj={
        "format": LINEUP_FORMAT, "mode": mode.value, "half": laid.terms[0][0],
        "norm_reason": norm_reason, "ids": laid.ids, "names": laid.names,
        "counts": _packed(laid.pairs, laid.last, laid.won, laid.drawn, laid.opponent),
        "score": "".join(_HALVES[x] for x in laid.score),
        "ratings": [_fields_out(item) for item in _items(laid)],
        "unrated": [[e, *_player_out(p)] for e, p in laid.unrated.items()]})


class StoredLineup:
    """A section's lineup as ``sections.lineup`` keeps it, read (`read_lineup`)."""

    __slots__ = ("lineup", "norm_reason", "mode")

    def __init__(self, lineup: Lineup | None, norm_reason: str | None, mode: PreRatings):
        self.lineup = lineup  #: None: a section rated from its model
        self.norm_reason = norm_reason
        self.mode = mode


def read_lineup(text: str | None, systems: tuple[System, ...], start: date
                ) -> StoredLineup | None:
    """The lineup of a section rated in ``systems`` from ``start``, from its text; None
    where there is none to read: NULL, a text of another format, or one that cannot be
    read (the section is then read from its event JSON, which the lineup is made from)."""
    if text is None:
        return None
    try:
        return _read(json.loads(text), systems, start)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, struct.error):
        return None


def _read(data: Any, systems: tuple[System, ...], start: date) -> StoredLineup | None:
    if not isinstance(data, dict) or data.get("format") != LINEUP_FORMAT:
        return None
    mode = PreRatings(data["mode"])
    if data.get("model"):
        return StoredLineup(None, data["norm_reason"], mode)
    rules = rules_for(start)
    ids, names = tuple(data["ids"]), tuple(data["names"])
    size = len(ids)
    counts = _unpacked(data["counts"])
    last, opponent = counts[size:2 * size], counts[4 * size:]
    score = tuple(map(_SCORES.__getitem__, data["score"]))
    ratings = tuple(map(_kept_fields, data["ratings"]))
    unrated = {e: _player_in(values) for e, *values in data["unrated"]}
    if not _whole(ids, names, last, opponent, score, ratings, len(systems)) or any(
            row % size not in unrated for row, r in enumerate(ratings) if r is None):
        return None
    laid = Lineup(
        systems, lineup_terms(data["half"], systems, rules), counts[:size], ids, names,
        (0, *last[:-1]) if size else (), last, opponent, score, counts[2 * size:3 * size],
        counts[3 * size:4 * size], StoredRatings.of_fields(ratings), unrated, rules.constants)
    return StoredLineup(laid, data["norm_reason"], mode)


def _whole(ids: tuple[Any, ...], names: tuple[Any, ...], last: tuple[int, ...],
           opponent: tuple[int, ...], score: tuple[float, ...], ratings: tuple[Any, ...],
           systems: int) -> bool:
    """Whether a text's parts fit together as the lineup it was written from: as many
    names as entrants, each entrant's games after the one before, a score and an
    opponent among them for each game, a rating (or none) for each row (and, for a row
    without, the player Step 1 reads: checked by the caller)."""
    size = len(ids)
    games = last[-1] if size else 0
    return (len(names) == size and all(isinstance(i, str) for i in ids)
            and len(last) == size and len(opponent) == games == len(score)
            and all(a <= b for a, b in pairwise((0, *last)))
            and (not opponent or 0 <= min(opponent) and max(opponent) < size)
            and len(ratings) == size * systems)


class StoredRatings(FileRatings):
    """A stored lineup's file ratings: each kept as its fields as the text holds them
    (`_kept_fields`: the date as ISO text, the match changes as pairs), and made a
    `Rating` only when read. The rating loop reads the values of most of them without
    making them (`core.layout.rated_file_row`, which reads neither the date nor the
    match changes): in a year's re-rate, making each of them took a third of the time
    of reading the stored lineups."""

    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(map(_made, self.items[index]))
        return _made(self.items[index])

    def __iter__(self) -> Iterator[Rating | None]:
        return map(_made, self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a `FileRatings` of the ratings' fields."""
        return FileRatings.of_fields, (tuple(_fields_in(item) for item in self.items),)


def _packed(*columns: tuple[int, ...]) -> str:
    """Whole numbers (pair numbers, indexes of games and entrants, counts of games) as
    the text keeps them: 32-bit little-endian, in Base64. Written as JSON numbers, they
    were half the time of writing a lineup's text."""
    values = [v for column in columns for v in column]
    return base64.b64encode(struct.pack(f"<{len(values)}i", *values)).decode("ascii")


def _unpacked(text: str) -> tuple[int, ...]:
    raw = base64.b64decode(text, validate=True)
    return struct.unpack(f"<{len(raw) // 4}i", raw)


def _items(laid: Lineup) -> tuple[Rating | tuple[Any, ...] | None, ...]:
    ratings = laid.ratings
    return ratings.items if isinstance(ratings, FileRatings) else tuple(ratings)


def _fields_out(item: Rating | tuple[Any, ...] | None) -> list[Any] | None:
    """A rating's fields (`model.rating_fields`) as JSON values, without the last ones
    the file did not give (`_DEFAULTS`)."""
    if item is None:
        return None
    fields = rating_fields(item) if isinstance(item, Rating) else item
    day = fields[_DATE_AT]
    if fields[_DATE_AT + 1:] == _USUAL:  # the file gives the rating, N and date alone
        return [fields[0], fields[1], day.isoformat() if isinstance(day, date) else day]
    values = list(fields)
    if isinstance(day, date):
        values[_DATE_AT] = day.isoformat()
        values[_CHANGES_AT] = [[c.date.isoformat(), c.change] for c in values[_CHANGES_AT]]
    while len(values) > _DATE_AT + 1 and _is_default(values[-1], _DEFAULTS[len(values) - 1]):
        values.pop()
    return values


def _is_default(value: Any, default: Any) -> bool:
    """``value`` is ``default`` itself (not an equal value of another type: 0 is a count
    where None is unknown, and True is not 1)."""
    return type(value) is type(default) and value == default


def _kept_fields(values: list[Any] | None) -> tuple[Any, ...] | None:
    """A rating's fields from the text: every field, the date still text."""
    if values is None:
        return None
    return tuple(values) + _DEFAULTS[len(values):]


def _fields_in(values: Any) -> tuple[Any, ...] | None:
    """`_kept_fields` with the date and the match changes made."""
    if values is None:
        return None
    day = values[_DATE_AT]
    return (*values[:_DATE_AT], None if day is None else date.fromisoformat(day),
            *values[_DATE_AT + 1:_CHANGES_AT],
            tuple(MatchChange(date.fromisoformat(d), c) for d, c in values[_CHANGES_AT]),
            *values[_CHANGES_AT + 1:])


def _made(item: Any) -> Rating | None:
    """The rating of a `_kept_fields` item (None: none)."""
    fields = _fields_in(item)
    return None if fields is None else rating_of_fields(*fields)


def _rating(values: list[Any]) -> Rating:
    made = _made(_kept_fields(values))
    assert made is not None
    return made


def _player_out(p: Player) -> list[Any]:
    """A player Step 1 reads (its results are not kept), as JSON values."""
    return [p.pair, p.id, p.name, None if p.birth_date is None else p.birth_date.isoformat(),
            p.adult, [[s.value, _fields_out(r)] for s, r in p.ratings.items()],
            [[s.value, i.rating, i.games] for s, i in p.initial.items()],
            None if p.fide is None else [p.fide.rating, _day(p.fide.date)],
            None if p.cfc is None else [p.cfc.rating, _day(p.cfc.date),
                                        p.cfc.canadian_resident]]


def _player_in(values: list[Any]) -> Player:
    pair, ident, name, birth, adult, ratings, initial, fide, cfc = values
    return player_of_fields(
        pair, ident, name, None if birth is None else date.fromisoformat(birth), adult,
        {System(s): _rating(r) for s, r in ratings},
        {System(s): InitialRating(r, g) for s, r, g in initial},
        None if fide is None else FideRating(fide[0], _date_in(fide[1])),
        None if cfc is None else CfcRating(cfc[0], _date_in(cfc[1]), cfc[2]), ())


def _day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _date_in(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)
