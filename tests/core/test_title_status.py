"""Titles from norms and ratings (core/titles.py), over a member's history built by hand
(titles.md, "Titles")."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.norms import NORM_CODES
from uscf_ratings.core.titles import Earned, TitleEvent, title_status, titles_held


def event(n: int, norm: str | None, rating: float, established: bool = True,
          olm: bool = False) -> TitleEvent:
    return TitleEvent(date(2019, 1, n), f"E{n}", 1, norm, rating, established, olm)


def test_five_norms_with_a_higher_one_counting_below() -> None:
    # Four 3rd Category norms (N:3) and one 2nd Category norm (N:2): five at 1400 or above.
    history = [event(1, "N:3", 1450), event(2, "N:3", 1460), event(3, None, 1455),
               event(4, "N:3", 1470), event(5, "N:3", 1480), event(6, "N:2", 1510)]
    before = title_status(history, as_of=date(2019, 1, 5))
    assert before.titles == ()
    assert before.progress[1].code == "N:3" and before.progress[1].norms == 4
    status = title_status(history)
    third = next(t for t in status.titles if t.key == "ThirdCategory")
    assert (third.date, third.event) == (date(2019, 1, 6), "E6")
    # at 1200 the same five norms count; at 1600 only the one N:2
    assert [p.norms for p in status.progress[:3]] == [5, 5, 1]
    assert status.holds("FourthCategory") and not status.holds("SecondCategory")
    assert [n.event for n in status.progress[1].earned] == ["E1", "E2", "E4", "E5", "E6"]


def test_candidate_master_waits_for_an_established_rating_of_2000() -> None:
    # Five N:C norms while provisional, below 2000; established at 1980, then 2010.
    history = [event(i, "N:C", 1900 + 10 * i, established=False) for i in range(1, 6)]
    history += [event(6, None, 1980), event(7, None, 2010)]
    at5 = title_status(history, as_of=date(2019, 1, 5))
    assert at5.titles == ()
    assert at5.progress[4].waiting == "waiting for an established rating of 2000"
    assert at5.progress[3].waiting == "waiting for an established rating"
    at6 = title_status(history, as_of=date(2019, 1, 6))
    # established at 1980: the titles up to 1st Category come; Candidate Master still waits
    assert {t.key for t in at6.titles} == {"FourthCategory", "ThirdCategory",
                                           "SecondCategory", "FirstCategory"}
    assert all(t.date == date(2019, 1, 6) for t in at6.titles)
    done = title_status(history)
    cm = next(t for t in done.titles if t.key == "CandidateMaster")
    assert cm.date == date(2019, 1, 7) and not done.holds("LifeMaster")


def test_an_established_rating_at_the_level_before_the_norms_counts() -> None:
    history = [event(1, None, 2050)] + [event(i, "N:C", 1990) for i in range(2, 7)]
    cm = next(t for t in title_status(history).titles if t.key == "CandidateMaster")
    assert cm.date == date(2019, 1, 6)


def test_national_master_and_original_life_master() -> None:
    history = [event(1, None, 2199, established=False), event(2, None, 2205, established=False),
               event(3, None, 2190), event(4, None, 2201), event(5, None, 2230, olm=True)]
    status = title_status(history)
    nm = next(t for t in status.titles if t.key == "NationalMaster")
    olm = next(t for t in status.titles if t.key == "OriginalLifeMaster")
    assert nm.date == date(2019, 1, 4) and nm.category == "RatingsTitle"
    assert olm.date == date(2019, 1, 5)


def test_an_import_carries_titles_and_norms() -> None:
    earned = Earned(titles={"FourthCategory": date(2010, 5, 1)}, norms={"N:3": 4}, peak=1500)
    status = title_status([event(1, "N:3", 1490)], earned=earned)
    third = next(t for t in status.titles if t.key == "ThirdCategory")
    assert third.event == "E1" and status.progress[1].norms == 5
    assert next(t for t in status.titles if t.key == "FourthCategory").basis == \
        "carried from an import"


def test_imported_norms_alone_make_a_title() -> None:
    # five 4th Category norms carried, with an established rating known (the peak): the
    # title is held before any event, dated unknown, and said to come from the import
    status = title_status([], earned=Earned(norms={"N:4": 5}, peak=1350))
    fourth = next(t for t in status.titles if t.key == "FourthCategory")
    assert fourth.date is None and fourth.basis.endswith("(carried from an import)")
    # without an established rating it waits
    assert title_status([], earned=Earned(norms={"N:4": 5})).titles == ()


def test_an_imported_title_is_held_from_its_date() -> None:
    earned = Earned(titles={"CandidateMaster": date(2015, 6, 1), "FourthCategory": None})
    before = title_status([], as_of=date(2015, 5, 31), earned=earned)
    assert [t.key for t in before.titles] == ["FourthCategory"]  # undated: from the start
    after = title_status([], as_of=date(2015, 6, 1), earned=earned)
    assert {t.key for t in after.titles} == {"FourthCategory", "CandidateMaster"}


# --- titles_held: title_status's titles, without the progress ------------------------------


#: a member's sections: any norm or none, a rating about the levels and the 2200 of a
#: National Master, established or not, the OLM flag now and then
histories = st.lists(st.tuples(st.sampled_from((None, *NORM_CODES)),
                               st.floats(1000, 2600), st.booleans(),
                               st.sampled_from((False, False, False, True))), max_size=30)


@given(histories, st.sampled_from((3.0, 5.0)))
def test_titles_held_are_the_titles_of_title_status(history: list[tuple[str | None, float,
                                                                         bool, bool]],
                                                    norms: float) -> None:
    c = DOCUMENTED._replace(title_norms=norms)
    events = [event(1 + n % 28, norm, rating, established, olm)
              for n, (norm, rating, established, olm) in enumerate(history)]
    assert titles_held(events, c) == title_status(events, c=c).titles
