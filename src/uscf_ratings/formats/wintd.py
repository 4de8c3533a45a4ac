"""WinTD's JSON tournament records (WinTD 5 ``.ptoz`` files): read them into the core model.

Source: the JSON Schemas WinTD publishes (shared/spec/file-formats.md; estima.com/chess/
wintdhelp/topics/schemas.html, jsonfiles.html, base.html, tnmt.html, section.html,
game.html). No real file was available, so the reader follows the schemas exactly:

* A tournament file is a zip "with a single internal file, always called 'Json'"
  (jsonfiles.html); the plain JSON is accepted too.
* The JSON has three arrays: ``sections``, ``players`` and ``games``. References are
  zero-based subscripts: ``players[i].tnmt.sectionID`` into ``sections``, a game's ``p1`` and
  ``p2`` into ``players``, ``players[i].tnmt.games[k]`` (round k+1) into ``games``; -1 means
  none (schemas.html).
* A player is ``{"base": {...}, "tnmt": {...}, ...}``: ``base.name`` ("last, first"),
  ``base.id``, ``base.rating`` (the section's main rating), ``base.type`` (T is a team);
  ``tnmt.sectionID`` (-1 deleted, -2 member of a team), ``tnmt.status`` (-1 deleted),
  ``tnmt.pairno`` (one-based), ``tnmt.games``.
* A section: ``title``, ``TC``, ``USCFratable`` (0/1), ``gamesPerMatch`` (games per paired
  round), ``RRCount`` (round-robin player count), ``mainRating`` (0 user values, 1 US
  Chess Regular, 2 FIDE Standard, others four-digit codes), ``id`` (-1 deleted).
* A game: ``p1``, ``p2`` (-1: a bye for the other player), ``r1``, ``r2`` (each player's
  round), ``result``, ``split``, ``type`` (0 standard game, 2 multigame match, 4 a game of a
  match), ``sequence`` (a match game's zero-based place in its match).

``result`` codes (game.html) and the US Chess codes they give (first player / second):

======  =============================================  ==============
+1      first player wins                              W / L
-1      second player wins                             L / W
0       draw                                           D / D
+2/-2   win by forfeit                                 X / F, F / X
+3      first player gets a pairing-allocated bye      B
-98     double forfeit loss                            F / F
+98     unplayed draw                                  H / H (unrated)
99      no result yet                                  U / U
======  =============================================  ==============

A bye other than +3 is a game with the other player -1 and result +1/0/-1 from the bye
player's side as first player (B, H, U); with ``p1`` = -1 the signs are the second
player's. A ``split`` result (-1: the result counts for the first player only, +1: for the
second only) is not a mirrored game, so it is not rated: the player it counts for gets X,
F or H, the other U.

Double-game rounds (``gamesPerMatch`` = g > 1): a player's round points at a multigame
match (``type`` 2) whose games are separate records (``type`` 4) with the same two players
and rounds, ordered by ``sequence``. Each game is rated in its own round: round r game s
becomes round (r - 1)·g + s + 1; a bye or unplayed round fills all g rounds. The link from
a match to its games is by players and rounds, because match.json is not published.

Decisions where the schemas are silent (docs/formats.md repeats them): the tournament's
own name and dates are not in the published schemas (nor its site, affiliate or
directors: the event's details stay empty), so ``title`` or ``name`` and
``beginDate``/``endDate`` (YYYY-MM-DD or MM/DD/YYYY) are read when present, else
``event_date`` (``--date``); a file with neither is refused. The event id is the file
name. ``base.rating`` has no N: it is
filed under the section's main system (R for a dual or unknown time control, else its
one system) as ``Rating(r, 26, games_known=False)``, or as the FIDE rating when
``mainRating`` is 2. Sections with ``USCFratable`` 0 are left out
(US Chess does not rate them); team-v-team sections are refused with an issue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..core.model import Event, FideRating, Player, Rating, Result, Section, SectionType, System
from ..core.validate import MAX_RATING
from .archive import Reader as archive_reader
from .bounds import read_input
from .common import UNDATED, kind_of, load_json, systems_of, undated
from .errors import Issue, ParseError

#: result code -> (first player's code, second player's code) for a game between two players.
PAIRED = {1: ("W", "L"), -1: ("L", "W"), 0: ("D", "D"), 2: ("X", "F"), -2: ("F", "X"),
          -98: ("F", "F"), 98: ("H", "H"), 99: ("U", "U")}
#: result code -> code of the player with a bye (as first player); +3 is the pairing bye.
#: A forfeit code against nobody is a forfeit without an opponent (X or F).
BYE = {3: "B", 1: "B", 0: "H", -1: "U", 99: "U", 2: "X", -2: "F", -98: "F", 98: "H"}
#: what a split result leaves the player it counts for (unrated: the game is not mirrored).
SPLIT = {"W": "X", "X": "X", "L": "F", "F": "F", "D": "H", "H": "H", "U": "U"}
STANDARD, MULTIGAME, MATCH_GAME = 0, 2, 4
#: a sanity bound: more games per paired round than any event plays is a broken file
MAX_GAMES_PER_ROUND = 10
FIDE_STANDARD = 2


def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read a WinTD tournament file (zipped ``.ptoz`` or its JSON). ``event_date``: the
    date of a file that gives none (refused without it); ``systems``: those of sections
    without a time control we can read; ``data``: the file's bytes, if already read."""
    path = Path(path)
    raw = read_input(path) if data is None else data
    source = str(path)
    if raw[:4] == b"PK\x03\x04":
        raw = _unzip(raw, source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ParseError(source, [Issue("", f"not UTF-8 text ({error.reason} at byte "
                                        f"{error.start})")]) from None
    return parse(text, source, event_id=path.stem, event_date=event_date, systems=systems)


def _unzip(raw: bytes, source: str) -> bytes:
    """The single internal file, "always called 'Json'" (jsonfiles.html), unpacked within
    the caps (`formats.archive`)."""
    reader = archive_reader(raw, source)
    names = [info.filename for info in reader.infolist()]
    name = "Json" if "Json" in names else (names[0] if len(names) == 1 else None)
    if name is None:
        raise ParseError(source, [Issue("zip", "expected one internal file called "
                                        f"'Json', found {names}")])
    return reader.read(reader.archive.getinfo(name))


def claims(text: str) -> bool:
    """Whether the start of a JSON text looks like WinTD records (for sniffing)."""
    return '"tnmt"' in text or ('"p1"' in text and '"r1"' in text and '"games"' in text)


def parse(text: str, source: str = "<wintd>", *, event_id: str = "",
          event_date: date | None = None, systems: tuple[System, ...] | None = None) -> Event:
    data = load_json(text, source)
    reader = _Reader(systems)
    event = reader.event(data, event_id, event_date)
    if reader.issues or event is None:
        raise ParseError(source, reader.issues)
    return event


@dataclass(frozen=True)
class _Entrant:
    index: int  #: position in ``players``
    pair: int
    base: Mapping[str, Any]
    games: list[Any]


class _Reader:
    def __init__(self, systems: tuple[System, ...] | None = None) -> None:
        self.given_systems = systems
        self.issues: list[Issue] = []
        self.games: list[Any] = []
        self.players: list[Any] = []

    def fail(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    # --- event --------------------------------------------------------------------------

    def event(self, data: Any, event_id: str, event_date: date | None) -> Event | None:
        if not isinstance(data, dict):
            self.fail("(top level)", "expected an object with 'sections', 'players' and "
                      f"'games', found {kind_of(data)}")
            return None
        arrays = {}
        for key in ("sections", "players", "games"):
            value = data.get(key, [] if key == "games" else None)
            if not isinstance(value, list):
                self.fail(key, "missing: expected a list" if value is None
                          else f"expected a list, found {kind_of(value)}")
                value = []
            arrays[key] = value
        self.players, self.games = arrays["players"], arrays["games"]
        start = self.calendar_date(data.get("beginDate"), "beginDate")
        end = self.calendar_date(data.get("endDate"), "endDate")
        start = start or end or event_date
        if start is None:
            self.issues.append(undated("beginDate", "beginDate or endDate"))
            start = UNDATED  # reading goes on, to report every problem
        end = end or start
        name = data.get("title", data.get("name", ""))
        if not isinstance(name, str):
            self.fail("title", f"expected text, found {kind_of(name)}")
            name = ""
        members = self.by_section(len(arrays["sections"]))
        sections = [self.section(s, i, members.get(i, []), start, end)
                    for i, s in enumerate(arrays["sections"])]
        numbered = [s for s in sections if s is not None]
        numbered = [_renumber(s, n) for n, s in enumerate(numbered, start=1)]
        return Event(event_id, start, end, tuple(numbered), name.strip())

    def by_section(self, count: int) -> dict[int, list[_Entrant]]:
        out: dict[int, list[_Entrant]] = {}
        for i, p in enumerate(self.players):
            where = f"players[{i}]"
            if not isinstance(p, dict):
                self.fail(where, f"expected a player object, found {kind_of(p)}")
                continue
            base, tnmt = p.get("base"), p.get("tnmt")
            if not isinstance(base, dict) or not isinstance(tnmt, dict):
                self.fail(where, "expected 'base' and 'tnmt' objects (base.json, tnmt.json)")
                continue
            section = self.integer(tnmt, "sectionID", f"{where}.tnmt")
            if section is None or tnmt.get("status", 0) == -1 or section == -1:
                continue  # deleted (tnmt.json: -1 is deleted)
            if section == -2 or base.get("type") == "T" or "members" in tnmt:
                self.fail(f"{where}.tnmt.sectionID", "team-v-team sections are not read: "
                          "rate them from the US Chess report instead")
                continue
            if not 0 <= section < count:
                self.fail(f"{where}.tnmt.sectionID", f"section {section} does not exist "
                          f"(there are {count} sections)")
                continue
            pair = self.integer(tnmt, "pairno", f"{where}.tnmt")
            games = tnmt.get("games", [])
            if not isinstance(games, list):
                self.fail(f"{where}.tnmt.games", f"expected a list, found {kind_of(games)}")
                games = []
            if pair is None or pair < 1:
                if any(g != -1 for g in games):
                    self.fail(f"{where}.tnmt.pairno", "a player with games needs a pairing "
                              "number (1, 2, ...)")
                continue
            out.setdefault(section, []).append(_Entrant(i, pair, base, games))
        return out

    # --- sections -----------------------------------------------------------------------

    def section(self, s: Any, index: int, entrants: list[_Entrant], start: date,
                end: date) -> Section | None:
        where = f"sections[{index}]"
        if not isinstance(s, dict):
            self.fail(where, f"expected a section object, found {kind_of(s)}")
            return None
        if s.get("id", index) == -1 or s.get("USCFratable", 1) == 0:
            return None  # deleted, or not rated by US Chess (section.json)
        per_match = s.get("gamesPerMatch", 1)
        if not isinstance(per_match, int) or isinstance(per_match, bool) \
                or not 1 <= per_match <= MAX_GAMES_PER_ROUND:
            self.fail(f"{where}.gamesPerMatch", f"expected 1, 2, ... {MAX_GAMES_PER_ROUND}, "
                      f"found {per_match!r}")
            per_match = 1
        tc = s.get("TC") or None
        if tc is not None and not isinstance(tc, str):
            self.fail(f"{where}.TC", f"expected text, found {kind_of(tc)}")
            tc = None
        own = systems_of(tc, start)
        systems = own or self.given_systems
        main = System.R if not systems or System.R in systems else systems[0]
        pairs = {e.index: e.pair for e in entrants}
        self.check_pairs(entrants)
        fide_main = s.get("mainRating") == FIDE_STANDARD
        players = tuple(self.player(e, pairs, per_match, main, fide_main) for e in entrants)
        rr = s.get("RRCount", 0)
        return Section(
            number=index + 1, start_date=start, end_date=end, players=players,
            name=str(s.get("title") or s.get("abbrev") or "").strip(), time_control=tc,
            type=SectionType.ROUND_ROBIN if isinstance(rr, int) and rr > 0 else SectionType.SWISS,
            systems=None if own else self.given_systems,
        )

    def check_pairs(self, entrants: list[_Entrant]) -> None:
        seen: dict[int, int] = {}
        for e in entrants:
            if e.pair in seen:
                self.fail(f"players[{e.index}].tnmt.pairno", f"pairing number {e.pair} is "
                          f"already used by players[{seen[e.pair]}] in this section")
            seen.setdefault(e.pair, e.index)

    # --- players and games --------------------------------------------------------------

    def player(self, e: _Entrant, pairs: Mapping[int, int], per_match: int,
               main: System, fide_main: bool) -> Player:
        where = f"players[{e.index}]"
        rating = e.base.get("rating", 0)
        if not isinstance(rating, (int, float)) or isinstance(rating, bool) \
                or not 0 <= rating <= MAX_RATING:
            self.fail(f"{where}.base.rating", f"expected a rating (a number >= 0), "
                      f"found {rating!r}")
            rating = 0
        ratings: dict[System, Rating] = {}
        fide = None
        if rating > 0 and fide_main:
            fide = FideRating(float(rating))
        elif rating > 0:
            ratings = {main: Rating(float(rating), 26, games_known=False)}
        results: list[Result] = []
        for k, g in enumerate(e.games):
            results.extend(self.round(e, k + 1, g, pairs, per_match, f"{where}.tnmt.games[{k}]"))
        name, ident = e.base.get("name", ""), e.base.get("id", "")
        return Player(pair=e.pair, id=str(ident).strip() if isinstance(ident, (str, int)) else "",
                      name=name.strip() if isinstance(name, str) else "", ratings=ratings,
                      fide=fide, results=tuple(results))

    def round(self, e: _Entrant, rnd: int, g: Any, pairs: Mapping[int, int], per_match: int,
              where: str) -> list[Result]:
        """The results of one paired round of player ``e`` (``per_match`` rounds of ours)."""
        if g == -1:
            return []
        game = self.game(g, where)
        if game is None:
            return []
        side = self.side(e, game, g, rnd, where)
        if side is None:
            return []
        first = (rnd - 1) * per_match + 1
        if game.get("type") == MULTIGAME:
            legs = self.match_games(game, g, where)
            return [r for s, leg in legs
                    if (r := self.result(e, leg, first + s, pairs, where)) is not None]
        single = self.result(e, game, first, pairs, where)
        if single is None:
            return []
        if single.opponent is None and per_match > 1:  # a bye or unplayed round fills them all
            return [Result(first + s, single.code) for s in range(per_match)]
        return [single]

    def game(self, g: Any, where: str) -> dict[str, Any] | None:
        if not isinstance(g, int) or isinstance(g, bool) or not 0 <= g < len(self.games):
            self.fail(where, f"game {g!r} is not a position in 'games' "
                      f"(0..{len(self.games) - 1}, or -1 for none)")
            return None
        game = self.games[g]
        if not isinstance(game, dict):
            self.fail(f"games[{g}]", f"expected a game object, found {kind_of(game)}")
            return None
        for key in ("p1", "p2", "r1", "r2", "result", "type"):  # required by game.json
            if not isinstance(game.get(key), int) or isinstance(game.get(key), bool):
                self.fail(f"games[{g}].{key}", "missing: expected a whole number"
                          if key not in game else f"expected a whole number, found "
                          f"{game[key]!r}")
                return None
        return game

    def side(self, e: _Entrant, game: Mapping[str, Any], g: int, rnd: int,
             where: str) -> int | None:
        """1 or 2: which player of the game ``e`` is; checks the round too."""
        for side in (1, 2):
            if game[f"p{side}"] == e.index:
                if game[f"r{side}"] != rnd:
                    self.fail(where, f"games[{g}] is round {game[f'r{side}']} for this "
                              f"player, but is listed as round {rnd}")
                    return None
                return side
        self.fail(where, f"games[{g}] is between players {game['p1']} and {game['p2']}, "
                  f"not players[{e.index}]")
        return None

    def match_games(self, match: Mapping[str, Any], g: int,
                    where: str) -> list[tuple[int, dict[str, Any]]]:
        """The games (type 4) of a multigame match, with their ``sequence``."""
        ends = _ends(match)
        legs = []
        for i, leg in enumerate(self.games):
            if isinstance(leg, dict) and leg.get("type") == MATCH_GAME and _ends(leg) == ends:
                seq = leg.get("sequence", 0)
                if self.game(i, where) is not None and isinstance(seq, int):
                    legs.append((seq, leg))
        if not legs:
            self.fail(where, f"games[{g}] is a multigame match without its games (records "
                      "of type 4 with the same players and rounds)")
        return sorted(legs, key=lambda item: item[0])

    def result(self, e: _Entrant, game: Mapping[str, Any], rnd: int,
               pairs: Mapping[int, int], where: str) -> Result | None:
        """``e``'s cell for one game record (a match game may list the players either way)."""
        side = 1 if game["p1"] == e.index else 2
        other = game["p2"] if side == 1 else game["p1"]
        code = game["result"]
        if other == -1:  # a bye: +1 = first player wins, so the second player's sign flips
            own = code if side == 1 or code in (3, 99, 98, -98) else -code
            if own not in BYE:
                self.fail(where, f"bye result {code} is not one of +3, +1, 0, -1 (game.html)")
                return None
            return Result(rnd, BYE[own])
        if code not in PAIRED:
            self.fail(where, f"result {code} is not a WinTD result: expected +1, -1, 0, "
                      "+2, -2, +3, -98, +98 or 99 (game.html)")
            return None
        if other not in pairs:
            self.fail(where, f"the opponent players[{other}] is not in this section")
            return None
        mine = PAIRED[code][side - 1]
        split = game.get("split", 0)
        if split:  # the result counts for one player only: not a rated game
            counts_for = 1 if split == -1 else 2
            mine = SPLIT[mine] if side == counts_for else "U"
        opponent = pairs[other] if mine in ("W", "L", "D", "X", "F") else None
        return Result(rnd, mine, opponent)

    # --- small values -------------------------------------------------------------------

    def integer(self, obj: Mapping[str, Any], key: str, where: str) -> int | None:
        value = obj.get(key)
        if value is None:
            self.fail(f"{where}.{key}", "missing: expected a whole number")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"{where}.{key}", f"expected a whole number, found {value!r}")
            return None
        return value

    def calendar_date(self, value: Any, where: str) -> date | None:
        if value is None or value == "":
            return None
        if isinstance(value, str):
            for fmt in ("%Y-%m-%d", "%m/%d/%Y"):
                try:
                    return datetime.strptime(value.strip(), fmt).date()
                except ValueError:
                    continue
        self.fail(where, f"{value!r} is not a date: expected YYYY-MM-DD or MM/DD/YYYY")
        return None


def _ends(game: Mapping[str, Any]) -> frozenset[tuple[Any, Any]] | None:
    """The two (player, round) ends of a game record, when they are whole numbers."""
    values = [game.get(k) for k in ("p1", "r1", "p2", "r2")]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return frozenset({(values[0], values[1]), (values[2], values[3])})


def _renumber(section: Section, number: int) -> Section:
    return replace(section, number=number)


