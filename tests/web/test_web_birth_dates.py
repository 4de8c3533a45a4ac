"""An attacker with every public output of the office tries to recover juniors' birth dates.

Events with unrated juniors are rated through the API (`POST /api/events`): age-based
starts under the 2017 text's priority lists (2019) and the 2024/2025 texts' blended
initialization (2025), blended starts whose z, staleness and weights use the age, and a
later event whose pre-event ratings carry the first ratings on. The juniors come in
"twins": two players in mirror positions of one section (same opponents, same results,
a draw with each other) whose birth dates differ by one day; one pair straddles a
birthday on the event's date (ages 10.0014 and 9.9986 by section 2.3's 365.25-day year).

The attacks, on every page, JSON answer and CSV download the app serves to anyone:
1. the birth date written out (ISO, US, compact, dotted, with slashes) or a birth_date key;
2. every number shown with decimals is matched against every number the rules derive
   from an age (hand formulas of the 2025 text, section 2.3 and the blended rule of
   section 2): 50 x age, the age in years, months and days, P_k, z_k, S_k and W_k at
   each source's date; a match counts only where the shown precision pins the birth
   date to one day (its rounding step is finer than what one day changes);
3. the twins' public records must be the same once ids, names and pair numbers are set
   aside: any difference tells two birth dates one day apart apart.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from uscf_ratings.office.office import Office
from uscf_ratings.office.tokens import create_token

ADULT = {"R": {"rating": 1500, "games": 40}, "Q": {"rating": 1450, "games": 40},
         "B": {"rating": 1400, "games": 30}}
ADULT2 = {"R": {"rating": 1150, "games": 60}, "Q": {"rating": 1100, "games": 60},
          "B": {"rating": 1050, "games": 50}}
#: Blended starts: two sources, so that R0 itself depends on the weights (and the age).
BLENDED = {"Q": {"rating": 900, "games": 6, "date": "2024-12-01"},
           "B": {"rating": 700, "games": 8, "date": "2025-03-01"}}


class Twin:
    def __init__(self, id: str, name: str, birth: date, ratings: dict[str, Any] | None = None):
        self.id, self.name, self.birth, self.ratings = id, name, birth, ratings or {}


PAIRS = {
    "2017 age": (Twin("31000001", "Ada Alpha", date(2009, 11, 30)),
                 Twin("31000002", "Bea Alpha", date(2009, 12, 1))),
    "2025 age": (Twin("31000003", "Cal Beta", date(2014, 3, 14)),
                 Twin("31000004", "Dee Beta", date(2014, 3, 15))),
    "birthday": (Twin("31000005", "Eve Gamma", date(2015, 6, 14)),
                 Twin("31000006", "Fay Gamma", date(2015, 6, 15))),
    "blended": (Twin("31000007", "Gil Delta", date(2013, 8, 20), BLENDED),
                Twin("31000008", "Hal Delta", date(2013, 8, 21), BLENDED)),
}
TWINS = [t for pair in PAIRS.values() for t in pair]


def quad(number: int, systems: list[str], twins: tuple[Twin, Twin], a: str, b: str,
         first: bool) -> dict[str, Any]:
    """A round robin of four: the twins draw, each loses to adult a and beats adult b,
    and a beats b; mirror positions for the twins."""
    t1, t2 = twins

    def junior(t: Twin, other: int, pairs: tuple[str, str]) -> dict[str, Any]:
        out: dict[str, Any] = {"pair": 1 if t is t1 else 2, "id": t.id, "name": t.name,
                               "results": [f"D{other}", *pairs]}
        if first:
            out["birth_date"] = t.birth.isoformat()
            if t.ratings:
                out["ratings"] = t.ratings
        return out

    def adult(pair: int, id: str, ratings: dict[str, Any], results: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"pair": pair, "id": id, "name": f"Adult {id[-2:]}",
                               "adult": True, "results": results}
        if first:
            out["ratings"] = {s: ratings[s] for s in systems}
        return out

    return {"number": number, "systems": systems, "players": [
        junior(t1, 2, ("L3", "W4")), junior(t2, 1, ("W4", "L3")),
        adult(3, a, ADULT, ["W4", "W1", "W2"]), adult(4, b, ADULT2, ["L3", "L2", "L1"])]}


def events() -> list[dict[str, Any]]:
    return [
        {"event": {"id": "201905040001", "name": "Spring 2019", "start_date": "2019-05-04"},
         "sections": [quad(1, ["R", "Q"], PAIRS["2017 age"], "32000001", "32000002", True)]},
        {"event": {"id": "202506140001", "name": "June 2025", "start_date": "2025-06-14"},
         "sections": [quad(1, ["R", "Q"], PAIRS["2025 age"], "32000003", "32000004", True),
                      quad(2, ["R"], PAIRS["birthday"], "32000005", "32000006", True),
                      quad(3, ["R"], PAIRS["blended"], "32000007", "32000008", True)]},
        {"event": {"id": "202509060001", "name": "September 2025", "start_date": "2025-09-06"},
         "sections": [quad(1, ["R", "Q"], PAIRS["2025 age"], "32000003", "32000004", False),
                      quad(2, ["R"], PAIRS["birthday"], "32000005", "32000006", False),
                      quad(3, ["R"], PAIRS["blended"], "32000007", "32000008", False),
                      quad(4, ["B"], PAIRS["2017 age"], "32000001", "32000002", False)]},
    ]


EVENT_DATES = [date(2019, 5, 4), date(2025, 6, 14), date(2025, 9, 6)]


# --- what the rules derive from a birth date (hand formulas) ---------------------------


def age(birth: date, on: date) -> float:
    """Age = (Tournament End Date - Birth Date)/365.25 (2025 text, section 2.3)."""
    return (on - birth).days / 365.25


def derived(birth: date) -> dict[str, float]:
    """Every number the rules compute from this birth date for our events."""
    out: dict[str, float] = {}
    for on in EVENT_DATES:
        out[f"50 x age on {on}"] = 50 * age(birth, on)
        out[f"age in years on {on}"] = age(birth, on)
        out[f"age in months on {on}"] = (on - birth).days / (365.25 / 12)
        out[f"age in days on {on}"] = float((on - birth).days)
    # Blended start (2025 text, section 2): P_k = 50 x age at the source's date,
    # z_k = min(6, (X_k - P_k)/350), S_k = exp(0.06 (z_k - 6) D_k/365.25), W_k = G_k S_k,
    # R0 = sum(W_k X_k)/sum(W_k); G_k = min(5, games) for Q and B into R.
    end = date(2025, 6, 14)
    weights = []
    for system, source in BLENDED.items():
        rated_on = date.fromisoformat(source["date"])
        p = 50 * age(birth, rated_on)
        z = min(6.0, (source["rating"] - p) / 350)
        s = math.exp(0.06 * (z - 6) * (end - rated_on).days / 365.25)
        w = min(5, source["games"]) * s
        out |= {f"P_{system}": p, f"z_{system}": z, f"S_{system}": s, f"W_{system}": w}
        weights.append((w, source["rating"]))
    out["blended R0"] = sum(w * x for w, x in weights) / sum(w for w, _ in weights)
    return out


def written_forms(day: date) -> list[str]:
    return [day.isoformat(), day.strftime("%m/%d/%Y"), day.strftime("%Y%m%d"),
            day.strftime("%Y/%m/%d"), day.strftime("%d.%m.%Y"), f"{day.month}/{day.day}/{day.year}",
            day.strftime("%B %d, %Y"), day.strftime("%d %B %Y")]


NUMBER = re.compile(r"(?<![\w.])-?\d+\.(\d+)(?![\w.])")


def pinning_matches(where: str, text: str, twin: Twin) -> list[str]:
    """Numbers in ``text`` that equal a number derived from the birth date, at a
    precision that tells the birth date to the day."""
    found = []
    here, next_day = derived(twin.birth), derived(twin.birth + timedelta(days=1))
    shown = [(float(m.group(0)), len(m.group(1))) for m in NUMBER.finditer(text)]
    for name, value in here.items():
        per_day = abs(next_day[name] - value)
        for x, decimals in shown:
            step = 10.0 ** -decimals
            if step < per_day and abs(x - value) <= step / 2 + 1e-9:
                found.append(f"{where}: {x} is {name} ({value!r}) of {twin.name}")
    return found


# --- the office, written through the API ------------------------------------------------


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[str], str]]:
    """The app over an office where the events were submitted through the API; the
    write answers (to the token's holder) are kept, to be checked as well."""
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    url = f"sqlite:///{tmp_path_factory.mktemp('birth') / 'o.db'}"
    office = Office(url)
    office.init()
    token = create_token(office.engine, "tests")
    office.engine.dispose()
    with TestClient(create_app(Settings(db_url=url))) as client:
        answers = []
        for document in events():
            answer = client.post("/api/events", json=document,
                                 headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 201, answer.text
            answers.append(answer.text)
        yield client, answers, url


def public_outputs(client: Any) -> dict[str, str]:
    """Every page, API answer and CSV anyone can fetch about these members and events."""
    ids = [m["id"] for m in client.get("/api/members", params={"limit": 500}).json()["members"]]
    assert set(t.id for t in TWINS) <= set(ids)
    paths = ["/", "/members", "/members?q=a", "/events", "/api/members?limit=500",
             "/api/members?q=Delta", "/docs"]
    paths += [p for i in ids for p in (f"/players/{i}", f"/api/players/{i}")]
    paths += [p for e in events() for p in (f"/events/{e['event']['id']}",
                                            f"/api/events/{e['event']['id']}")]
    for day in ["2019-05-04", "2019-12-31", "2025-06-14", "2025-06-30", "2025-12-31"]:
        for system in ["R", "Q", "B"]:
            query = f"as_of={day}&system={system}"
            paths += [f"/list?{query}", f"/list.csv?{query}", f"/api/list?{query}"]
    out = {}
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.text[:300])
        out[path] = answer.text
    return out


def test_no_public_output_gives_a_birth_date_away(rated: tuple[Any, list[str], str]) -> None:
    client, answers, _ = rated
    outputs = public_outputs(client)
    outputs |= {f"POST /api/events answer {n}": text for n, text in enumerate(answers)}
    assert len(outputs) > 90  # 16 members x 2, 3 events x 2, 45 lists, 3 answers, ...
    leaks = []
    for where, text in outputs.items():
        if "birth_date" in text and where != "/docs":
            leaks.append(f"{where}: a birth_date field")
        for twin in TWINS:
            leaks += [f"{where}: {form} of {twin.name}" for form in written_forms(twin.birth)
                      if form in text]
            leaks += pinning_matches(where, text, twin)
    assert not leaks, f"{len(leaks)} leaks, such as:\n" + "\n".join(leaks[:20])


IGNORED = {"pair", "pairs", "id", "name", "results", "event_id"}


def leaves(value: Any, out: list[str]) -> list[str]:
    """Every value of a JSON document but the ids, names and pair numbers, as text."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in IGNORED:
                leaves(item, out)
    elif isinstance(value, list):
        for item in value:
            leaves(item, out)
    else:
        out.append(json.dumps(value))
    return sorted(out)


def differ(first: list[str], second: list[str]) -> list[str]:
    """What one record holds that the other does not (as multisets), a few of them."""
    a, b = Counter(first), Counter(second)
    return sorted((a - b) + (b - a))[:6]


def record_in(event: dict[str, Any], member: str) -> list[str]:
    return leaves([p for s in event["sections"] for p in s["players"] if p["id"] == member], [])


def test_twins_born_a_day_apart_look_the_same(rated: tuple[Any, list[str], str]) -> None:
    client, _, _ = rated
    differences = []
    for label, (one, two) in PAIRS.items():
        for e in events():
            event = client.get(f"/api/events/{e['event']['id']}").json()
            first, second = record_in(event, one.id), record_in(event, two.id)
            if first != second:
                differences.append(f"{label}, event {e['event']['id']}: "
                                   f"{differ(first, second)}")
        first = leaves(client.get(f"/api/players/{one.id}").json(), [])
        second = leaves(client.get(f"/api/players/{two.id}").json(), [])
        if first != second:
            differences.append(f"{label}, /api/players: {differ(first, second)}")
        pages = [client.get(f"/players/{t.id}").text.replace(t.id, "ID").replace(t.name, "NAME")
                 for t in (one, two)]
        if pages[0] != pages[1]:
            differences.append(f"{label}, /players page differs")
    assert not differences, "\n".join(differences)


def test_the_office_did_start_the_juniors_from_their_ages(
        rated: tuple[Any, list[str], str]) -> None:
    """The tests above would prove nothing if no number came from an age: the office's
    own (private) explanation has R0 = 50 x age to the last decimal for the age-based
    starts, and the blended weights of the hand formula."""
    from uscf_ratings.office import queries

    _, _, url = rated
    office = Office(url)
    try:
        with office.engine.connect() as c:
            inside = {e["event"]["id"]: queries.event(c, e["event"]["id"]) for e in events()}
    finally:
        office.engine.dispose()
    players = {p["id"]: p for p in inside["202506140001"]["sections"][0]["players"]}
    cal = players["31000003"]["ratings"]["R"]
    assert cal["initial"]["method"] == "age"
    # 2025-06-14 - 2014-03-14 = 4110 days: 50 x 4110/365.25 = 562.6283...
    assert cal["R0"] == pytest.approx(50 * 4110 / 365.25, abs=1e-9)
    players = {p["id"]: p for p in inside["202506140001"]["sections"][2]["players"]}
    gil = players["31000007"]["ratings"]["R"]
    assert gil["initial"]["method"] == "blended"
    assert gil["R0"] == pytest.approx(derived(date(2013, 8, 20))["blended R0"], abs=1e-9)
    ada = {p["id"]: p for p in inside["201905040001"]["sections"][0]["players"]}["31000001"]
    assert ada["ratings"]["R"]["R0"] == pytest.approx(50 * age(date(2009, 11, 30),
                                                               date(2019, 5, 4)), abs=1e-9)
