"""An event's details (place, affiliate, directors) from every format that has them.

The expected values of the real files (shared/formats) are read from the files by hand
and quoted beside each test: the THEXPORT record of the SwissSys 11 report, the header
lines of the TRF files. The hand-written files are written here."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from datetime import date
from pathlib import Path

import pytest

from uscf_ratings.core.model import Director, Event, EventDetails, Player, Result, Section, System
from uscf_ratings.formats import dbf, pgn, swisssys, trf, wintd
from uscf_ratings.formats.detect import write_any
from uscf_ratings.formats.errors import Issue, ParseError
from uscf_ratings.formats.event_details import details_to_dict
from uscf_ratings.formats.event_json import event_to_json, parse_event
from uscf_ratings.formats.losses import DETAIL_LABELS
from uscf_ratings.formats.result_json import event_to_dict

DATA = Path(__file__).resolve().parent / "data"
DAY = date(2026, 3, 14)


def two_players(day: date = DAY, details: EventDetails | None = None) -> Event:
    """An event of one section and one round between two players, with ``details``."""
    players = (Player(1, "12000001", "ALPHA, ANN", results=(Result(1, "W", 2),)),
               Player(2, "12000002", "BRAVO, BO", results=(Result(1, "L", 1),)))
    section = Section(1, day, day, players, name="Open", time_control="G/90;d5",
                      systems=(System.R,))
    return Event("202603140001", day, day, (section,), "Spring Open",
                 details=details or EventDetails())


FULL = EventDetails(
    city="Gainesville", state="FL", zip_code="32603", country="United States",
    site="Reitz Union, room 2", affiliate_id="G7647935", affiliate_name="Gator Chess Club",
    chief_director=Director("15120906", "DOE, JANE"),
    assistant_director=Director("30833045"),
    other_directors=(Director("12345678"), Director(name="Sam Roe")))


# --- event JSON -------------------------------------------------------------------------

EVENT_JSON = """{
  "event": {"id": "202603140001", "start_date": "2026-03-14",
    "details": {"city": " Gainesville ", "state": "FL", "zip_code": "32603",
      "country": "United States", "site": "Reitz Union, room 2",
      "affiliate_id": "G7647935", "affiliate_name": "Gator Chess Club",
      "chief_director": {"id": "15120906", "name": "DOE, JANE"},
      "assistant_director": {"id": "30833045"},
      "other_directors": [{"id": "12345678"}, {"name": "Sam Roe"}]}},
  "sections": [{"number": 1, "time_control": "G/90;d5", "players": [
    {"pair": 1, "results": ["W2"]}, {"pair": 2, "results": ["L1"]}]}]}"""


def test_event_json_reads_every_detail_and_writes_them_back() -> None:
    event = parse_event(EVENT_JSON)
    assert event.details == FULL  # " Gainesville " loses its spaces, as in every reader
    written = event_to_json(event)
    assert written["event"]["details"] == {
        "city": "Gainesville", "state": "FL", "zip_code": "32603", "country": "United States",
        "site": "Reitz Union, room 2", "affiliate_id": "G7647935",
        "affiliate_name": "Gator Chess Club",
        "chief_director": {"id": "15120906", "name": "DOE, JANE"},
        "assistant_director": {"id": "30833045"},
        "other_directors": [{"id": "12345678"}, {"name": "Sam Roe"}]}
    again = parse_event(json.dumps(written))  # read -> write -> read
    assert again == event


def test_event_json_without_details_writes_none() -> None:
    plain = parse_event(json.dumps({
        "event": {"id": "1", "start_date": "2026-03-14"},
        "sections": [{"number": 1, "time_control": "G/90;d5", "players": [
            {"pair": 1, "results": ["W2"]}, {"pair": 2, "results": ["L1"]}]}]}))
    assert plain.details == EventDetails() and plain.details.empty
    head = event_to_json(plain)["event"]
    assert "details" not in head
    blank = {"city": " ", "other_directors": [], "chief_director": {"name": "  "}}
    empty = parse_event(json.dumps(event_to_json(plain) | {"event": head | {"details": blank}}))
    assert empty.details.empty and "details" not in event_to_json(empty)["event"]


@pytest.mark.parametrize(("change", "where", "message"), [
    ('"state": "FL"', "event.details", "Additional properties are not allowed ('province' was "
     "unexpected)"),
    ('{"name": "Sam Roe"}', "event.details.other_directors[1]", "{} should be non-empty"),
    ('{"id": "30833045"}', "event.details.assistant_director.id", "'' should be non-empty"),
    ('"zip_code": "32603"', "event.details.zip_code", "32603 is not of type 'string'"),
])
def test_event_json_refuses_a_malformed_detail_naming_its_path(change: str, where: str,
                                                               message: str) -> None:
    replacement = {'"state": "FL"': '"province": "FL"', '{"name": "Sam Roe"}': "{}",
                   '{"id": "30833045"}': '{"id": ""}', '"zip_code": "32603"': '"zip_code": 32603'}
    with pytest.raises(ParseError) as error:
        parse_event(EVENT_JSON.replace(change, replacement[change]), "bad.json")
    assert [(i.where, i.message) for i in error.value.issues] == [(where, message)]


def test_result_json_repeats_the_details_only_when_the_file_gave_some() -> None:
    from uscf_ratings.core.pipeline import rate_section

    event = parse_event(EVENT_JSON)
    results = [rate_section(s) for s in event.sections]
    document = event_to_dict(event, results)
    assert list(document) == ["id", "name", "start_date", "end_date", "details", "sections"]
    assert document["details"] == event_to_json(event)["event"]["details"]
    assert "details" not in event_to_dict(replace(event, details=EventDetails()), results)


def test_details_to_dict_gives_every_key() -> None:
    assert details_to_dict(EventDetails(state="FL", other_directors=(Director(name="Sam"),))) == {
        "city": "", "state": "FL", "zip_code": "", "country": "", "site": "",
        "affiliate_id": "", "affiliate_name": "", "chief_director": None,
        "assistant_director": None, "other_directors": [{"id": "", "name": "Sam"}]}


# --- the US Chess rating report (DBF) ---------------------------------------------------

@pytest.mark.parametrize("folder", ["better-swisssys_swisssys11_dbf_test",
                                    "better-swisssys_seniorproj_test1"])
def test_real_report_details(shared: Path, folder: str) -> None:
    """THEXPORT.DBF of both sets (the manifest: "Gainesville FL, affiliate G7647935"),
    field by field: H_AFF_ID 'G7647935', H_CITY 'Gainesville          ', H_STATE 'FL',
    H_ZIPCODE '32603     ', H_COUNTRY 'United States        ', H_CTD_ID '15120906',
    H_ATD_ID '30833045', H_OTHER_TD all blanks."""
    event = dbf.read(shared / "formats" / "uscf_dbf" / folder)
    assert event.details == EventDetails(
        city="Gainesville", state="FL", zip_code="32603", country="United States",
        affiliate_id="G7647935", chief_director=Director("15120906"),
        assistant_director=Director("30833045"))


def head_record(folder: Path) -> dict[str, str]:
    issues: list[Issue] = []
    table = dbf.read_table((folder / "THEXPORT.DBF").read_bytes(), "THEXPORT.DBF", issues)
    assert table is not None and not issues
    [(_, record)] = table.records
    return {k: v.strip() for k, v in record.items()}


def test_report_writes_the_details_and_reads_them_back(tmp_path: Path) -> None:
    dbf.write(two_players(details=FULL), tmp_path / "report")
    head = head_record(tmp_path / "report")
    assert {k: head[k] for k in ("H_AFF_ID", "H_CITY", "H_STATE", "H_ZIPCODE", "H_COUNTRY",
                                 "H_CTD_ID", "H_ATD_ID", "H_OTHER_TD")} == {
        "H_AFF_ID": "G7647935", "H_CITY": "Gainesville", "H_STATE": "FL",
        "H_ZIPCODE": "32603", "H_COUNTRY": "United States", "H_CTD_ID": "15120906",
        "H_ATD_ID": "30833045", "H_OTHER_TD": "12345678"}  # Sam Roe has no id to write
    back = dbf.read(tmp_path / "report")
    # the format has no names, no site and no affiliate name
    assert back.details == replace(FULL, site="", affiliate_name="",
                                   chief_director=Director("15120906"),
                                   other_directors=(Director("12345678"),))


def test_report_details_that_do_not_fit_are_left_blank_and_named(tmp_path: Path) -> None:
    """H_STATE holds two characters: 'Oregon' is not cut to 'Or' nor refused; `uscf
    convert` names what the report did not keep."""
    event = two_players(details=EventDetails(city="Hillsboro", state="Oregon",
                                             chief_director=Director(name="Ann Roe")))
    written = write_any(event, tmp_path / "report", "dbf")
    assert head_record(tmp_path / "report")["H_STATE"] == ""
    details_warnings = [w for w in written.warnings if "the event's" in w]
    assert details_warnings == [
        f"{tmp_path / 'report'}: the DBF rating report cannot hold the event's state: "
        "'Oregon' is written as ''",
        f"{tmp_path / 'report'}: the DBF rating report cannot hold the event's chief "
        "director: 'Ann Roe' is written as ''"]


def rewrite_head(folder: Path, **values: str) -> None:
    """THEXPORT.DBF again, with ``values`` in its fields."""
    head = head_record(folder)
    head.update(values)
    row = [head[name] for name, _, _ in dbf.HEAD_FIELDS]
    (folder / "THEXPORT.DBF").write_bytes(dbf.dbase3_bytes(dbf.HEAD_FIELDS, [row], DAY))


def test_report_takes_the_sections_tds_when_the_event_names_none(tmp_path: Path) -> None:
    """H_CTD_ID and H_ATD_ID blank, the one section's S_CTD_ID and S_ATD_ID given (the
    writer puts the event's there, as SwissSys does); H_OTHER_TD split at commas."""
    dbf.write(two_players(details=FULL), tmp_path / "report")
    rewrite_head(tmp_path / "report", H_CTD_ID="", H_ATD_ID="",
                 H_OTHER_TD=" 12345678, 23456789,, ")
    details = dbf.read(tmp_path / "report").details
    assert (details.chief_director, details.assistant_director, details.other_directors) == (
        Director("15120906"), Director("30833045"), (Director("12345678"), Director("23456789")))


def test_report_refuses_a_details_field_of_the_wrong_type(tmp_path: Path) -> None:
    dbf.write(two_players(), tmp_path / "report")
    head = head_record(tmp_path / "report")
    fields_ = tuple((n, "D" if n == "H_CITY" else t, 8 if n == "H_CITY" else w)
                    for n, t, w in dbf.HEAD_FIELDS)
    row = [head[n] if n != "H_CITY" else "20260314" for n, _, _ in fields_]
    (tmp_path / "report" / "THEXPORT.DBF").write_bytes(dbf.dbase3_bytes(fields_, [row], DAY))
    with pytest.raises(ParseError) as error:
        dbf.read(tmp_path / "report")
    assert [(i.where, i.message) for i in error.value.issues] == [
        ("THEXPORT.DBF field H_CITY", "has type 'D'; expected C (text)")]


# --- TRF ---------------------------------------------------------------------------------

#: header lines read by hand: 022, 032, 102 and every 112 (shared/formats/trf)
REAL_TRF = {
    # 022 Donostia / 032 ESP / 102 IA Mikel Larreategi Arana (22232540) / "112 " blank
    "echecsjs_javafo_sample2_gros2010.trf": EventDetails(
        city="Donostia", country="ESP",
        chief_director=Director(name="IA Mikel Larreategi Arana (22232540)")),
    # 022 Frankfurt (Main) /GER / "032" empty / 102 Ralph Blum (SV Griesheim) /
    # 112 NSR Thomas Rondio, NSR Wolfgang Hettler (one line: one deputy, as written)
    "sklangen_example1_karl_mala_2005.trf": EventDetails(
        city="Frankfurt (Main) /GER", chief_director=Director(name="Ralph Blum (SV Griesheim)"),
        other_directors=(Director(name="NSR Thomas Rondio, NSR Wolfgang Hettler"),)),
    # 022 Test / 032 FID / 102 The Chief Arbiter / 112 The First Deputy Arbiter /
    # 112 The Second Deputy Arbiter
    "echecsjs_grandmommyscup.trf": EventDetails(
        city="Test", country="FID", chief_director=Director(name="The Chief Arbiter"),
        other_directors=(Director(name="The First Deputy Arbiter"),
                         Director(name="The Second Deputy Arbiter"))),
    # 022 https://lichess.org/swiss/j8rtJ5GL / 032 Lichess / 102 https://lichess.org/swiss
    "competichess_lichess_bullet_2020_112p.trf": EventDetails(
        site="https://lichess.org/swiss/j8rtJ5GL"),
    # 022 Melbourne / 032 AUS / 102 Truong Nguyen / "112 " blank
    "vega_sample_tournament_final.trfx": EventDetails(
        city="Melbourne", country="AUS", chief_director=Director(name="Truong Nguyen")),
    # no 022, 032, 102 or 112 at all
    "bbp_dutch_2025_C9.trf": EventDetails(),
}


@pytest.mark.parametrize("name", sorted(REAL_TRF))
def test_real_trf_details(shared: Path, name: str) -> None:
    event = trf.read(shared / "formats" / "trf" / name, event_date=date(2026, 1, 2)
                     if name.startswith("bbp") else None)
    assert event.details == REAL_TRF[name]


def test_trf_details_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "club.trf"
    path.write_text("012 Club Night\r\n022  Riverside, CA \r\n032 USA\r\n042 2026/03/14\r\n"
                    "102 Jane Doe\r\n112 \r\n112 Sam Roe\r\n112 https://example.org/td\r\n"
                    "112 Kim Poe\r\n122 G/90;d5\r\n"
                    "001    1      Alpha, Ann                        1800                "
                    "             1.0    1     2 w 1\r\n"
                    "001    2      Bravo, Bo                         1700                "
                    "             0.0    2     1 b 0\r\n")
    assert trf.read(path).details == EventDetails(
        city="Riverside, CA", country="USA", chief_director=Director(name="Jane Doe"),
        other_directors=(Director(name="Sam Roe"), Director(name="Kim Poe")))


def test_trf_writes_place_and_arbiters_and_reads_them_back(tmp_path: Path) -> None:
    event = two_players(details=replace(FULL, country="USA"))
    text = trf.section_text(event, event.sections[0])
    lines = text.split("\r\n")
    assert [x for x in lines if x[:3] in ("022", "032", "102", "112")] == [
        "022 Gainesville", "032 USA", "102 DOE, JANE", "112 30833045", "112 12345678",
        "112 Sam Roe"]  # the assistant first; a director without a name by the id
    path = tmp_path / "out.trf"
    path.write_text(text, newline="")
    assert trf.read(path).details == EventDetails(
        city="Gainesville", country="USA", chief_director=Director(name="DOE, JANE"),
        other_directors=(Director(name="30833045"), Director(name="12345678"),
                         Director(name="Sam Roe")))


def test_trf_writes_a_country_name_nowhere(tmp_path: Path) -> None:
    """032 is a federation code: 'United States' is not written there, and the site of
    an online event (a web address) goes in 022."""
    event = two_players(details=EventDetails(country="United States",
                                             site="https://lichess.org/swiss/abc"))
    lines = trf.section_text(event, event.sections[0]).split("\r\n")
    assert [x for x in lines if x[:3] in ("022", "032")] == ["022 https://lichess.org/swiss/abc"]


# --- SwissSys ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["better-swisssys_dbf_test.sjson",
                                  "better-swisssys_dbf_test_backup_rd1C.BK.sjson",
                                  "better-swisssys_chessregister_harris_championship.REDACTED.sjson"])
def test_real_sjson_files_give_no_details(shared: Path, name: str) -> None:
    """Their Overview holds Program, Version, Tournament title and Trace only."""
    path = shared / "formats" / "pairing_json" / name
    assert set(json.loads(path.read_text(encoding="utf-8"))["Overview"]) <= {
        "Program", "Version", "Tournament title", "Trace"}
    assert swisssys.read(path, event_date=date(2026, 3, 30)).details == EventDetails()


def sjson(overview: dict[str, object]) -> str:
    return json.dumps({
        "Overview": {"Program": "SwissSys", "Version": 11.34, "Tournament title": "Spring",
                     "Starting date": "2026-05-16", **overview},
        "Sections": [{"Section name": "Open", "Type": 0, "Section time control": "G/45;d5",
                      "Players": [
                          {"Pair number": 1, "Name": "Alpha, Ann", "ID": "12000001",
                           "Rating": 1800, "Results": ["+;2;W;1;0;0;0"]},
                          {"Pair number": 2, "Name": "Bravo, Bo", "ID": "12000002",
                           "Rating": 1700, "Results": ["-;1;B;1;0;0;0"]}]}]})


def test_sjson_details_of_swisssys_11_34() -> None:
    overview = {
        "Organizer ID": "A1234567", "Organizer ID Type": "USCFAffiliateID",
        "Organizer Name": "Riverside Chess Club", "Event address": "12 Main St",
        "Event city": "Riverside", "Event state": "CA", "Event zip code": "92501 ",
        "Event country": "USA",
        "Delegations": [
            {"Player ID": "16000001", "Player Name": "Owner, Olive", "Email": "x@example.org",
             "Delegation Level": "Owner"},
            {"Player ID": "16000002", "Player Name": "Chief, Carl",
             "Delegation Level": "TournamentDirector"},
            {"Player ID": "", "Player Name": "Helper, Hal",
             "Delegation Level": "TournamentDirector"},
            {"Player ID": "16000004", "Delegation Level": "Scorekeeper"}]}
    assert swisssys.parse(sjson(overview)).details == EventDetails(
        site="12 Main St", city="Riverside", state="CA", zip_code="92501", country="USA",
        affiliate_id="A1234567", affiliate_name="Riverside Chess Club",
        chief_director=Director("16000002", "Chief, Carl"),
        other_directors=(Director(name="Helper, Hal"),))


@pytest.mark.parametrize(("kind", "affiliate"), [
    (None, ("A1234567", "Club")), ("USCFAffiliateID", ("A1234567", "Club")),
    (3, ("A1234567", "Club")), ("FIDEOrganizerID", ("", "")), ("Local", ("", ""))])
def test_sjson_organizer_is_the_affiliate_only_when_a_us_chess_affiliate(
        kind: object, affiliate: tuple[str, str]) -> None:
    overview: dict[str, object] = {"Organizer ID": "A1234567", "Organizer Name": "Club"}
    if kind is not None:
        overview["Organizer ID Type"] = kind
    details = swisssys.parse(sjson(overview)).details
    assert (details.affiliate_id, details.affiliate_name) == affiliate


def test_sjson_older_organizer_key_and_a_zip_as_a_number() -> None:
    details = swisssys.parse(sjson({"NACH organizer ID": "A1234567", "Event zip code": 97124}
                                   )).details
    assert (details.affiliate_id, details.zip_code) == ("A1234567", "97124")


def test_sjson_refuses_details_of_the_wrong_kind_naming_each() -> None:
    overview = {"Event city": ["Riverside"], "Event state": {"code": "CA"},
                "Organizer ID Type": ["USCFAffiliateID"],
                "Delegations": [5, {"Player Name": ["x"], "Delegation Level": "TournamentDirector"}]}
    with pytest.raises(ParseError) as error:
        swisssys.parse(sjson(overview), "bad.sjson")
    assert [(i.where, i.message) for i in error.value.issues] == [
        ("Overview.Event city", "expected text, found a list"),
        ("Overview.Event state", "expected text, found an object"),
        ("Overview.Organizer ID Type", "expected text, found a list"),
        ("Overview.Delegations[0]", "expected an object with 'Player ID', 'Player Name' and "
         "'Delegation Level', found a number"),
        ("Overview.Delegations[1].Player Name", "expected text, found a list")]
    with pytest.raises(ParseError) as error:
        swisssys.parse(sjson({"Delegations": "Carl"}), "bad.sjson")
    assert [(i.where, i.message) for i in error.value.issues] == [
        ("Overview.Delegations", "expected a list of delegations, found text")]


# --- PGN, WinTD ----------------------------------------------------------------------------

def test_pgn_site_is_the_events_site() -> None:
    """club.pgn: the first game gives [Site "Riverside Chess Club"], the others none."""
    event, notes = pgn.load(DATA / "pgn" / "club.pgn")
    assert event.details == EventDetails(site="Riverside Chess Club")
    assert not [n for n in notes if n.where == "Site"]


def test_pgn_games_at_different_sites_leave_it_empty_with_a_note(tmp_path: Path) -> None:
    game = ('[Event "E"]\n[Site "{site}"]\n[Date "2026.03.14"]\n[Round "{r}"]\n'
            '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n\n')
    path = tmp_path / "two.pgn"
    path.write_text(game.format(site="Hall A", r=1) + game.format(site="?", r=2)
                    + game.format(site="Hall B", r=3))
    event, notes = pgn.load(path, event_date=DAY)
    assert event.details == EventDetails()
    assert [(n.where, n.message) for n in notes if n.where == "Site"] == [
        ("Site", "the games give 2 sites ('Hall A', 'Hall B'): the event's site is left empty")]


def test_wintd_files_give_no_details() -> None:
    """The published schemas hold no site, affiliate or directors."""
    event = wintd.read(DATA / "wintd" / "swiss.json", event_date=DAY)
    assert event.details == EventDetails()


# --- what a conversion does not keep ------------------------------------------------------

def test_every_detail_has_a_label_for_the_warnings() -> None:
    assert list(DETAIL_LABELS) == [f.name for f in fields(EventDetails)]


def test_converting_to_csv_names_each_detail_it_drops(tmp_path: Path) -> None:
    event = two_players(details=EventDetails(city="Gainesville", state="FL",
                                             other_directors=(Director("1"), Director("2", "B"))))
    written = write_any(event, tmp_path / "out.csv")
    assert [w for w in written.warnings if "the event's" in w] == [
        f"{tmp_path / 'out.csv'}: the CSV crosstable cannot hold the event's {what}"
        for what in ("city: 'Gainesville' is written as ''", "state: 'FL' is written as ''",
                     "other directors: '1, 2 B' is written as ''")]
    assert not [w for w in write_any(event, tmp_path / "out.json").warnings if "the event's" in w]
