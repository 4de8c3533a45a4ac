"""Every reader, every numeric field: Unicode digits, signs, spaces and separators.

Issue 13: a fuzzer found tracebacks in the CSV, PGN, SwissSys and TRF readers on digits
that ``str.isdigit`` accepts but ``int`` refuses (a superscript ``¹``). Here each numeric
field of a small valid file of each format gets such text; the reader must either read
the file or raise `ParseError` (the project's own error). Any other exception fails.
A field that holds a digit of another script ('¹', '٣', '５') must be refused, naming
the place: numbers are ASCII digits.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.formats import csv_crosstable, dbf, event_json, pgn, swisssys, trf, wintd
from uscf_ratings.formats.errors import ParseError

DAY = date(2024, 6, 1)
ODD = ["¹", "²", "٣", "５", "+", "-", "−", " ", "\u00a0", "\u2009", ",", ".", "_", "e"]
FOREIGN_DIGITS = ["¹", "²", "٣", "５"]
VALUES = st.lists(st.sampled_from(ODD) | st.sampled_from("0123456789"), min_size=1,
                  max_size=6).map("".join)
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def refused_or_read(read: Callable[[], object]) -> ParseError | None:
    """Run a reader: None if it read the file, the ParseError if it refused it; any
    other exception propagates and fails the test."""
    try:
        read()
    except ParseError as error:
        return error
    return None


# --- TRF: fixed columns ---------------------------------------------------------------------

TRF_LINES = [
    "012 Club", "042 2024/06/01", "122 G/60;d5",
    "001    1 w    Adams, Ann                        1820                 1990/04/12  1.0"
    "    1     2 w 1",
    "001    2 m    Baker, Bob                                                         0.0"
    "    2     1 b 0",
    "USA    1                                        1875 CA     12345678",
]
#: (line index, 0-based start, end) of each numeric field
TRF_FIELDS = {"pair": (3, 4, 8), "fide": (3, 48, 52), "opponent": (3, 91, 95),
              "national pair": (5, 4, 8), "national rating": (5, 48, 52)}


def trf_with(field: str, value: str) -> bytes:
    index, start, end = TRF_FIELDS[field]
    lines = list(TRF_LINES)
    line = lines[index]
    lines[index] = line[:start] + value.rjust(end - start) + line[end:]
    return "\r\n".join(lines).encode("utf-8")


def test_trf_template_reads() -> None:
    event = trf.parse(trf_with("pair", "1"), "t.trf")
    assert [p.pair for p in event.sections[0].players] == [1, 2]


@FUZZ
@given(field=st.sampled_from(sorted(TRF_FIELDS)), value=VALUES)
def test_trf_numeric_fields(field: str, value: str) -> None:
    refused_or_read(lambda: trf.parse(trf_with(field, value), "t.trf"))


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
@pytest.mark.parametrize("field", sorted(TRF_FIELDS))
def test_trf_foreign_digits_are_refused(field: str, digit: str) -> None:
    error = refused_or_read(lambda: trf.parse(trf_with(field, "1" + digit), "t.trf"))
    assert error is not None and "line" in str(error)


# --- PGN ------------------------------------------------------------------------------------

PGN_TAGS = {"Round": "1", "WhiteUSCF": "1500", "WhiteUSCFId": "12345678", "WhiteElo": "1600",
            "BlackUSCF": "1400P12", "Date": "2024.06.01", "TimeControl": "5400+30"}


def pgn_with(tag: str, value: str) -> str:
    tags = dict(PGN_TAGS, **{tag: value})
    body = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return f'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n{body}\n1-0\n'


def test_pgn_template_reads() -> None:
    event, _ = pgn.parse(pgn_with("Round", "1"), "t.pgn")
    assert len(event.sections[0].players) == 2


@FUZZ
@given(tag=st.sampled_from(sorted(PGN_TAGS)), value=VALUES)
def test_pgn_numeric_tags(tag: str, value: str) -> None:
    refused_or_read(lambda: pgn.parse(pgn_with(tag, value), "t.pgn", event_date=DAY))


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
@pytest.mark.parametrize("tag", ["Round", "WhiteUSCF", "WhiteUSCFId", "WhiteElo",
                                 "BlackUSCF", "TimeControl"])
def test_pgn_foreign_digits_are_refused(tag: str, digit: str) -> None:
    error = refused_or_read(lambda: pgn.parse(pgn_with(tag, "1" + digit), "t.pgn"))
    assert error is not None and f"({tag})" in str(error)


# --- CSV crosstable ---------------------------------------------------------------------------

CSV_FIELDS = ("section", "pair", "rating", "games", "fide", "opponent", "rating_Q", "games_Q")


def csv_with(field: str, value: str) -> str:
    v = {f: value if f == field else d for f, d in zip(
        CSV_FIELDS, ("1", "1", "1500", "30", "1600", "2", "1400", "12"))}
    return (f"# start_date: 2024-06-01\n# section: {v['section']}\n# time_control: G/60;d5\n"
            "pair,id,name,rating,games,fide,rating_Q,games_Q,round1\n"
            f'{v["pair"]},12345678,"A, A",{v["rating"]},{v["games"]},{v["fide"]},'
            f'{v["rating_Q"]},{v["games_Q"]},W{v["opponent"]}\n'
            '2,23456789,"B, B",1400,,,,,L1\n')


def test_csv_template_reads() -> None:
    assert len(csv_crosstable.parse_csv(csv_with("pair", "1")).sections[0].players) == 2


@FUZZ
@given(field=st.sampled_from(CSV_FIELDS), value=VALUES)
def test_csv_numeric_cells(field: str, value: str) -> None:
    refused_or_read(lambda: csv_crosstable.parse_csv(csv_with(field, value), "t.csv"))


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
@pytest.mark.parametrize("field", CSV_FIELDS)
def test_csv_foreign_digits_are_refused(field: str, digit: str) -> None:
    error = refused_or_read(lambda: csv_crosstable.parse_csv(csv_with(field, "1" + digit)))
    assert error is not None and "line" in str(error)


@FUZZ
@given(field=st.sampled_from(["pair", "rating", "games", "fide", "number"]), value=VALUES)
def test_csv_json_numeric_values(field: str, value: str) -> None:
    player = {"pair": 1, "id": "1", "name": "A", "rating": 1500, "games": 30, "fide": 1600,
              "results": ["W2"]}
    section = {"number": 1, "time_control": "G/60;d5", "players": [
        player, {"pair": 2, "name": "B", "results": ["L1"]}]}
    (section if field == "number" else player)[field] = value
    text = json.dumps({"format": "uscf-crosstable", "event": {"start_date": "2024-06-01"},
                       "sections": [section]})
    refused_or_read(lambda: csv_crosstable.parse_json(text, "t.json"))


# --- SwissSys ---------------------------------------------------------------------------------

def sjson_with(field: str, value: str) -> str:
    player = {"Pair number": 1, "Name": "A", "ID": "12345678", "Rating": "1500",
              "Rating2": 1600, "Results": ["+;2;W;1;0;0;0"]}
    if field == "opponent":
        player["Results"] = [f"+;{value};W;1;0;0;0"]
    else:
        player[field] = value
    other = {"Pair number": 2, "Name": "B", "Rating": 1400, "Results": ["-;1;B;1;0;0;0"]}
    return json.dumps({"Overview": {"Starting date": "2024-06-01"}, "Sections": [
        {"Type": 0, "Section time control": "G/60;d5", "Players": [player, other]}]})


SJSON_FIELDS = ("Pair number", "Rating", "Rating2", "opponent", "Birth date")


def test_sjson_template_reads() -> None:
    assert len(swisssys.parse(sjson_with("Rating", "1500")).sections[0].players) == 2


@FUZZ
@given(field=st.sampled_from(SJSON_FIELDS), value=VALUES)
def test_sjson_numeric_fields(field: str, value: str) -> None:
    refused_or_read(lambda: swisssys.parse(sjson_with(field, value), "t.sjson"))


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
@pytest.mark.parametrize("field", ["Pair number", "Rating", "Rating2", "opponent"])
def test_sjson_foreign_digits_are_refused(field: str, digit: str) -> None:
    error = refused_or_read(lambda: swisssys.parse(sjson_with(field, "1" + digit), "t.sjson"))
    assert error is not None and "Players[0]" in str(error)


# --- WinTD ------------------------------------------------------------------------------------

WINTD_FIELDS = ("pairno", "rating", "sectionID", "game", "result", "gamesPerMatch", "RRCount")


def wintd_with(field: str, value: object) -> str:
    section: dict[str, Any] = {"title": "Open", "id": 0, "USCFratable": 1, "TC": "G/60;d5",
                               "gamesPerMatch": 1}
    first: dict[str, Any] = {"base": {"name": "A", "id": "1", "rating": 1500},
             "tnmt": {"sectionID": 0, "status": 0, "pairno": 1, "games": [0]}}
    second = {"base": {"name": "B", "id": "2", "rating": 1400},
              "tnmt": {"sectionID": 0, "status": 0, "pairno": 2, "games": [0]}}
    game: dict[str, Any] = {"p1": 0, "p2": 1, "r1": 1, "r2": 1, "result": 1, "type": 0}
    if field in ("gamesPerMatch", "RRCount"):
        section[field] = value
    elif field == "rating":
        first["base"]["rating"] = value
    elif field == "game":
        first["tnmt"]["games"] = [value]
    elif field == "result":
        game["result"] = value
    else:
        first["tnmt"][field] = value
    return json.dumps({"beginDate": "2024-06-01", "sections": [section],
                       "players": [first, second], "games": [game]})


def test_wintd_template_reads() -> None:
    assert len(wintd.parse(wintd_with("pairno", 1)).sections[0].players) == 2


@FUZZ
@given(field=st.sampled_from(WINTD_FIELDS),
       value=VALUES | st.floats(allow_nan=True) | st.integers(-10**30, 10**30))
def test_wintd_numeric_fields(field: str, value: object) -> None:
    refused_or_read(lambda: wintd.parse(wintd_with(field, value), "t.json"))


# --- event JSON -------------------------------------------------------------------------------

SAMPLE = Path(__file__).parents[2] / "examples" / "sample-event.json"


@FUZZ
@given(field=st.sampled_from(["pair", "rating", "games", "number", "opponent"]),
       value=VALUES | st.floats(allow_nan=True) | st.integers(-10**30, 10**30))
def test_event_json_numeric_fields(field: str, value: object) -> None:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    section = data["sections"][0]
    player = section["players"][0]
    if field == "number":
        section["number"] = value
    elif field == "pair":
        player["pair"] = value
    elif field == "opponent":
        player["results"][0] = f"W{value}"
    else:
        next(iter(player["ratings"].values()))[field] = value
    refused_or_read(lambda: event_json.event_from_dict(data, "t.json"))


# --- DBF rating report ------------------------------------------------------------------------

DBF_FIELDS = {"TDEXPORT.DBF": ("D_PAIR_NUM", "D_RATING", "D_SEC_NUM", "D_RND01"),
              "TSEXPORT.DBF": ("S_SEC_NUM", "S_TOT_RNDS"), "THEXPORT.DBF": ("H_BEG_DATE",)}
DBF_ODD = [c for c in ODD if c.encode("cp1252", errors="ignore")]  # what cp1252 can hold


def dbf_report(folder: Path, table: str, field: str, value: str) -> Path:
    """A two-player report, ``field`` of the first record of ``table`` set to ``value``
    (cut to the field's width)."""
    files = dbf.report_files(event_json.read_event(SAMPLE))
    for name, data in files.items():
        if name == table:
            issues: list[object] = []
            parsed = dbf.read_table(data, name, issues)  # type: ignore[arg-type]
            assert parsed is not None and not issues
            fields = [(f.name, f.type, f.length) for f in parsed.fields.values()]
            rows = [[rec[f] for f, _, _ in fields] for _, rec in parsed.records]
            column = [f for f, _, _ in fields].index(field)
            rows[0][column] = value[:fields[column][2]]
            data = dbf.dbase3_bytes(fields, rows, DAY)
        (folder / name).write_bytes(data)
    return folder


def test_dbf_template_reads(tmp_path: Path) -> None:
    event = dbf.read(dbf_report(tmp_path, "TDEXPORT.DBF", "D_PAIR_NUM", "1"))
    assert len(event.sections) == 2


@FUZZ
@given(spot=st.sampled_from([(t, f) for t, fs in DBF_FIELDS.items() for f in fs]),
       value=st.lists(st.sampled_from(DBF_ODD) | st.sampled_from("0123456789"), min_size=1,
                      max_size=6).map("".join))
def test_dbf_numeric_fields(tmp_path: Path, spot: tuple[str, str], value: str) -> None:
    table, field = spot
    if field == "D_RND01":
        value = "W" + value
    refused_or_read(lambda: dbf.read(dbf_report(tmp_path, table, field, value)))


@pytest.mark.parametrize("digit", ["¹", "²", "³"])
@pytest.mark.parametrize("field", ["D_PAIR_NUM", "D_RATING", "D_SEC_NUM"])
def test_dbf_superscripts_are_refused(tmp_path: Path, field: str, digit: str) -> None:
    error = refused_or_read(lambda: dbf.read(dbf_report(tmp_path, "TDEXPORT.DBF", field,
                                                        "1" + digit)))
    assert error is not None and f"field {field}" in str(error)
