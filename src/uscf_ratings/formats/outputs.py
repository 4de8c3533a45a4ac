"""Rated crosstables for people and programs: text, CSV, JSON and a self-contained HTML page.

Each function takes the event and its `SectionResult` list, one per section in the
event's order (what `uscf_ratings.core.pipeline.rate_section` returns for each), and
returns the document as a string.

* `render_text`: the layout of the US Chess MSA crosstables ("Reading a US Chess
  Rating Report", shared/spec/file-formats.md, "Display"): pair number, name and id on
  one line with the total, the norm earned beside it as MSA prints it (``4.5 N:2``,
  core/norms.py) and the round cells (``W  12``, ``D   4``, ``H``), then one
  ``R: 1294 -> 1451`` line per rating system. Ratings are shown rounded, provisional ones
  as ``1456P12``, unrated as ``Unr.``. Rows are in pair-number order (MSA sorts by score;
  the pair order keeps the rows findable by the round cells).
* `render_csv`: one row per player and system: ``section,pair,id,name,system,pre,
  post,post_2dp,games_after,formula,total,norm,round1,...``; pre and post unrounded (as
  computed), ``post_2dp`` rounded half up to two places, ``norm`` the code beside the
  total (``N:2``) or blank. A player with no rating in any system (unrated, no rated
  game) has one row with the system blank. The ``section`` column comes first so that
  several sections fit in one file.
* `render_json`: `uscf_ratings.formats.result_json.event_to_dict`.
* `render_html`: one page, inline CSS, no scripts or external assets; every text
  from the event is escaped. The norm earned stands under the total, naming its title.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence

from ..core.formulas import rounded_rating, two_decimals
from ..core.model import SCORE, Event, Player, Result, Section
from ..core.results import PlayerResult, RatingResult, SectionResult
from .csv_safety import safe_row
from .result_json import event_to_dict

#: points of a report code: rated games as scored, X and B a point, H half, F and U none
POINTS = SCORE | {"X": 1.0, "B": 1.0, "H": 0.5, "F": 0.0, "U": 0.0}
FLOOR_MARK = {"peak": " (floor)", "absolute": " (floor)", "olm": " (OLM floor)",
              "office": " (floor)"}


# --- shared pieces -------------------------------------------------------------------------


def _pairs(event: Event, results: Sequence[SectionResult]) -> list[tuple[Section, SectionResult]]:
    if len(event.sections) != len(results):
        raise ValueError(f"{len(results)} section results for {len(event.sections)} sections")
    for section, result in zip(event.sections, results, strict=True):
        if section.number != result.number:
            raise ValueError(f"section {section.number} is paired with the result of "
                             f"section {result.number}: give the results in section order")
    return list(zip(event.sections, results, strict=True))


def _entrant(result: SectionResult, pair: int) -> PlayerResult | None:
    try:
        return result.player(pair)
    except KeyError:
        return None


def published(value: float | None, games: int | None) -> str:
    """A rating as MSA shows it: 1456, 1456P12 while provisional, Unr. when unrated.

    >>> published(1455.5, 12), published(1802.49, 40), published(None, None)
    ('1456P12', '1802', 'Unr.')
    """
    if value is None:
        return "Unr."
    return str(rounded_rating(value)) + (f"P{games}" if games is not None and games <= 25 else "")


def rating_line(r: RatingResult) -> str:
    """``R: 1294 -> 1451``: the system, the pre-event and the post-event rating."""
    pre = published(r.pre, r.pre_games)
    post = published(r.post, r.games_after) if r.post is not None else pre
    return f"{r.system}: {pre} -> {post}{FLOOR_MARK.get(r.floor_applied or '', '')}"


def total(player: Player) -> float:
    return sum(POINTS.get(r.code, 0.0) for r in player.results)


def norm_code(entrant: PlayerResult | None) -> str:
    """The code MSA prints beside the total (``N:2``), or "" for no norm (titles.md)."""
    return "" if entrant is None or entrant.norm is None else entrant.norm.code or ""


def total_cell(player: Player, entrant: PlayerResult | None) -> str:
    """The total and the norm as MSA shows them: ``4.5 N:2``, or ``4.5`` alone.

    >>> total_cell(Player(1, "", "", results=(Result(1, "W", 2), Result(2, "H"))), None)
    '1.5'
    """
    return f"{total(player):.1f} {norm_code(entrant)}".rstrip()


def _cell(result: Result | None, width: int = 4) -> str:
    """``W  12``: the code and the opponent's pair number right-aligned."""
    if result is None:
        return ""
    return result.code + (f"{result.opponent:>{width}}" if result.opponent is not None else "")


def _by_round(player: Player, rounds: Sequence[int]) -> list[Result | None]:
    """The player's result in each of ``rounds`` (None where there is none)."""
    mine: dict[int, Result] = {}
    for r in player.results:
        mine.setdefault(r.round, r)
    return [mine.get(n) for n in rounds]


def _rounds(*sections: Section) -> list[int]:
    """The round numbers that hold a result, in order: the columns of a table. Sized by
    the rounds present, never by the largest number (a file's ``round1000000000`` is
    one column, not a billion)."""
    return sorted({r.round for s in sections for p in s.players for r in p.results})


def _title(section: Section | SectionResult) -> str:
    return f"Section {section.number}" + (f": {section.name}" if section.name else "")


def _describe(section: Section, result: SectionResult) -> str:
    parts = ["rated " + "/".join(s.value for s in result.systems)]
    if section.time_control:
        parts.append(f"time control {section.time_control}")
    parts.append(result.rules.name)
    return "; ".join(parts)


# --- text ----------------------------------------------------------------------------------


def render_text(event: Event, results: Sequence[SectionResult]) -> str:
    """The crosstables as text, in the layout of the US Chess MSA pages."""
    lines = [f"{event.name or event.id}" + (f" ({event.id})" if event.name and event.id else ""),
             f"{event.start_date.isoformat()} .. {event.end_date.isoformat()}"]
    for section, result in _pairs(event, results):
        lines += ["", *_text_section(section, result)]
    return "\n".join(lines) + "\n"


def _text_section(section: Section, result: SectionResult) -> list[str]:
    rounds = _rounds(section)
    name_width = max([len(p.name) for p in section.players] + [20])
    id_width = max([len(p.id) for p in section.players] + [8])
    # the total column holds "4.5 N:2": the total right-aligned in 5, the code in 3
    head = f"Pair {'Player':<{name_width}} {'ID':<{id_width}} {'Total':<9}"
    head += "".join(f" {'Rd ' + str(n):<5}" for n in rounds)
    head = head.rstrip()
    lines = [f"{_title(section)}  ({_describe(section, result)})", head, "-" * len(head)]
    for player in section.players:
        entrant = _entrant(result, player.pair)
        cells = "".join(f" {_cell(c):<5}" for c in _by_round(player, rounds))
        lines.append(f"{player.pair:>4} {player.name:<{name_width}} {player.id:<{id_width}} "
                     f"{total(player):>5.1f} {norm_code(entrant):<3}{cells}".rstrip())
        if entrant is None:
            continue
        for r in entrant.ratings.values():
            lines.append(f"     {rating_line(r)}")
        others = [p for p in entrant.pairs if p != player.pair]
        if others:
            lines.append(f"     (one player with pair {', '.join(map(str, others))})")
    return lines


# --- CSV -----------------------------------------------------------------------------------


def render_csv(event: Event, results: Sequence[SectionResult]) -> str:
    """One row per player and system, with the round cells; a cell a spreadsheet would
    run as a formula (a name such as ``=HYPERLINK(...)``) is made inert (`csv_safety`)."""
    pairs = _pairs(event, results)
    rounds = _rounds(*(s for s, _ in pairs))
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(["section", "pair", "id", "name", "system", "pre", "post", "post_2dp",
                  "games_after", "formula", "total", "norm"] + [f"round{n}" for n in rounds])
    for section, result in pairs:
        for player in section.players:
            entrant = _entrant(result, player.pair)
            cells = [f"{total(player):.1f}", norm_code(entrant)]
            cells += [_cell(c, 0) for c in _by_round(player, rounds)]
            head = [section.number, player.pair, player.id, player.name]
            ratings = list(entrant.ratings.values()) if entrant else []
            for r in ratings:
                out.writerow(safe_row(head + _csv_rating(r) + cells))
            if not ratings:
                out.writerow(safe_row(head + [""] * 6 + cells))
    return buffer.getvalue()


def _csv_rating(r: RatingResult) -> list[object]:
    def number(value: float | None) -> str:
        return "" if value is None else repr(float(value))

    post_2dp = "" if r.post is None else two_decimals(r.post)
    return [r.system.value, number(r.pre), number(r.post), post_2dp,
            "" if r.games_after is None else r.games_after, r.formula]


# --- JSON ----------------------------------------------------------------------------------


def render_json(event: Event, results: Sequence[SectionResult]) -> str:
    """The result JSON of `uscf_ratings.formats.result_json`."""
    _pairs(event, results)
    return json.dumps(event_to_dict(event, list(results)), indent=2) + "\n"


# --- HTML ----------------------------------------------------------------------------------

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin: 1.5em 0 0.3em; }
p.meta { color: #555; margin: 0.2em 0 0.8em; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; }
th { background: #eee; }
td.num, td.cell { text-align: right; font-family: ui-monospace, monospace; }
td.ratings { white-space: nowrap; font-family: ui-monospace, monospace; }
td.num abbr.norm { display: block; text-decoration: none; font-weight: bold; }
tbody tr:nth-child(even) { background: #f7f7f7; }
""".strip()


def render_html(event: Event, results: Sequence[SectionResult], notice: str | None = None
                ) -> str:
    """A self-contained HTML page: a table per section with pre -> post per system;
    ``notice`` (the private data it holds, `result_json.PRIVATE_NOTICE`) first, in bold."""
    esc = html.escape
    title = event.name or event.id or "Crosstable"
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{esc(title)}: crosstable</title>", f"<style>\n{_STYLE}\n</style>",
             "</head>", "<body>"]
    if notice:
        parts.append(f'<p class="private"><strong>{esc(notice)}</strong></p>')
    parts += [f"<h1>{esc(title)}</h1>",
             f'<p class="meta">Event {esc(event.id)}, {event.start_date.isoformat()} to '
             f"{event.end_date.isoformat()}</p>"]
    for section, result in _pairs(event, results):
        parts += _html_section(section, result)
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _html_section(section: Section, result: SectionResult) -> list[str]:
    esc = html.escape
    rounds = _rounds(section)
    head = "".join(f"<th>Rd {n}</th>" for n in rounds)
    rows = ["<section>", f"<h2>{esc(_title(section))}</h2>",
            f'<p class="meta">{esc(_describe(section, result))}</p>', "<table>",
            "<thead><tr><th>Pair</th><th>Player</th><th>ID</th>"
            f"<th>Rating (pre -&gt; post)</th><th>Total</th>{head}</tr></thead>", "<tbody>"]
    for player in section.players:
        entrant = _entrant(result, player.pair)
        ratings = "<br>".join(esc(rating_line(r)) for r in entrant.ratings.values()) \
            if entrant else ""
        cells = "".join(f'<td class="cell">{esc(_cell(c, 0))}</td>'
                        for c in _by_round(player, rounds))
        rows.append(f'<tr><td class="num">{player.pair}</td><td>{esc(player.name)}</td>'
                    f"<td>{esc(player.id)}</td><td class=\"ratings\">{ratings}</td>"
                    f'<td class="num">{total(player):.1f}{_html_norm(entrant)}</td>{cells}</tr>')
    rows += ["</tbody>", "</table>", "</section>"]
    return rows


def _html_norm(entrant: PlayerResult | None) -> str:
    """The norm under the total, its title said on hover and to a screen reader."""
    code = norm_code(entrant)
    if not code or entrant is None or entrant.norm is None:
        return ""
    title = html.escape(f"a norm toward {entrant.norm.title}", quote=True)
    return f'<abbr class="norm" title="{title}">{html.escape(code)}</abbr>'
