"""Every `uscf db` command through the CLI as a user runs it, on the happy path and on
the refusals of issue 13 that need more than one input (the single-input refusals are in
tests/malformed/)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from tests.conftest import another_file_of

from uscf_ratings.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample-event.json"
SAMPLE_ID = "202608010001"


def run(*args: str, ok: bool = True) -> Result:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    if ok:
        assert result.exit_code == 0, result.output
    return result


def event_file(folder: Path, event_id: str, day: str, players: list[dict[str, Any]],
               name: str | None = None) -> Path:
    path = folder / f"{name or event_id}.json"
    path.write_text(json.dumps({
        "event": {"id": event_id, "name": event_id, "start_date": day, "end_date": day},
        "sections": [{"number": 1, "time_control": "G/30;d5", "players": players}]}))
    return path


def later_event(folder: Path) -> Path:
    """An event a month after the sample: Ana (30000001) beats a new member, 40000001."""
    return event_file(folder, "later", "2026-09-05", [
        {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
        {"pair": 2, "id": "40000001", "name": "Newcomer", "adult": True,
         "ratings": {"R": {"rating": 1500, "games": 30}}, "results": ["L1"]}])


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'office.db'}"
    assert run("db", "--db", url, "init").output.startswith("schema at revision")
    return url


def test_every_command_on_the_happy_path(url: str, tmp_path: Path) -> None:
    assert "schema at revision" in run("db", "--db", url, "upgrade").output
    members = tmp_path / "members.csv"
    members.write_text("id,name,R_rating,R_games\n50000001,Imported Member,1500,40\n")
    # a member no section names yet: nothing to re-rate
    assert run("db", "--db", url, "import-members", str(members)).output == \
        "imported 1 members; nothing to re-rate\n"
    assert f"rated {SAMPLE_ID}" in run("db", "--db", url, "rate", str(SAMPLE)).output
    later = later_event(tmp_path)
    assert "rated later (later): 1 section(s)" in run("db", "--db", url, "rate",
                                                      str(later)).output
    # the sample's two sections, and the one later section (Ana's) after them
    assert run("db", "--db", url, "correct", SAMPLE_ID, str(SAMPLE)).output == (
        f"corrected {SAMPLE_ID}: its 2 section(s) re-rated, and 1 later section(s) of "
        "other events\n")
    # 50000001 and 30000008 never met: merging re-rates from 30000008's first section,
    # the sample's section 1 (Hana Sato, pair 8), and so all three sections
    assert run("db", "--db", url, "merge", "30000008", "50000001").output == \
        "merged 50000001 into 30000008; 3 section(s) re-rated\n"
    assert run("db", "--db", url, "set-floor", "40000001", "R", "1400", "--from",
               "2026-09-01", "--reason", "prize").output == \
        "floor of 40000001 in R set to 1400; 1 section(s) re-rated\n"
    assert run("db", "--db", url, "correct-member", "40000001", "--fide", "1600").output == \
        "corrected 40000001; 1 section(s) re-rated\n"
    shown = run("db", "--db", url, "player", "40000001").output
    assert shown.startswith("Newcomer (40000001)") and "floor 1400" in shown
    assert "Section 1" in run("db", "--db", url, "event", "later").output
    listed = run("db", "--db", url, "list", "--as-of", "2026-12-31", "--format", "csv").output
    assert "40000001" in listed
    assert run("db", "--db", url, "withdraw", SAMPLE_ID).output == \
        f"withdrew {SAMPLE_ID}; 1 section(s) re-rated\n"
    token = run("db", "--db", url, "token", "create", "robot").output.strip()
    assert len(token) >= 32
    assert run("db", "--db", url, "token", "list").output.startswith("robot  created")
    assert run("db", "--db", url, "token", "revoke", "robot").output == "revoked robot\n"


def test_players_without_ids_are_refused_or_given_ids_on_request(url: str,
                                                                 tmp_path: Path) -> None:
    """Issue 13: a file whose players have no member id was stored with no rating for
    anyone, and `db event` showed one made-up rating for all of them."""
    path = event_file(tmp_path, "club", "2026-09-01", [
        {"pair": 1, "name": "Ann", "ratings": {"R": {"rating": 1800, "games": 50}},
         "results": ["W2", "W3"]},
        {"pair": 2, "name": "Bob", "ratings": {"R": {"rating": 1600, "games": 50}},
         "results": ["L1", "D4"]},
        {"pair": 3, "name": "Cy", "ratings": {"R": {"rating": 1400, "games": 50}},
         "results": ["W4", "L1"]},
        {"pair": 4, "name": "Dee", "ratings": {"R": {"rating": 1500, "games": 50}},
         "results": ["L3", "D2"]}])
    refused = run("db", "--db", url, "rate", str(path), ok=False)
    assert refused.exit_code == 1
    assert f"{path}: section 1: 4 player(s) have no member id: pair 1 Ann, pair 2 Bob, " \
           "pair 3 Cy, pair 4 Dee" in refused.output
    given = run("db", "--db", url, "rate", "--assign-ids", str(path))
    assert "club/1/1 (Ann), club/1/2 (Bob), club/1/3 (Cy), club/1/4 (Dee)" in given.output
    stored = json.loads(run("db", "--db", url, "event", "club", "--json").output)
    shown = {p["id"]: p["ratings"]["R"]["post"] for p in stored["sections"][0]["players"]}
    # the same section rated by `uscf rate`, which stores nothing
    direct = json.loads(run("rate", str(path), "--json").output)["events"][0]
    expected = {f"club/1/{p['pair']}": p["ratings"]["R"]["post"]
                for p in direct["sections"][0]["players"]}
    assert shown == pytest.approx(expected, abs=1e-9)
    assert len(set(shown.values())) == 4  # four players, four ratings


def test_a_correction_of_another_event_is_refused_unless_forced(url: str,
                                                                tmp_path: Path) -> None:
    run("db", "--db", url, "rate", str(SAMPLE))
    other = event_file(tmp_path, "typo-id", "2026-08-01", [
        {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
        {"pair": 2, "id": "30000002", "name": "Ben Okafor", "results": ["L1"]}])
    refused = run("db", "--db", url, "correct", SAMPLE_ID, str(other), ok=False)
    assert refused.exit_code == 1 and "--force-id" in refused.output
    forced = run("db", "--db", url, "correct", SAMPLE_ID, str(other), "--force-id")
    assert forced.output == f"corrected {SAMPLE_ID}: its 1 section(s) re-rated, nothing " \
                            "after it to re-rate\n"
    event = json.loads(run("db", "--db", url, "event", SAMPLE_ID, "--json").output)
    assert event["corrections"] == 1 and len(event["sections"]) == 1


def test_every_bad_file_of_a_batch_is_named(url: str, tmp_path: Path) -> None:
    good = later_event(tmp_path)
    no_ids = event_file(tmp_path, "e2", "2026-09-06", [
        {"pair": 1, "name": "Ann", "results": ["W2"]},
        {"pair": 2, "name": "Bob", "results": ["L1"]}])
    broken = tmp_path / "broken.json"
    broken.write_text('{"event": ')
    result = run("db", "--db", url, "rate", str(good), str(no_ids), str(broken), ok=False)
    assert result.exit_code == 1
    assert f"{no_ids}: section 1: 2 player(s) have no member id" in result.output
    assert f"{broken}: " in result.output
    assert "2 file(s) refused: nothing was stored" in result.output
    assert run("db", "--db", url, "event", "later", ok=False).exit_code == 1


def test_an_error_while_rating_names_the_file(url: str, tmp_path: Path) -> None:
    run("db", "--db", url, "rate", str(SAMPLE))
    copy = another_file_of(SAMPLE, tmp_path)
    result = run("db", "--db", url, "rate", str(later_event(tmp_path)), str(copy), ok=False)
    assert f"{copy}: event {SAMPLE_ID} is already rated from another file" in result.output


def test_read_commands_never_create_a_database(tmp_path: Path) -> None:
    path = tmp_path / "missing.db"
    for args in (["player", "1"], ["event", "x"], ["list", "--as-of", "2026-01-01"],
                 ["token", "list"]):
        result = run("db", "--db", f"sqlite:///{path}", *args, ok=False)
        assert result.exit_code == 1
        assert f"there is no database at {path}" in result.output
    assert not path.exists()


def test_a_database_without_schema_is_named(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()
    result = run("db", "--db", f"sqlite:///{path}", "player", "1", ok=False)
    assert result.output == f"Error: sqlite:///{path}: the database has no schema yet: run " \
                            "`uscf db init` first\n"


def test_an_unreachable_server_is_a_message() -> None:
    # port 1 on the loopback: nothing listens there
    result = run("db", "--db", "postgresql://someone:secret@127.0.0.1:1/office", "player",
                 "1", ok=False)
    assert result.exit_code == 1
    [line] = result.output.splitlines()
    assert line.startswith(
        "Error: postgresql://someone:***@127.0.0.1:1/office: cannot connect to the server: "
        "connection failed: ")
    assert line.endswith("nothing was changed; check the URL and that the server runs, then "
                         "run the same command again")
    assert "secret" not in result.output


def test_a_folder_where_the_database_should_be_is_a_message(tmp_path: Path) -> None:
    (tmp_path / "folder.db").mkdir()
    url = f"sqlite:///{tmp_path / 'folder.db'}"
    result = run("db", "--db", url, "player", "1", ok=False)
    assert result.output == (
        f"Error: {url}: the database file cannot be opened: unable to open database file: "
        "nothing was changed; check that it is a database file and that this user may read "
        "and write it and its folder, then run the same command again\n")


def one_id_in_two_sections(folder: Path, event_id: str, first: str, second: str) -> Path:
    """Member 30000001 plays in both sections of an event, named ``first`` in section 1
    and ``second`` in section 2."""
    path = event_file(folder, event_id, "2026-09-01", [
        {"pair": 1, "id": "30000001", "name": first, "results": ["W2"]},
        {"pair": 2, "id": "30000002", "name": "Ben Okafor", "results": ["L1"]}])
    data = json.loads(path.read_text())
    data["sections"].append({"number": 2, "time_control": "G/30;d5", "players": [
        {"pair": 1, "id": "30000001", "name": second, "results": ["W2"]},
        {"pair": 2, "id": "30000003", "name": "Chen Wei", "results": ["L1"]}]})
    path.write_text(json.dumps(data))
    return path


def test_two_names_under_one_id_is_a_warning(url: str, tmp_path: Path) -> None:
    path = one_id_in_two_sections(tmp_path, "two-sections", "Ana Torres", "Zed Other")
    result = run("db", "--db", url, "rate", str(path))
    assert f"warning: {path}: member id 30000001 is used for different names: 'Ana Torres' " \
           "(section 1, pair 1), 'Zed Other' (section 2, pair 1)" in result.output


def test_same_name_written_two_ways_is_no_warning(url: str, tmp_path: Path) -> None:
    path = one_id_in_two_sections(tmp_path, "commas", "TORRES, ANA", "Ana Torres")
    assert "warning" not in run("db", "--db", url, "rate", str(path)).output


def test_a_correction_may_give_ids_as_rate_does(url: str, tmp_path: Path) -> None:
    """The refusal of players without ids names --assign-ids: correct takes it too."""
    run("db", "--db", url, "rate", str(SAMPLE))
    path = event_file(tmp_path, SAMPLE_ID, "2026-08-01", [
        {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
        {"pair": 2, "name": "Walk In", "results": ["L1"]}])
    refused = run("db", "--db", url, "correct", SAMPLE_ID, str(path), ok=False)
    assert "no member id: pair 2 Walk In" in refused.output and "--assign-ids" in refused.output
    given = run("db", "--db", url, "correct", SAMPLE_ID, str(path), "--assign-ids")
    assert f"{SAMPLE_ID}/1/2 (Walk In)" in given.output
    event = json.loads(run("db", "--db", url, "event", SAMPLE_ID, "--json").output)
    assert [p["id"] for p in event["sections"][0]["players"]] == ["30000001", f"{SAMPLE_ID}/1/2"]


def test_event_shows_where_it_was_played_and_who_directed_it(url: str, tmp_path: Path) -> None:
    path = event_file(tmp_path, "placed", "2026-09-05", [
        {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
        {"pair": 2, "id": "40000001", "name": "Newcomer", "adult": True,
         "ratings": {"R": {"rating": 1500, "games": 30}}, "results": ["L1"]}])
    document = json.loads(path.read_text())
    document["event"]["details"] = {
        "city": "Gainesville", "state": "FL", "zip_code": "32603", "affiliate_id": "G7647935",
        "chief_director": {"id": "15120906", "name": "Jane Doe"},
        "assistant_director": {"id": "30833045"}, "other_directors": [{"name": "Sam Roe"}]}
    path.write_text(json.dumps(document))
    run("db", "--db", url, "rate", str(path))
    lines = run("db", "--db", url, "event", "placed").output.splitlines()
    assert lines[:2] == [
        "placed  (placed, 2026-09-05 .. 2026-09-05)",
        "Gainesville, FL 32603; affiliate G7647935; chief TD Jane Doe (15120906); "
        "assistant chief TD 30833045; other TDs Sam Roe"]
    shown = json.loads(run("db", "--db", url, "event", "placed", "--json").output)
    assert shown["details"]["chief_director"] == {"id": "15120906", "name": "Jane Doe"}
    # an event whose file gives none of it: no such line
    run("db", "--db", url, "rate", str(SAMPLE))
    assert run("db", "--db", url, "event", SAMPLE_ID).output.splitlines()[1] == ""


def test_late_events_of_a_batch_say_the_re_rate_was_done_once_for_them(
        url: str, tmp_path: Path) -> None:
    """Three events dated among those already stored, given as one batch: each line
    names its own sections, and the last says how many later sections were rated
    again, once, for the three (EventTransaction._rate_waiting)."""
    from tests.conftest import write_events

    files = write_events(tmp_path, 12, seed=3)
    late = [files[2], files[5], files[8]]
    run("db", "--db", url, "rate", *[str(f) for f in files if f not in late])
    out = run("db", "--db", url, "rate", *map(str, late)).output.splitlines()
    assert [line.split(" (")[0] for line in out] == [f"rated {f.stem}" for f in late]
    assert "re-rated" not in out[0] and "re-rated" not in out[1]
    assert "later section(s) re-rated (once, for this event and the 2 before it dated " \
           "among events already rated)" in out[2]


def test_withdraw_takes_several_events_at_once(url: str, tmp_path: Path) -> None:
    """Issue 16: `uscf db withdraw` of several events removes them together and
    re-rates once; one that is not stored refuses them all."""
    run("db", "--db", url, "rate", str(SAMPLE), str(later_event(tmp_path)))
    refused = run("db", "--db", url, "withdraw", "later", "nothing-such", ok=False)
    assert refused.exit_code == 1
    assert refused.output == ("Error: event nothing-such is not in the database; nothing "
                              "was withdrawn\n")
    # the sample's sections and the later one both go: nothing is left to re-rate
    assert run("db", "--db", url, "withdraw", "later", SAMPLE_ID).output == \
        f"withdrew later, {SAMPLE_ID}; nothing to re-rate\n"
    assert "not in the database" in run("db", "--db", url, "event", "later", ok=False).output


def test_import_history_seeds_the_pool_and_player_shows_it(url: str) -> None:
    """Issue 17: a member's published history through the CLI; the ratings API's page
    needs --member, said in one line."""
    from tests.published.conftest import MEMBER_HISTORY, real

    history = real(MEMBER_HISTORY)
    refused = run("db", "--db", url, "import-history", str(history), ok=False)
    assert refused.exit_code == 1 and refused.output == (
        f"Error: {history}: a page of a member's sections does not name the member: give "
        "the id with --member ID\n")
    done = run("db", "--db", url, "import-history", "--member", "12345678", str(history))
    assert done.stdout == "imported 27 published rating(s) of 1 member(s); nothing to re-rate\n"
    assert "note: 12345678 R: N of an established rating is not published (15 of the " \
        "history's sections, the last 1570.72): taken as 50" in done.stderr
    shown = run("db", "--db", url, "player", "12345678").output.splitlines()
    assert shown[:4] == ["(name not known) (12345678)", "  OR: 1336P11 (1336.26)",
                         "  Q: 1092P17 (1091.53)", "  R: 1571 (1570.72), peak 1570.72"]
    assert shown[4:7] == ["history: no section in this pool", "published by US Chess "
                          "(imported):", "  2025-06-28  202506284842 s1  R: unr. -> 695.23  P2"]
    assert shown[-3:] == ["  2026-05-29  202605290393 s1  R: 1544.47 -> 1570.72",
                          "titles: none", "norms toward a title: none"]


def test_a_postgresql_url_without_its_driver_says_which_extra(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """psycopg is the extra [postgres]: without it, one line that names the extra, not
    a traceback."""
    import sys

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "psycopg2", None)
    out = run("db", "--db", "postgresql://someone@127.0.0.1:1/pool", "list", "--as-of",
              "2026-12-31", ok=False)
    assert out.exit_code == 1
    assert out.output.splitlines() == [
        "Error: postgresql://someone@127.0.0.1:1/pool: PostgreSQL needs its driver (psycopg "
        "is missing): pip install 'uscf-ratings[postgres]'"]


def test_ctrl_c_in_a_command_of_one_transaction_says_nothing_was_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while `uscf db withdraw` re-rates (after it removed the event, in its
    transaction): one line, exit status 130, and the event is still stored."""
    from uscf_ratings.office import office as office_module

    url = f"sqlite:///{tmp_path / 'office.db'}"
    run("db", "--db", url, "init")
    run("db", "--db", url, "rate", str(SAMPLE))
    event_id = json.loads(SAMPLE.read_text())["event"]["id"]

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(office_module, "_rerated", interrupted)
    result = run("db", "--db", url, "withdraw", event_id, ok=False)
    assert result.exit_code == 130
    assert result.output == "stopped: nothing was changed\n"
    monkeypatch.undo()
    assert event_id in run("db", "--db", url, "event", event_id).output
