"""The estimator's pages: what a visitor reads of each mode, the glossary, the section
form's fields for what a file lacks, and refusals in plain words.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.conftest import sample_text
from tests.web.test_web_pages import estimate_form, text_of

#: A CSV crosstable that gives neither its date nor its systems nor a time control; its
#: one rating column cannot be placed without the systems. Round 1: 1 beats 2; round 2:
#: 1 draws with 3.
UNDATED_CSV = """\
# event_id: 202604040001
# event_name: Spring Action
pair,id,name,rating,games,round1,round2
1,30000001,"Torres, Ana",1850.37,120,W2,D3
2,30000002,"Okafor, Ben",1720.8,85,L1,B
3,30000003,"Wei, Chen",1610,40,B,D1
"""
GLOSSARY_TERMS = ("n", "n-prime", "k", "e", "bonus", "floor", "s", "m", "r0", "performance")


def upload(client: Any, text: str = UNDATED_CSV, **fields: str) -> Any:
    return client.post("/estimate/section", data=fields,
                       files={"file": ("spring.csv", text.encode(), "text/csv")})


def problem_text(html: str) -> str:
    box = re.search(r'<div class="problem".*?</div>', html, re.S)
    assert box is not None, "no problem box"
    return text_of(box.group(0)).strip()


# --- 1 to 4: the modes, as the page says them ---------------------------------------------


def test_a_rating_without_n_says_what_is_assumed(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(games=""))
    assert page.status_code == 200
    text = text_of(page.text)
    assert "N not given: assumed N = 26, the fewest games of an established rating" in text
    assert "N* = 16.57 for this rating" in text  # hand calculation: test_web_estimator


def test_a_total_score_page_shows_the_assumed_results(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(
        mode="total", score="1.5", opp_rating=["1600", "1400", "1500"], opp_games=[""] * 3))
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Result (assumed)" in text
    assert "1 1600.00 30 lost 2 1400.00 30 won 3 1500.00 30 drew" in text
    assert "assumes 1 win, 1 draw and 1 loss" in text
    assert "Had you won against your highest-rated opponents instead" in text


def test_a_dual_rated_page_shows_both_ratings_in_words(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(
        system="R+Q", quick_rating="1450", quick_games="30", opp_quick=["1550", "", ""]))
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Estimate Your Regular and Quick ratings after these games" in text
    assert 'id="estimate-rounded"' in page.text and 'id="estimate-rounded-Q"' in page.text
    assert "Opponent's Quick rating" in text and "1 1600.00 1550.00 30 won" in text
    assert "taken to be the same as his Regular rating" in text


def test_the_page_shows_both_performance_ratings(bare_client: Any) -> None:
    """A win against 1800 and a draw with 1000: 1600 by the algorithm of 400, 1800 by the
    2025 text (worked in test_web_estimator)."""
    page = bare_client.post("/estimate", data=estimate_form(
        opp_rating=["1800", "1000"], opp_games=["", ""], result=["W", "D"]))
    assert re.search(r'class="by-400">1600.00<', page.text)
    assert re.search(r'class="by-2025">1800.00<', page.text)
    text = text_of(page.text)
    assert "algorithm of 400" in text and "section 4.1" in text


def test_a_perfect_score_s_2025_performance_is_open_above(bare_client: Any) -> None:
    """Two wins against 1500 and 1600: every R from 2000 (400 above the 1600) up."""
    page = bare_client.post("/estimate", data=estimate_form(
        opp_rating=["1500", "1600"], opp_games=["", ""], result=["W", "W"]))
    assert "any rating from 2000.00 up" in text_of(page.text)


# --- 5. the systems in words ---------------------------------------------------------------


@pytest.mark.parametrize(("code", "words"), [
    ("R", "Regular"), ("Q", "Quick"), ("B", "Blitz"), ("OR", "Online Regular"),
    ("OQ", "Online Quick"), ("OB", "Online Blitz")])
def test_each_system_is_named_in_words(bare_client: Any, code: str, words: str) -> None:
    page = bare_client.post("/estimate", data=estimate_form(system=code))
    text = text_of(page.text)
    assert f"Estimate Your {words} rating after these games" in text
    assert f'<strong>{words}</strong>:' in page.text  # the explanation's first line
    assert f'<option value="{code}" selected>{words}</option>' in page.text


def test_the_form_offers_every_system_in_words(bare_client: Any) -> None:
    page = bare_client.get("/")
    for words in ("Regular", "Quick", "Blitz", "Online Regular", "Online Quick", "Online Blitz",
                  "Regular and Quick at once (a dual-rated event)"):
        assert f">{words}</option>" in page.text


# --- 6. the glossary -----------------------------------------------------------------------


def test_the_glossary_has_an_anchor_for_each_term(bare_client: Any) -> None:
    page = bare_client.get("/glossary")
    assert page.status_code == 200
    for term in GLOSSARY_TERMS:
        assert f'id="{term}"' in page.text
    text = text_of(page.text)
    for section in ("section 1", "section 3", "section 4.1", "section 4.2", "section 5"):
        assert section in text


def test_every_explanation_links_its_terms_to_the_glossary(bare_client: Any) -> None:
    estimated = bare_client.post("/estimate", data=estimate_form()).text
    section = bare_client.post("/estimate/section", data={"event_json": sample_text()}).text
    for page in (estimated, section):
        for term in ("n", "n-prime", "k", "e", "bonus", "floor"):
            assert f'href="/glossary#{term}"' in page


# --- 7. what a file lacks, from the section form -------------------------------------------


def test_a_file_without_a_date_asks_for_the_form_s_date(bare_client: Any) -> None:
    page = upload(bare_client)
    assert page.status_code == 422
    text = problem_text(page.text)
    assert "spring.csv has 4 problems" in text
    assert "give the event date in the form" in text and "--date" not in text
    assert "needs the section's systems or time control" in text


def test_the_form_supplies_the_date_and_the_systems(bare_client: Any) -> None:
    page = upload(bare_client, given_date="2026-04-04", given_systems="R")
    assert page.status_code == 200, problem_text(page.text)
    text = text_of(page.text)
    assert "Spring Action (202604040001, 2026-04-04 .. 2026-04-04)" in text
    assert "Event date 2026-04-04: used, since the file gives none." in text
    assert "Rating systems Regular: used for section 1" in text
    assert "30000001 / R: 1850 → 1851" in text  # the file's one rating column, as Regular


def test_the_form_s_time_control_chooses_the_systems(bare_client: Any) -> None:
    """G/5;d0: T = 5 + 0 = 5, Blitz (footnote 1: 5 <= T <= 10)."""
    page = upload(bare_client, given_date="2026-04-04", given_time_control="G/5;d0")
    assert page.status_code == 200, problem_text(page.text)
    text = text_of(page.text)
    assert "Time control G/5;d0: used for section 1" in text
    assert "30000001 / B: 1850 → 1851" in text and "<strong>Blitz</strong>" in page.text


def test_the_form_s_systems_win_over_its_time_control(bare_client: Any) -> None:
    """G/45;d5 alone would be dual-rated (T = 50: Regular and Quick); the form says Quick."""
    page = upload(bare_client, given_date="2026-04-04", given_systems="Q",
                  given_time_control="G/45;d5")
    assert page.status_code == 200, problem_text(page.text)
    assert "(Q, rules of" in text_of(page.text)


def test_a_file_s_own_date_is_kept(bare_client: Any) -> None:
    page = bare_client.post("/estimate/section", data={"given_date": "2020-01-01"},
                            files={"file": ("sample.json", sample_text(), "application/json")})
    assert page.status_code == 200
    text = text_of(page.text)
    assert "(202608010001, 2026-08-01 .. 2026-08-01)" in text
    assert "Event date 2020-01-01: not used: the file gives its own date." in text


def test_pasted_json_without_systems_takes_the_form_s(bare_client: Any) -> None:
    event = json.loads(sample_text())
    for section in event["sections"]:
        section.pop("time_control", None)
        section.pop("systems", None)
    pasted = json.dumps(event)
    refused = bare_client.post("/estimate/section", data={"event_json": pasted})
    assert refused.status_code == 422
    assert "neither the rating systems nor a time control" in problem_text(refused.text)
    rated = bare_client.post("/estimate/section", data={"event_json": pasted,
                                                        "given_systems": "R,Q"})
    assert rated.status_code == 200, problem_text(rated.text)
    assert "Rating systems Regular and Quick: used for sections 1, 2" in text_of(rated.text)


def test_the_form_s_own_fields_are_checked(bare_client: Any) -> None:
    page = upload(bare_client, given_systems="X", given_time_control="whenever",
                  given_date="2026-04-4")
    assert page.status_code == 422
    text = problem_text(page.text)
    assert "The event has 3 problems" in text
    for where in ("rating systems", "time control", "event date"):
        assert where in text


# --- 8. refusals in plain words --------------------------------------------------------------


def test_form_problems_are_counted_in_words(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(rating="", opp_rating=["abc"],
                                                            result=["X"]))
    assert page.status_code == 422
    text = problem_text(page.text)
    assert text.startswith("The form has 3 problems:")
    assert "give your rating (N too, if you know it), or say that you are unrated" in text
    assert not re.search(r"\b422\b", text)


def test_one_problem_is_said_without_a_number(bare_client: Any) -> None:
    page = bare_client.post("/estimate/section", data={"event_json": "  "})
    assert page.status_code == 400
    assert problem_text(page.text) == "choose a file to upload, or paste an event JSON document"


def test_a_file_over_the_limit_is_refused_in_plain_words() -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    small = TestClient(create_app(Settings(max_upload=2 * 1024 * 1024)))
    big = sample_text() * 2000  # about 9 MB
    page = small.post("/estimate/section",
                      files={"file": ("big.json", big, "application/json")})
    assert page.status_code == 413
    assert problem_text(page.text) == "The file is larger than this server accepts (at most 2 MB)."
    assert "--max-upload" not in page.text and 'id="section-form"' in page.text
    api = small.post("/api/rate", content=big)  # the API keeps the operator's detail
    assert api.status_code == 413 and "--max-upload" in api.json()["detail"]


def test_the_error_page_has_no_status_number(bare_client: Any) -> None:
    page = bare_client.get("/no-such-page")
    assert page.status_code == 404
    main = re.search(r"<main.*?</main>", page.text, re.S)
    assert main is not None and "<h1>Not found</h1>" in main.group(0)
    assert "404" not in text_of(main.group(0))
    assert "<title>Not found" in page.text


# --- the same estimate in the terminal ----------------------------------------------------

#: the same inputs as ``uscf estimate`` options and as the page's form
SAME_INPUTS = [
    (["--rating", "1500", "--games", "40", "--game", "1600:W", "--game", "1500:D:12"],
     {"rating": "1500", "games": "40", "opp_rating": ["1600", "1500"],
      "opp_games": ["", "12"], "result": ["W", "D"]}),
    (["--unrated", "--age", "12", "--fide", "1500", "--cfc", "1400", "--other", "Q:1450:8",
      "--game", "1600:W", "--game", "1400:L", "--game", "1500:D"],
     {"status": "unrated", "age_group": "12", "fide": "1500", "cfc": "1400",
      "other_system": "Q", "other_rating": "1450", "other_games": "8",
      "opp_rating": ["1600", "1400", "1500"], "opp_games": ["", "", ""],
      "result": ["W", "L", "D"]}),
    (["--dual", "--rating", "2250", "--games", "60", "--quick-rating", "2180",
      "--game", "2300/2250:W", "--game", "2200:D", "--game", "2350:L:40"],
     {"system": "R+Q", "rating": "2250", "games": "60", "quick_rating": "2180",
      "opp_rating": ["2300", "2200", "2350"], "opp_quick": ["2250", "", ""],
      "opp_games": ["", "", "40"], "result": ["W", "D", "L"]}),
    (["--rating", "1520", "--peak", "1790", "--floor", "1400", "--score", "1.5",
      "--game", "1600", "--game", "1400", "--game", "1500"],
     {"rating": "1520", "games": "", "peak": "1790", "floor": "1400", "mode": "total",
      "score": "1.5", "opp_rating": ["1600", "1400", "1500"], "opp_games": ["", "", ""],
      "result": ["", "", ""]}),
]


@pytest.mark.parametrize(("args", "fields"), SAME_INPUTS,
                         ids=["rated", "unrated", "dual", "total-peak-floor"])
def test_uscf_estimate_equals_the_web_estimator(bare_client: Any, args: list[str],
                                                fields: dict[str, Any]) -> None:
    """The terminal's JSON is the web estimator's estimate of the same form, and the page
    shows the same ratings."""
    from click.testing import CliRunner

    from uscf_ratings.cli.main import cli
    from uscf_ratings.web.routes.estimator import _estimate

    done = CliRunner().invoke(cli, ["estimate", "--date", "2026-08-01", *args, "--json"])
    assert done.exit_code == 0, done.output
    terminal = json.loads(done.output)
    form = estimate_form(**({"games": ""} | fields))
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    lists = {k: v for k, v in form.items() if isinstance(v, list)}
    assert terminal == json.loads(json.dumps(_estimate(values, lists, 100).to_json()))
    page = bare_client.post("/estimate", data=form)
    assert page.status_code == 200
    for number, part in enumerate(terminal["parts"]):
        tag = "" if number == 0 else f"-{part['system']}"
        shown = re.search(rf'id="estimate-rounded{tag}">(\d+)<', page.text)
        assert shown is not None and int(shown.group(1)) == part["explanation"]["post_rounded"]
    if "fide" in fields:
        assert "FIDE 1500 → 1277.05: FIDE conversion -1073 + 1.5667 FIDE" in text_of(page.text)


def test_form_errors_sit_at_their_fields(bare_client: Any) -> None:
    """Each refused field is marked (aria-invalid) and described by its own message, which
    sits beside it; a game's cell by its row (the second row here)."""
    page = bare_client.post("/estimate", data=estimate_form(
        rating="abc", opp_rating=["1600", "x", ""], result=["W", "Q", "W"]))
    assert page.status_code == 422
    marked = dict(re.findall(r'name="(\w+)" aria-invalid="true" aria-describedby="([\w-]+)"',
                             page.text))
    assert marked == {"rating": "error-rating", "opp_rating": "error-opp_rating-1",
                      "result": "error-result-1"}
    said = dict(re.findall(r'<span class="field-error" id="([\w-]+)">([^<]+)</span>', page.text))
    assert said == {"error-rating": "&#39;abc&#39; is not a number",
                    "error-opp_rating-1": "&#39;x&#39; is not a number",
                    "error-result-1": "&#39;Q&#39; is not W, D or L"}
