"""The office's own checks of an event given to it (office/admission.py)."""

from __future__ import annotations

from datetime import date

from uscf_ratings.core.model import Event, Player, Result, Section
from uscf_ratings.office.admission import check_event

DAY = date(2026, 9, 1)


def section(number: int, *players: tuple[str, str]) -> Section:
    """A section of a game between each two players in turn, given as (id, name)."""
    made = []
    for pair, (ident, name) in enumerate(players, 1):
        opponent = pair + 1 if pair % 2 else pair - 1
        made.append(Player(pair, ident, name, results=(
            Result(1, "W" if pair % 2 else "L", opponent),)))
    return Section(number, DAY, DAY, tuple(made), time_control="G/30;d5")


def test_one_warning_for_each_id_given_to_two_names_with_the_first_place_of_each() -> None:
    """Member 1 is "Ana Torres" twice (once written "TORRES, ANA": one name) and "Zed
    Other" once; member 2 has one name in two sections; member 3 plays once."""
    event = Event("E", DAY, DAY, (
        section(1, ("30000001", "Ana Torres"), ("30000002", "Ben Okafor")),
        section(2, ("30000002", "Ben Okafor"), ("30000001", "TORRES, ANA")),
        section(3, ("30000003", "Chen Wei"), ("30000001", "Zed Other"))))
    verdict = check_event(event)
    assert verdict.problems == ()
    assert verdict.warnings == (
        "member id 30000001 is used for different names: 'Ana Torres' (section 1, pair 1), "
        "'Zed Other' (section 3, pair 2)",)
