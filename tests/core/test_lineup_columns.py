"""`layout.lineup`: a section's games as the procedure reads them, in typed arrays that
travel between processes as their bytes (the checks' and the readers' lineups)."""

from __future__ import annotations

import json
import pickle
import pickletools
from array import array

from uscf_ratings.core.layout import Lineup, lineup
from uscf_ratings.core.pipeline import section_systems
from uscf_ratings.core.rules import rules_for
from uscf_ratings.core.steps import merge_entrants
from uscf_ratings.formats.event_json import parse_event


def _player(pair: int, results: list[str]) -> dict[str, object]:
    return {"pair": pair, "id": str(1000 + pair),
            "ratings": {"R": {"rating": 1500 + 100 * pair, "games": 30}},
            "results": results}


def _laid() -> Lineup:
    """Four players, three rounds. Pair 1: W2, D3, B (a bye is not a game); pair 2: L1,
    W4, D3; pair 3: W4, D1, D2; pair 4: L3, L2, U (unplayed)."""
    event = parse_event(json.dumps({
        "event": {"id": "E1", "start_date": "2026-08-01"},
        "sections": [{"number": 1, "time_control": "G/60;d5", "players": [
            _player(1, ["W2", "D3", "B"]), _player(2, ["L1", "W4", "D3"]),
            _player(3, ["W4", "D1", "D2"]), _player(4, ["L3", "L2", "U"])]}]}))
    section = event.sections[0]
    rules = rules_for(section.start_date)
    return lineup(section, rules, section_systems(section, rules),
                  merge_entrants(section.players))


def test_the_games_columns_by_hand() -> None:
    """Entrants are indexed 0 to 3 (pairs 1 to 4); each one's games in round order, the
    bye and the unplayed round left out: 2, 3, 3 and 2 games."""
    laid = _laid()
    assert laid.first == array("q", [0, 2, 5, 8])
    assert laid.last == array("q", [2, 5, 8, 10])
    assert laid.opponent == array("q", [1, 2, 0, 3, 2, 3, 0, 1, 2, 1])
    assert laid.score == array("d", [1, .5, 0, 1, .5, 1, .5, .5, 0, 0])
    assert laid.won == array("q", [1, 1, 1, 0])
    assert laid.drawn == array("q", [1, 1, 2, 0])


def test_pickled_the_games_travel_as_bytes() -> None:
    """No float object a game is pickled (each would be made again when unpickled): the
    scores go as one block of bytes, and the lineup comes back equal."""
    laid = _laid()
    sent = pickle.dumps(laid, pickle.HIGHEST_PROTOCOL)
    floats = [arg for op, arg, _ in pickletools.genops(sent) if op.name == "BINFLOAT"]
    assert floats.count(0.5) == 0 and floats.count(1.0) < 4  # the 10 scores are not there
    assert pickle.loads(sent) == laid
