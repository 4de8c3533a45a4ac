"""An event as a director's SwissSys, WinTD or PGN file would hold it: the tests' own
writers for the formats the package only reads (formats/swisssys.py, formats/wintd.py
and formats/pgn.py have no writer), so that a property over every format can start
from a generated event.

Each writes what its format holds, laid out as the reader's docstring describes it,
and no more; what the format cannot hold is lost as it would be in a real file:

- one rating a player, in the section's main system (R for a dual section, else its
  one system: the reader files it there); SwissSys gives it with N (``1456.37/53``),
  WinTD without N, PGN as four digits with N;
- one start and one end date for the whole event (all three);
- a forfeit with its opponent in SwissSys and WinTD, a forfeit game in PGN; byes as
  their letters (SwissSys), bye records (WinTD) or a game against ``BYE`` (PGN);
- the time control as written (SwissSys, WinTD); as PGN's seconds (``G/30;d5`` is
  ``1800``: PGN has no delay), so a PGN section may be rated in other systems than the
  event's;
- online play in none of them (each reads a time control as over the board).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, SectionType
from uscf_ratings.formats.common import main_system

#: SwissSys result letters (formats/swisssys.py, its table), by our code
SWISSSYS_LETTER = {"W": "+", "L": "-", "D": "=", "X": "X", "F": "F", "H": "H", "B": "B",
                   "U": "U"}
#: WinTD ``result`` of a game between two players, from the first player's code
WINTD_PAIRED = {"W": 1, "L": -1, "D": 0, "X": 2, "F": -2}
#: WinTD ``result`` of a bye record, by the bye player's code (first player)
WINTD_BYE = {"B": 3, "H": 0, "X": 2, "F": -2}
#: PGN ``Result`` of a game, by White's code (a forfeit as +/- or -/+)
PGN_RESULT = {"W": "1-0", "L": "0-1", "D": "1/2-1/2", "X": "+/-", "F": "-/+"}


def file_rating(section: Section, player: Player) -> Rating | None:
    """The one rating a file holds for the player: the section's main system's."""
    main = main_system(section.systems, section.time_control, section.start_date,
                       section.online)
    return player.ratings.get(main)


def rounds_of(section: Section) -> int:
    return max((r.round for p in section.players for r in p.results), default=0)


def by_round(player: Player, rounds: int) -> Iterator[Result]:
    """The player's result in each round 1..rounds, U where none is given."""
    given = {r.round: r for r in player.results}
    return (given.get(n, Result(n, "U")) for n in range(1, rounds + 1))


# --- SwissSys ----------------------------------------------------------------------------


def swisssys_text(event: Event) -> str:
    """The event as a SwissSys ``.sjson`` file."""
    return json.dumps({
        "Overview": {"Tournament title": event.name,
                     "Starting date": event.start_date.isoformat(),
                     "Ending date": event.end_date.isoformat()},
        "Sections": [_swisssys_section(s) for s in event.sections]})


def _swisssys_section(section: Section) -> dict[str, Any]:
    rounds = rounds_of(section)
    players = []
    for p in section.players:
        rating = file_rating(section, p)
        cells = [f"{SWISSSYS_LETTER[r.code]};{r.opponent or 0};W;0;0;0;0"
                 for r in by_round(p, rounds)]
        players.append({
            "Pair number": p.pair, "Name": p.name, "ID": p.id, "Results": cells,
            # N is three digits at most in the file's rating text
            "Rating": "" if rating is None else (
                f"{rating.rating!r}/{rating.games}" if rating.games_known
                and rating.games < 1000 else rating.rating),
            "Birth date": p.birth_date.isoformat() if p.birth_date else ""})
    return {"Section name": section.name, "Section time control": section.time_control or "",
            "Type": 3 if section.type is SectionType.ROUND_ROBIN else 0, "Players": players}


# --- WinTD -------------------------------------------------------------------------------


def wintd_text(event: Event) -> str:
    """The event as WinTD's JSON records: sections, players and games, referring to one
    another by zero-based position."""
    sections: list[dict[str, Any]] = []
    players: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    for number, section in enumerate(event.sections):
        robin = section.type is SectionType.ROUND_ROBIN
        sections.append({"title": section.name, "TC": section.time_control or "",
                         "USCFratable": 1, "gamesPerMatch": 1, "mainRating": 1,
                         "RRCount": len(section.players) if robin else 0})
        index = {p.pair: len(players) + i for i, p in enumerate(section.players)}
        rounds = rounds_of(section)
        slots: dict[tuple[int, int], int] = {}  # (player index, round) -> game record
        for p in section.players:
            me = index[p.pair]
            for r in by_round(p, rounds):
                if (me, r.round) in slots:
                    continue  # the opponent's row wrote it
                if r.opponent is not None and r.code in WINTD_PAIRED:
                    them = index[r.opponent]
                    record = {"p1": me, "p2": them, "result": WINTD_PAIRED[r.code]}
                    slots[(them, r.round)] = len(games)
                elif r.code in WINTD_BYE:
                    record = {"p1": me, "p2": -1, "result": WINTD_BYE[r.code]}
                else:
                    continue  # unpaired: no record
                slots[(me, r.round)] = len(games)
                games.append({**record, "r1": r.round, "r2": r.round, "type": 0, "split": 0})
        for p in section.players:
            rating = file_rating(section, p)
            players.append({
                "base": {"name": p.name, "id": p.id, "rating": rating.rating if rating else 0},
                "tnmt": {"sectionID": number, "status": 0, "pairno": p.pair,
                         "games": [slots.get((index[p.pair], n), -1)
                                   for n in range(1, rounds + 1)]}})
    return json.dumps({"title": event.name, "beginDate": event.start_date.isoformat(),
                       "endDate": event.end_date.isoformat(), "sections": sections,
                       "players": players, "games": games})


# --- PGN ---------------------------------------------------------------------------------


def pgn_text(event: Event) -> str:
    """The event's games as PGN tag sections (no moves): each game once, from the row of
    White (the lower pair number in odd rounds), grouped by ``Section``; the last
    round's games dated the event's end, the others its start, so that both dates are
    read back."""
    out = []
    for section in event.sections:
        rounds = rounds_of(section)
        control = pgn_time_control(section.time_control)
        by_pair = {p.pair: p for p in section.players}
        for p in section.players:
            for r in by_round(p, rounds):
                day = event.end_date if r.round == rounds else event.start_date
                tags = {"Event": event.name or event.id, "Section": str(section.number),
                        "Date": f"{day:%Y.%m.%d}", "Round": str(r.round)}
                if control:
                    tags["TimeControl"] = control
                if r.opponent is not None and r.code in PGN_RESULT:
                    if (p.pair < r.opponent) != (r.round % 2 == 1):
                        continue  # written from White's row
                    them = by_pair[r.opponent]
                    out.append(_game({**tags, **_side("White", section, p),
                                      **_side("Black", section, them),
                                      "Result": PGN_RESULT[r.code]}))
                elif r.code in ("B", "H") and r.opponent is None:
                    out.append(_game({**tags, **_side("White", section, p), "Black": "BYE",
                                      "Result": "1-0" if r.code == "B" else "1/2-1/2"}))
    return "".join(out)


def _side(colour: str, section: Section, player: Player) -> dict[str, str]:
    tags = {colour: player.name or f"Player {player.pair}"}
    if player.id:
        tags[f"{colour}USCFId"] = player.id
    rating = file_rating(section, player)
    if rating is not None and rating.rating >= 0.5:
        whole = int(rating.rating + 0.5)  # four digits, half up (the file's whole points)
        n = f"/{rating.games}" if rating.games_known and rating.games < 1000 else ""
        tags[f"{colour}USCF"] = f"{whole}{n}"
    return tags


def _game(tags: dict[str, str]) -> str:
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f"{text}\n{tags['Result']}\n\n"


def pgn_time_control(control: str | None) -> str | None:
    """``G/30;d5`` as PGN's ``1800``, ``G/3+2`` as ``180+2`` (PGN standard §9.6.1: base
    seconds, ``+`` increment; a delay has no PGN form and is left out)."""
    found = re.fullmatch(r"G/(\d+)(?:;d\d+|\+(\d+))?", control or "")
    if found is None:
        return None
    return str(int(found[1]) * 60) + (f"+{found[2]}" if found[2] else "")
