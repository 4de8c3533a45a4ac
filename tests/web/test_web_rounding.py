"""Each number the API shows is rounded once, half up, from the stored float.

Rounding twice can differ from rounding once: 1134.495 is 1134 to whole points, but
1134.495 to two places is 1134.50, and 1134.50 to whole points is 1135. So the public
rating of a member rated 1134.495 is 1134, as the published form ("1134") says.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.core.model import System
from uscf_ratings.formats.member_records import Baseline, MemberRecord
from uscf_ratings.office.office import Office


def once(value: float) -> int:
    """The oracle: the float's shortest decimal, rounded half up to an integer."""
    return int(Decimal(repr(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def app(url: str) -> Any:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    return TestClient(create_app(Settings(db_url=url)))


def office_with(folder: Path, ratings: list[float]) -> str:
    url = f"sqlite:///{folder / 'o.db'}"
    office = Office(url)
    office.init()
    office.import_members([MemberRecord(id=f"1000{i:04d}", name=f"Member {i}",
                                        ratings={System.R: Baseline(r, 40, peak=r)})
                           for i, r in enumerate(ratings)])
    office.engine.dispose()
    return url


def test_a_rating_of_1134_495_is_shown_as_1134_everywhere(tmp_path: Path) -> None:
    # by hand: 1134.495 -> 1134 (the .495 is below a half); 1134.495 -> 1134.50 -> 1135
    url = office_with(tmp_path, [1134.495])
    with app(url) as client:
        r = client.get("/api/players/10000000").json()["ratings"]["R"]
        assert (r["rating"], r["display"], r["peak"]) == (1134, "1134", 1134)
        assert client.get("/api/members?q=10000000").json()["members"][0]["ratings"] == {"R": "1134"}
        page = client.get("/players/10000000").text
        assert "<strong>1134</strong>" in page and "1135" not in page


def test_an_event_s_post_2dp_is_the_float_rounded_once() -> None:
    from uscf_ratings.web.privacy import public_rating

    shown = public_rating({"pre": 1120.0, "post": 1134.495, "post_2dp": 1134.5,
                           "post_rounded": 1134, "steps": []})
    assert (shown["post"], shown["post_2dp"], shown["post_rounded"]) == (1134, 1134, 1134)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(100_000, 2_999_999).map(lambda n: n / 1000), min_size=1,
                max_size=30, unique=True))
def test_every_rating_the_api_shows_is_rounded_once(ratings: list[float]) -> None:
    """Ratings to three places, where a half at the third place rounds up at the second
    and can carry to the whole point: the API's rating and its published form agree
    with rounding the float once."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        url = office_with(Path(folder), ratings)
        with app(url) as client:
            for i, value in enumerate(ratings):
                r = client.get(f"/api/players/1000{i:04d}").json()["ratings"]["R"]
                assert r["rating"] == once(value) == int(r["display"]), value
            listed = {e["id"]: e["rating"] for e in
                      client.get("/api/list?as_of=2100-01-01&system=R").json()}
            assert listed == {f"1000{i:04d}": once(v) for i, v in enumerate(ratings)}


def test_uscf_db_event_shows_a_pre_rating_of_a_half_rounded_up(tmp_path: Path) -> None:
    """1642.5 is 1643 half up (2025 text, section 7: "conventional rounding"); Python's
    round() gives 1642 (half to even)."""
    from click.testing import CliRunner

    from uscf_ratings.cli.main import cli

    url = office_with(tmp_path, [1642.5, 1500.0])
    event = tmp_path / "e.json"
    event.write_text(
        '{"event": {"id": "half", "start_date": "2026-09-01"}, "sections": [{"number": 1, '
        '"time_control": "G/90;d5", "players": ['
        '{"pair": 1, "id": "10000000", "name": "Member 0", "results": ["D2"]}, '
        '{"pair": 2, "id": "10000001", "name": "Member 1", "results": ["D1"]}]}]}')
    assert CliRunner().invoke(cli, ["db", "--db", url, "rate", str(event)]).exit_code == 0
    shown = CliRunner().invoke(cli, ["db", "--db", url, "event", "half"]).output
    assert "R: 1643 -> " in shown and "R: 1642 -> " not in shown, shown


def test_the_pages_two_places_are_rounded_half_up(bare_client: Any) -> None:
    """A page shows a rating to two places as the terminal and the CSV files do: the
    decimal as written, rounded half up (2025 text, section 7). By hand: 1134.495 is
    1134.50, though the float nearest it is a little below (1134.49499...), which
    ``:.2f`` shows as 1134.49; 1500.125 is a float exactly, a half, which ``:.2f``
    rounds to even, 1500.12, and half up is 1500.13."""
    from tests.web.test_web_pages import estimate_form, text_of
    from uscf_ratings.web.templating import two_places

    assert (f"{1134.495:.2f}", f"{1500.125:.2f}") == ("1134.49", "1500.12")  # not these
    assert (two_places(1134.495), two_places(1500.125)) == ("1134.50", "1500.13")
    page = bare_client.post("/estimate", data=estimate_form(
        mode="total", score="1", opp_rating=["1134.495", "1500.125"], opp_games=["", ""]))
    assert page.status_code == 200
    text = text_of(page.text)
    assert "1134.50" in text and "1500.13" in text, text
    assert "1134.49" not in text and "1500.12" not in text
