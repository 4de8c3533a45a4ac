"""Time-control parsing and system selection (2025 text footnote 1; 2017/2020 openings)."""

from __future__ import annotations

import math
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uscf_ratings.core.model import System
from uscf_ratings.core.rules import RuleSet, rules_for
from uscf_ratings.core.timecontrol import (
    Period,
    TimeControl,
    TimeControlError,
    parse_time_control,
    systems_for,
)

R, Q, B, OR, OQ, OB = System.R, System.Q, System.B, System.OR, System.OQ, System.OB

RULES_2025 = rules_for(date(2025, 8, 1))
RULES_2021 = rules_for(date(2021, 1, 1))
RULES_2019 = rules_for(date(2019, 1, 1))

# text, mm (total main time, minutes), ss (seconds), kind: worked by hand.
EXAMPLES = [
    ("G/90;d30", 90, 30, "delay"),
    ("G/90+30", 90, 30, "increment"),
    ("40/120,SD/30;d10", 120 + 30, 10, "delay"),
    ("G/3+2", 3, 2, "increment"),
    ("G/5;d0", 5, 0, "delay"),
    ("Game/60", 60, 0, None),
    ("G/25 d5", 25, 5, "delay"),
    ("G/30 d5", 30, 5, "delay"),
    ("G/45;+5", 45, 5, "increment"),
    ("G/45 inc5", 45, 5, "increment"),
    ("G45d5", 45, 5, "delay"),
    ("G/60;d5", 60, 5, "delay"),
    ("30/90, SD/60 d5", 90 + 60, 5, "delay"),
    ("G/120;+30", 120, 30, "increment"),
    ("40/90,SD/30+30", 90 + 30, 30, "increment"),
    ("G/5+0", 5, 0, "increment"),
    ("G/15 +10", 15, 10, "increment"),
    ("5 0", 5, 0, "increment"),
    ("90+30", 90, 30, "increment"),
    ("G/10;d5", 10, 5, "delay"),
]


@pytest.mark.parametrize(("text", "mm", "ss", "kind"), EXAMPLES)
def test_examples(text: str, mm: float, ss: float, kind: str | None) -> None:
    tc = parse_time_control(text)
    assert (tc.minutes, tc.seconds, tc.kind) == (mm, ss, kind)
    assert tc.total == mm + ss
    assert tc.text == text


@pytest.mark.parametrize(("text", "mm", "ss", "kind"), EXAMPLES)
def test_case_and_spaces_do_not_matter(text: str, mm: float, ss: float, kind: str | None) -> None:
    for variant in (text.upper(), text.lower(), "  " + text.replace(" ", "   ") + "\t"):
        tc = parse_time_control(variant)
        assert (tc.minutes, tc.seconds, tc.kind) == (mm, ss, kind)


def test_periods() -> None:
    tc = parse_time_control("40/120,SD/30;d10")
    assert tc.periods == (Period(40, 120), Period(None, 30, 10, "delay"))
    assert parse_time_control("G/90+30").periods == (Period(None, 90, 30, "increment"),)


def test_extra_time_written_on_an_earlier_period_carries_on() -> None:
    tc = parse_time_control("40/120 d5, SD/30")
    assert (tc.minutes, tc.seconds, tc.kind) == (150, 5, "delay")


def test_last_extra_time_wins() -> None:
    tc = parse_time_control("40/90 d5, SD/30+30")
    assert (tc.minutes, tc.seconds, tc.kind) == (120, 30, "increment")


def test_other_spellings() -> None:
    for text in ("Game in 60 d5", "G/60 t/d5", "G/60 delay 5", "g 60 d5", "SD/60;d5"):
        tc = parse_time_control(text)
        assert (tc.minutes, tc.seconds, tc.kind) == (60, 5, "delay"), text
    tc = parse_time_control("G/90 increment 30s")
    assert (tc.minutes, tc.seconds, tc.kind) == (90, 30, "increment")


def _systems(text: str, online: bool = False, rules: RuleSet = RULES_2025) -> tuple[System, ...]:
    return systems_for(parse_time_control(text), online, rules)


@pytest.mark.parametrize("text", ["G/30", "G/25 d5", "G/30 d5", "G/60;d5", "G/65", "G/60+5"])
def test_otb_dual_rating_from_30_to_65(text: str) -> None:
    assert _systems(text) == (R, Q)


def test_otb_regular_only_above_65() -> None:
    assert _systems("G/61+5") == (R,)
    assert _systems("G/90;d30") == (R,)
    assert _systems("40/120,SD/30;d10") == (R,)


@pytest.mark.parametrize(("text", "expected"), [
    ("G/5;d0", (B,)), ("G/3+2", (B,)), ("G/5+0", (B,)), ("5 0", (B,)),
    ("G/10", (B,)), ("G/5;d5", (B,)), ("G/7d3", (B,)),
    ("G/11", (Q,)), ("G/10;d1", (Q,)), ("G/29", (Q,)), ("G/20+5", (Q,)), ("G/26d3", (Q,)),
])
def test_otb_blitz_and_quick(text: str, expected: tuple[System, ...]) -> None:
    assert _systems(text) == expected


def test_online_from_2020_06_01() -> None:
    assert _systems("G/10", True, RULES_2021) == (OB,)
    assert _systems("G/10;d1", True, RULES_2021) == (OQ,)
    assert _systems("G/29", True, RULES_2021) == (OQ,)
    assert _systems("G/25 d4", True, RULES_2021) == (OQ,)
    assert _systems("G/30", True, RULES_2021) == (OR,)
    assert _systems("G/25 d5", True, RULES_2021) == (OR,)
    assert _systems("G/45", True, RULES_2021) == (OR,)
    assert _systems("G/90+30", True, RULES_2021) == (OR,)


def test_online_before_2020_06_01_quick_up_to_g60_plus_5() -> None:
    assert _systems("G/45", True, RULES_2019) == (OQ,)
    assert _systems("G/60+5", True, RULES_2019) == (OQ,)
    assert _systems("G/5", True, RULES_2019) == (OB,)
    with pytest.raises(TimeControlError, match="2017-06-01"):
        _systems("G/90", True, RULES_2019)  # no online Regular yet


@pytest.mark.parametrize("text", ["G/3", "G/4;d0", "G/1+2", "1 0", "G/2+2"])
def test_faster_than_5_refused(text: str) -> None:
    with pytest.raises(TimeControlError) as info:
        _systems(text)
    message = str(info.value)
    assert repr(text) in message
    assert f"mm + ss = {parse_time_control(text).total:g}" in message
    assert "2025-01-01" in message
    with pytest.raises(TimeControlError):
        _systems(text, True, RULES_2021)


def test_systems_follow_the_rule_set_systems() -> None:
    rules_2014 = rules_for(date(2014, 6, 1))  # before online Blitz (2014-10-01)
    tc = TimeControl("G/5", 5, 0, None, (Period(None, 5),))
    with pytest.raises(TimeControlError, match="online"):
        systems_for(tc, True, rules_2014)
    assert systems_for(tc, False, rules_2014) == (B,)


@pytest.mark.parametrize("text", [
    "", "   ", "garbage", "G/", "G/abc", "G/90;x30", "G/90 SD/30", "G/5 0",
    "60 40/120", "0/90, SD/30", "G/90;d", "d5", "+5", "G/90;d30;+5", "40/120,,SD/",
    "G/９０",
])
def test_garbage_refused_with_the_text_quoted(text: str) -> None:
    with pytest.raises(TimeControlError) as info:
        parse_time_control(text)
    assert repr(text) in str(info.value)
    assert "expected" in str(info.value)


def test_error_is_a_value_error() -> None:
    assert issubclass(TimeControlError, ValueError)


@given(st.text())
def test_parsing_raises_only_time_control_errors(text: str) -> None:
    try:
        tc = parse_time_control(text)
    except TimeControlError:
        return
    assert tc.minutes >= 0 and tc.seconds >= 0
    assert tc.total == tc.minutes + tc.seconds


@given(st.text(alphabet="0123456789gGsSdD/+;,. inc|tame", max_size=30))
def test_parsing_near_valid_text_raises_only_time_control_errors(text: str) -> None:
    try:
        tc = parse_time_control(text)
    except TimeControlError:
        return
    assert tc.periods
    assert tc.minutes == math.fsum(p.minutes for p in tc.periods)
