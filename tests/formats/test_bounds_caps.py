"""The caps on players and results (`formats.bounds`, issue 37), at their edge: a file at
a cap is read, one past it is refused naming the file and the place, whatever the
format. The caps are lowered here (the same code, at a size a test can build many times); the
ceiling test (test_bounds_ceiling.py) runs them at their real size under a memory limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.formats import bounds, csv_crosstable
from uscf_ratings.formats.detect import read_any
from uscf_ratings.formats.errors import ParseError

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def rows(players: int, rounds: int) -> list[tuple[int, list[str]]]:
    """Pair i (from 0) meets pair i XOR r in round r (each once, never twice): a whole
    crosstable of ``players`` (a power of two, more than ``rounds``)."""
    return [(i + 1, [f"{'W' if i < i ^ r else 'L'}{(i ^ r) + 1}" for r in range(1, rounds + 1)])
            for i in range(players)]


def as_csv(players: int, rounds: int) -> str:
    head = ["# start_date: 2026-01-03", "# time_control: G/90;d5",
            "pair,id,name,rating,games," + ",".join(f"round{r}" for r in range(1, rounds + 1))]
    return "\n".join(head + [f"{pair},{10_000_000 + pair},P{pair},1500,30," + ",".join(cells)
                             for pair, cells in rows(players, rounds)]) + "\n"


def as_json(players: int, rounds: int) -> str:
    return json.dumps({"event": {"id": "1", "start_date": "2026-01-03"}, "sections": [
        {"number": 1, "time_control": "G/90;d5", "players": [
            {"pair": pair, "id": str(10_000_000 + pair), "name": f"P{pair}",
             "ratings": {"R": {"rating": 1500, "games": 30}}, "results": cells}
            for pair, cells in rows(players, rounds)]}]})


@SETTINGS
@given(players=st.sampled_from([4, 8, 16, 32]), rounds=st.integers(1, 3),
       cap=st.integers(4, 40), kind=st.sampled_from(["csv", "json"]))
def test_players_past_the_cap_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          players: int, rounds: int, cap: int,
                                          kind: str) -> None:
    """Accepted up to the cap, refused past it: the CSV at the row past it (line cap + 4:
    two metadata lines and the header before), event JSON once read."""
    monkeypatch.setattr(bounds, "MAX_PLAYERS", cap)
    monkeypatch.setattr(csv_crosstable, "MAX_PLAYERS", cap)
    path = tmp_path / f"event.{kind}"
    path.write_text(as_csv(players, rounds) if kind == "csv" else as_json(players, rounds))
    if players <= cap:
        assert sum(len(s.players) for s in read_any(path).sections) == players
        return
    with pytest.raises(ParseError) as refused:
        read_any(path)
    if kind == "csv":
        assert str(refused.value) == (f"{path}: line {cap + 4}: {cap + 1:,} rows of players: "
                                      f"more than the {cap:,} one file may have")
    else:
        assert str(refused.value) == (f"{path}: {players:,} players: more than the {cap:,} "
                                      "one file may have")


@SETTINGS
@given(players=st.sampled_from([4, 8, 16]), rounds=st.integers(1, 3),
       cap=st.integers(4, 50), kind=st.sampled_from(["csv", "json"]))
def test_results_past_the_cap_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          players: int, rounds: int, cap: int,
                                          kind: str) -> None:
    """Every player has a result each round: players x rounds results. The CSV stops at
    the row whose cells pass the cap (row ceil((cap + 1) / rounds))."""
    monkeypatch.setattr(bounds, "MAX_RESULTS", cap)
    monkeypatch.setattr(csv_crosstable, "MAX_RESULTS", cap)
    path = tmp_path / f"event.{kind}"
    path.write_text(as_csv(players, rounds) if kind == "csv" else as_json(players, rounds))
    results = players * rounds
    if results <= cap:
        read_any(path)
        return
    with pytest.raises(ParseError) as refused:
        read_any(path)
    if kind == "csv":
        row = -(-(cap + 1) // rounds)
        assert str(refused.value) == (f"{path}: line {row + 3}: {row * rounds:,} results: "
                                      f"more than the {cap:,} one file may have")
    else:
        assert str(refused.value) == (f"{path}: {results:,} results: more than the {cap:,} "
                                      "one file may have")
