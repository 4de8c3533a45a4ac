"""PGN game files grouped into rated sections: read the tag pairs into the core model.

Only the tag pairs are read, by a small parser of our own (PGN standard 1994, §8.1 tag
pair syntax, §6 ``%`` escape lines, §8.2.5 ``{...}`` and ``;`` comments), not by
python-chess: the moves are not needed, and the notes (shared/spec/file-formats.md, "PGN
headers for events") advise keeping the core permissively licensed (python-chess is
GPL-3.0+). A game is a run of tag pairs followed by its move text; a line that starts
with ``[`` outside a comment starts or continues a tag section.

Tags used (§8.1 Seven Tag Roster, §9 supplemental):

* ``Event`` (and ``Section`` when present) groups the games into sections, in order of
  first appearance; ``Round`` places a game: ``"3"`` or ``"3.1"`` (round 3, game or board 1).
* ``White``/``Black`` name the players; a player is known by a US Chess id when the game
  gives one, else by the name (case and spacing ignored). Pair numbers are given in order
  of first appearance, White before Black.
* ``WhiteUSCF``/``BlackUSCF``: the US Chess *rating* (§9.1.2). A value of five or more
  digits is read as a member id instead, since ratings have at most four digits and ids
  eight (some exporters put the id there); ``WhiteUSCFId``/``BlackUSCFId`` give an id too.
  A rating without N reads as ``Rating(r, 26, games_known=False)``; ``1456P12`` gives N.
  It is the rating of the section's main system (R for a dual or unknown time control,
  else its one system).
* ``WhiteElo``/``BlackElo``: FIDE ratings (§9.1.2) -> the player's FIDE rating.
* ``Result``: ``1-0``, ``0-1``, ``1/2-1/2`` are rated games (W/L/D). ``*`` (unfinished) is
  skipped with a note. PGN has no forfeit result (the notes): a game whose ``Termination``
  is ``forfeit``, ``unplayed`` or ``no show`` (not ``time forfeit``, a played loss), or
  whose result is written ``+/-``, ``-/+``, ``+:-``, ``-:+``, ``+--``, ``--+``, is a forfeit
  (X/F); ``-/-``, ``--`` or ``0-0`` is a double forfeit (F/F); a forfeit drawn
  ``1/2-1/2`` is an unplayed draw (H/H, unrated).
* A player called ``BYE`` (any case) is no player: the other gets B, H or U by the result.
* ``Site`` (§8.1.1.2: where the games were played, ``?`` unknown) is the event's site
  (`core.model.EventDetails.site`), as written, when every game that gives one gives the
  same; games that give different sites leave it empty, with a note. PGN has no city,
  state, affiliate or director tags.
* ``Date``/``EventDate`` (``YYYY.MM.DD``) give the dates (a file without any takes the
  ``event_date`` argument, ``--date``, and is refused without it); ``TimeControl`` (§9.6.1, in
  seconds: ``5400+30``, ``40/7200:3600``) is turned into ``G/90+30``, ``40/120,SD/60``;
  ``Mode "ICS"`` (an Internet Chess Server) marks a section online.

A player who plays twice in one round (a double round, or ``3.1`` and ``3.2``) is given a
round for each game: round r's games fill rounds r, r+1, ... of ours, later rounds move up
by the extra ones, and each game is placed in the first of its round's slots both players
have free (games in the order of ``Round`` sub-number, then file order).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..core.model import Event, EventDetails, FideRating, Player, Rating, Result, Section, System
from .bounds import read_input
from .common import UNDATED, is_digits, systems_of, undated
from .errors import Issue, ParseError

_TAG = re.compile(r'\[\s*(?P<name>[A-Za-z0-9_+#=:-]+)\s*"(?P<value>(?:[^"\\]|\\.)*)"\s*\]')
_ROUND = re.compile(r"(?P<round>[0-9]{1,4})(?:\.(?P<sub>[0-9]{1,4}))?")
_RATING = re.compile(r"(?P<r>[0-9]{1,4})(?:\s*[Pp/]\s*(?P<n>[0-9]{1,3}))?")
_DATE = re.compile(r"(?P<y>[0-9]{4})\.(?P<m>[0-9]{2})\.(?P<d>[0-9]{2})")
RATED = {"1-0": ("W", "L"), "0-1": ("L", "W"), "1/2-1/2": ("D", "D")}
FORFEIT_WIN = {"+/-", "+:-", "+--"}
FORFEIT_LOSS = {"-/+", "-:+", "--+"}
DOUBLE_FORFEIT = {"-/-", "--", "0-0"}
FORFEIT_TERMINATIONS = {"forfeit", "byforfeit", "unplayed", "noshow", "notplayed"}
BYE_NAMES = {"bye"}
#: the bye player's code by the game's score for that player
BYE_CODE = {"W": "B", "D": "H", "L": "U"}


def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read a PGN file; the notes (skipped games, differing ratings) are dropped: use
    `load` to see them. ``event_date``: the date of games without one (a file without
    any date is refused without it); ``systems``: those of sections without a
    TimeControl we can read; ``data``: the file's bytes, if already read."""
    return load(path, event_date=event_date, systems=systems, data=data)[0]


def load(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None,
         data: bytes | None = None) -> tuple[Event, list[Issue]]:
    """Read a PGN file: the event and the notes on games that were skipped."""
    path = Path(path)
    raw = read_input(path) if data is None else data
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # the PGN standard's own character set (§4.1)
    return parse(text, str(path), event_id=path.stem, event_date=event_date, systems=systems)


def parse(text: str, source: str = "<pgn>", *, event_id: str = "",
          event_date: date | None = None,
          systems: tuple[System, ...] | None = None) -> tuple[Event, list[Issue]]:
    issues: list[Issue] = []
    games = _scan(text, issues)
    builder = _Builder(issues, systems)
    event = builder.event(games, event_id, event_date)
    if issues or event is None:
        raise ParseError(source, issues or [Issue("", "no games found: expected tag pairs "
                                                  "such as [White \"Smith, Ann\"]")])
    return event, builder.notes


# --- scanning -----------------------------------------------------------------------------


@dataclass
class _Game:
    line: int  #: line of the first tag pair
    order: int  #: position in the file
    tags: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def get(self, name: str) -> str | None:
        """A tag's value, the name matched without regard to case."""
        key = self.keys.get(name.lower())
        return None if key is None else self.tags[key].strip()

    @property
    def keys(self) -> dict[str, str]:
        return {k.lower(): k for k in self.tags}

    def where(self, name: str | None = None) -> str:
        key = self.keys.get(name.lower()) if name else None
        line = self.lines[key] if key else self.line
        return f"line {line}" + (f" ({key})" if key else "")


def _scan(text: str, issues: list[Issue]) -> list[_Game]:
    games: list[_Game] = []
    current: _Game | None = None
    in_moves = in_comment = gap = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("%"):
            continue  # §6: an escaped line
        stripped = line.strip()
        if not in_comment and stripped.startswith("["):
            # a tag section ends at a blank line (§8.1): tags after one, or after move
            # text, start the next game, even when a game has no move text at all
            if current is None or in_moves or gap:
                current = _Game(number, len(games))
                games.append(current)
                in_moves = gap = False
            _tags(stripped, number, current, issues)
            continue
        if not stripped:
            gap = current is not None and not in_moves
            continue
        if current is None:
            issues.append(Issue(f"line {number}", "move text before any tag pair: expected "
                                "[Event \"...\"] first"))
            current = _Game(number, len(games))
            games.append(current)
        in_moves = True
        in_comment = _comment_state(stripped, in_comment)
    return games


def _tags(line: str, number: int, game: _Game, issues: list[Issue]) -> None:
    pos = 0
    for match in _TAG.finditer(line):
        if line[pos:match.start()].strip():
            break
        name, value = match["name"], re.sub(r"\\(.)", r"\1", match["value"])
        if name.lower() in game.keys:
            issues.append(Issue(f"line {number}", f"tag {name} is given twice in one game "
                                f"(first on line {game.lines[game.keys[name.lower()]]})"))
        else:
            game.tags[name], game.lines[name] = value, number
        pos = match.end()
    if line[pos:].strip():
        issues.append(Issue(f"line {number}", f"malformed tag pair {line[pos:][:40]!r}: "
                            'expected [Name "value"]'))


def _comment_state(line: str, in_comment: bool) -> bool:
    """Whether a brace comment is still open after ``line`` (§8.2.5; they do not nest)."""
    for char in line:
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
        elif char == ";":
            break  # the rest of the line is a comment
    return in_comment


# --- building -----------------------------------------------------------------------------


@dataclass
class _Side:
    key: tuple[str, str]  #: ("id", ...) or ("name", ...)
    name: str
    ident: str
    rating: Rating | None
    fide: float | None


@dataclass
class _Played:
    game: _Game
    round: int
    sub: int
    white: _Side | None  #: None: a bye
    black: _Side | None
    codes: tuple[str, str]


class _Builder:
    def __init__(self, issues: list[Issue], systems: tuple[System, ...] | None = None):
        self.issues = issues
        self.given_systems = systems
        self.notes: list[Issue] = []
        self.days: dict[int, date | None] = {}

    def fail(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    def event(self, games: Sequence[_Game], event_id: str,
              event_date: date | None) -> Event | None:
        groups: dict[tuple[str, str], list[_Played]] = {}
        for game in games:
            played = self.game(game)
            if played is not None:
                key = (game.get("Event") or "", game.get("Section") or "")
                groups.setdefault(key, []).append(played)
        if not groups:
            return None
        self.days = {g.order: self.calendar_date(g) for g in games}
        days = [d for d in self.days.values() if d is not None]
        start = min(days, default=None) or event_date
        if start is None:
            self.issues.append(undated("", "Date or EventDate tags as YYYY.MM.DD"))
            start = UNDATED  # reading goes on, to report every problem
        end = max(days, default=start)
        sections = [self.section(n, key, played, start, end)
                    for n, (key, played) in enumerate(groups.items(), start=1)]
        names = list(dict.fromkeys(key[0] for key in groups))
        return Event(event_id, start, end, tuple(sections), names[0] if len(names) == 1 else "",
                     details=EventDetails(site=self.site(games)))

    def site(self, games: Sequence[_Game]) -> str:
        """The ``Site`` the games give (§8.1.1.2; ``?`` is unknown), when they all give
        the same; games that give different sites leave it empty, with a note."""
        given = list(dict.fromkeys(s for g in games if (s := g.get("Site")) not in (None, "", "?")))
        if len(given) > 1:
            shown = ", ".join(repr(s) for s in given[:3]) + (", ..." if len(given) > 3 else "")
            self.notes.append(Issue("Site", f"the games give {len(given)} sites ({shown}): "
                                    "the event's site is left empty"))
        return given[0] if len(given) == 1 else ""

    # --- one game ---------------------------------------------------------------------

    def game(self, game: _Game) -> _Played | None:
        missing = [t for t in ("White", "Black", "Result", "Round") if game.get(t) is None]
        if missing:
            self.fail(game.where(), f"game without {', '.join(missing)} tag(s): each game "
                      "needs White, Black, Result and Round")
            return None
        result = (game.get("Result") or "").replace(" ", "")
        if result == "*":
            self.notes.append(Issue(game.where("Result"), "unfinished game (*) skipped"))
            return None
        codes = self.codes(game, result)
        rnd = _ROUND.fullmatch(game.get("Round") or "")
        if rnd is None or int(rnd["round"]) == 0:
            self.fail(game.where("Round"), f"Round {game.get('Round')!r} is not a round "
                      "number: expected '3' or '3.1'")
            return None
        white, black = self.side(game, "White"), self.side(game, "Black")
        if codes is None:
            return None
        if white is None and black is None:
            self.fail(game.where("White"), "both players are BYE")
            return None
        if white and black and white.key == black.key:
            self.fail(game.where("Black"), f"{black.name!r} plays against themself")
            return None
        return _Played(game, int(rnd["round"]), int(rnd["sub"] or 0), white, black, codes)

    def codes(self, game: _Game, result: str) -> tuple[str, str] | None:
        ending = re.sub(r"[\s_-]", "", (game.get("Termination") or "").lower())
        forfeit = ending in FORFEIT_TERMINATIONS
        if result in RATED:
            white, black = RATED[result]
            if forfeit:
                unplayed = {"W": "X", "L": "F", "D": "H"}
                return unplayed[white], unplayed[black]
            return white, black
        if result in FORFEIT_WIN:
            return "X", "F"
        if result in FORFEIT_LOSS:
            return "F", "X"
        if result in DOUBLE_FORFEIT:
            return "F", "F"
        self.fail(game.where("Result"), f"Result {game.get('Result')!r} is not a game "
                  "result: expected 1-0, 0-1, 1/2-1/2, * or a forfeit (+/-, -/+, -/-)")
        return None

    def side(self, game: _Game, colour: str) -> _Side | None:
        name = " ".join((game.get(colour) or "").split())
        if name.lower() in BYE_NAMES:
            return None
        ident = game.get(f"{colour}USCFId") or game.get(f"{colour}USCFID") or ""
        rating = None
        uscf = game.get(f"{colour}USCF") or ""
        if is_digits(uscf) and len(uscf) >= 5:
            ident = ident or uscf  # an id written where the rating belongs
        elif uscf and uscf not in ("-", "?", "0"):
            rating = self.rating(uscf, game.where(f"{colour}USCF"))
        if ident and not is_digits(ident):
            self.fail(game.where(f"{colour}USCFId"), f"{ident!r} is not a US Chess id")
            ident = ""
        fide = self.fide(game, f"{colour}Elo")
        key = ("id", ident) if ident else ("name", _name_key(name))
        return _Side(key, name, ident, rating, fide)

    def rating(self, text: str, where: str) -> Rating | None:
        match = _RATING.fullmatch(text)
        if match is None:
            self.fail(where, f"{text!r} is not a US Chess rating: expected 1456 or 1456P12")
            return None
        if int(match["r"]) == 0:
            return None
        if match["n"] is None:
            return Rating(float(match["r"]), 26, games_known=False)
        return Rating(float(match["r"]), int(match["n"]))

    def fide(self, game: _Game, tag: str) -> float | None:
        text = game.get(tag) or ""
        if text in ("", "-", "?", "0"):
            return None
        if not is_digits(text) or len(text) > 4:
            self.fail(game.where(tag), f"{text!r} is not a FIDE rating: expected 1850 or -")
            return None
        return float(text)

    def calendar_date(self, game: _Game) -> date | None:
        for tag in ("Date", "EventDate"):
            match = _DATE.fullmatch(game.get(tag) or "")
            if match:
                try:
                    return date(int(match["y"]), int(match["m"]), int(match["d"]))
                except ValueError:
                    self.fail(game.where(tag), f"{game.get(tag)!r} is not a calendar date")
        return None

    # --- sections ---------------------------------------------------------------------

    def section(self, number: int, key: tuple[str, str], played: list[_Played], start: date,
                end: date) -> Section:
        days = [d for p in played if (d := self.days.get(p.game.order)) is not None]
        s_start, s_end = min(days, default=start), max(days, default=end)
        tc = self.time_control(played)
        online = any((p.game.get("Mode") or "").upper() == "ICS" for p in played)
        own = systems_of(tc, s_start, online)
        systems = own or self.given_systems
        main = System.R if not systems or System.R in systems else systems[0]
        _known_by_id(played)
        rounds = self.rounds(played)
        pairs: dict[tuple[str, str], int] = {}
        sides: dict[tuple[str, str], _Side] = {}
        for p in played:
            for side in (p.white, p.black):
                if side is not None and side.key not in pairs:
                    pairs[side.key] = len(pairs) + 1
                    sides[side.key] = side
                elif side is not None:
                    self.merge(sides[side.key], side, p.game)
        results: dict[tuple[str, str], list[Result]] = defaultdict(list)
        for p, rnd in zip(played, rounds, strict=True):
            for me, other, code in ((p.white, p.black, p.codes[0]), (p.black, p.white, p.codes[1])):
                if me is None:
                    continue
                if other is None:
                    results[me.key].append(Result(rnd, BYE_CODE[_score(p.codes[0] if me is
                                                  p.white else p.codes[1])]))
                else:  # an unplayed draw (H) names no opponent, as in US Chess reports
                    opponent = pairs[other.key] if code in "WLDXF" else None
                    results[me.key].append(Result(rnd, code, opponent))
        players = tuple(
            Player(pair=pairs[k], id=s.ident, name=s.name,
                   ratings={main: s.rating} if s.rating else {},
                   fide=FideRating(s.fide) if s.fide else None,
                   results=tuple(sorted(results[k], key=lambda r: r.round)))
            for k, s in sides.items())
        name = " / ".join(part for part in key if part)
        return Section(number=number, start_date=s_start, end_date=s_end, players=players,
                       name=name, time_control=tc, online=online,
                       systems=None if own else self.given_systems)

    def merge(self, first: _Side, again: _Side, game: _Game) -> None:
        """A player seen again: keep the first rating, note a different one."""
        if again.rating and first.rating and again.rating.rating != first.rating.rating:
            self.notes.append(Issue(game.where(), f"{again.name!r} has rating "
                                    f"{again.rating.rating:g} here but "
                                    f"{first.rating.rating:g} earlier: the first is used"))
        if first.rating is None and again.rating is not None:
            first.rating = again.rating
        if first.fide is None:
            first.fide = again.fide

    def rounds(self, played: Sequence[_Played]) -> list[int]:
        """Our round for each game: a round's games fill as many rounds as needed so that
        no player has two games in one (see the module docstring)."""
        by_round: dict[int, list[int]] = defaultdict(list)
        for i, p in enumerate(played):
            by_round[p.round].append(i)
        out = [0] * len(played)
        extra = 0
        for rnd in sorted(by_round):
            used: dict[tuple[str, str], set[int]] = defaultdict(set)
            slots = 1
            for i in sorted(by_round[rnd], key=lambda i: (played[i].sub, played[i].game.order)):
                keys = [s.key for s in (played[i].white, played[i].black) if s is not None]
                slot = 0
                while any(slot in used[k] for k in keys):
                    slot += 1
                for k in keys:
                    used[k].add(slot)
                out[i] = rnd + extra + slot
                slots = max(slots, slot + 1)
            extra += slots - 1
        return out

    def time_control(self, played: Sequence[_Played]) -> str | None:
        seen: dict[str, _Game] = {}
        for p in played:
            text = p.game.get("TimeControl")
            if text and text not in ("?", "-"):
                seen.setdefault(text, p.game)
        if len(seen) > 1:
            where = ", ".join(g.where("TimeControl") for g in seen.values())
            self.fail(where, f"the games of one section have different time controls: "
                      f"{', '.join(seen)}")
            return None
        if not seen:
            return None
        text, game = next(iter(seen.items()))
        converted = pgn_time_control(text)
        if converted is None:
            self.fail(game.where("TimeControl"), f"TimeControl {text!r} is not a PGN time "
                      "control: expected seconds such as 5400+30 or 40/7200:3600")
        return converted


def pgn_time_control(text: str) -> str | None:
    """A PGN ``TimeControl`` (§9.6.1, seconds) in the notation directors write.

    >>> pgn_time_control("5400+30"), pgn_time_control("40/7200:3600")
    ('G/90+30', '40/120,SD/60')
    """
    periods = []
    for i, field_ in enumerate(text.strip().split(":")):
        match = re.fullmatch(r"(?:(?P<moves>[0-9]{1,9})/)?(?P<secs>[0-9]{1,9})(?:\+(?P<inc>[0-9]{1,9}))?",
                             field_.strip())
        if match is None:
            return None
        minutes = f"{int(match['secs']) / 60:g}"
        head = f"{match['moves']}/{minutes}" if match["moves"] else \
            (f"G/{minutes}" if i == 0 else f"SD/{minutes}")
        periods.append(head + (f"+{match['inc']}" if match["inc"] else ""))
    return ",".join(periods) or None


def _name_key(name: str) -> str:
    """A name for matching: case, spacing and the space after the comma ignored."""
    return re.sub(r"\s*,\s*", ", ", " ".join(name.split())).casefold()


def _known_by_id(played: Sequence[_Played]) -> None:
    """A player given an id in one game and only a name in another is one player, when
    that name goes with exactly one id in the section."""
    ids: dict[str, set[str]] = defaultdict(set)
    sides = [s for p in played for s in (p.white, p.black) if s is not None]
    for side in sides:
        if side.ident:
            ids[_name_key(side.name)].add(side.ident)
    for side in sides:
        found = ids.get(_name_key(side.name), set())
        if not side.ident and len(found) == 1:
            side.ident = next(iter(found))
            side.key = ("id", side.ident)


def _score(code: str) -> str:
    return {"W": "W", "X": "W", "D": "D", "H": "D"}.get(code, "L")


