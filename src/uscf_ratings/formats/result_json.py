"""Rating results as JSON-ready dicts: every number and its explanation.

``state_after`` has the shape of an input rating (event.schema.json, $defs/rating), so a
later event can be rated from this output alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from typing import Any

from ..core.floors import Floors
from ..core.formulas import round_half_up
from ..core.initial import Initial, uses_birth_date
from ..core.model import Event, Rating
from ..core.results import NormResult, PlayerResult, RatingResult, SectionResult, StepResult
from .event_details import details_to_json
from .json_stream import Lazy, write_json

#: What a director's output says when a rating in it started from a birth date.
PRIVATE_NOTICE = ("PRIVATE: a rating here started from a member's birth date (an "
                  "age-based or blended initial rating, section 2), and its numbers give "
                  "the member's age away. This output is for the director and the ratings "
                  "office: do not publish it. The office's public pages withhold those "
                  "numbers (docs/web.md, Privacy).")


def holds_birth_dates(results: Iterable[SectionResult]) -> bool:
    """Whether a rating of these sections started from a member's birth date
    (`initial.uses_birth_date`)."""
    return any(uses_birth_date(r.initial) for result in results for p in result.players
               for r in p.ratings.values())


def results_document(rated: Iterable[tuple[Event, list[SectionResult]]], *,
                     lazy: bool = False) -> dict[str, Any]:
    """The JSON of ``uscf rate --json``: ``{"events": [...]}``, and first ``"private"``
    (`PRIVATE_NOTICE`) where a rating started from a birth date. ``lazy``: the events,
    their sections and players `Lazy` lists, each made as it is written
    (`write_results`)."""
    events = list(rated)
    document: dict[str, Any] = {}
    if holds_birth_dates(r for _, results in events for r in results):
        document["private"] = PRIVATE_NOTICE
    document["events"] = (Lazy(event_to_dict(e, r, lazy=True) for e, r in events) if lazy
                          else [event_to_dict(e, r) for e, r in events])
    return document


def write_results(rated: Sequence[tuple[Event, list[SectionResult]]],
                  write: Callable[[str], object]) -> None:
    """`results_document` of each event and its results, written as ``json.dumps(...,
    indent=2)`` writes it (without a final line break), one player's dict at a time
    (`json_stream`): the dicts of every explanation at once are about twelve times the
    size of the file they came from."""
    write_json(results_document(rated, lazy=True), write)


def event_to_dict(event: Event, results: list[SectionResult], *,
                  lazy: bool = False) -> dict[str, Any]:
    """The event's results; ``details`` (as event JSON writes them) only when the file
    gave some. ``lazy``: its sections and their players `Lazy` lists, each made as it is
    written (`write_results`)."""
    out: dict[str, Any] = {
        "id": event.id,
        "name": event.name,
        "start_date": event.start_date.isoformat(),
        "end_date": event.end_date.isoformat(),
    }
    if not event.details.empty:
        out["details"] = details_to_json(event.details)
    sections = (section_to_dict(r, lazy=lazy) for r in results)
    out["sections"] = Lazy(sections) if lazy else list(sections)
    return out


def section_to_dict(result: SectionResult, *, lazy: bool = False) -> dict[str, Any]:
    """A section's results; ``lazy``: its players a `Lazy` list, each made as written."""
    players = (player_to_dict(p) for p in result.players)
    return {
        "number": result.number,
        "name": result.name,
        "systems": [s.value for s in result.systems],
        "type": result.type.value,
        "k": result.k.value,
        "dual_rated": result.dual,
        "rule_set": result.rules.effective.isoformat(),
        "bonus_threshold": result.rules.bonus_threshold,
        "initialization": result.rules.initialization,
        "players": Lazy(players) if lazy else list(players),
    }


def player_to_dict(p: PlayerResult) -> dict[str, Any]:
    """One player: ``norm`` is the crosstable's code (``"N:2"``) or None, and
    ``norm_explanation`` the test behind it (`norm_to_dict`)."""
    return {
        "pair": p.pair,
        "pairs": list(p.pairs),
        "id": p.id,
        "name": p.name,
        "ratings": {s.value: rating_to_dict(r) for s, r in p.ratings.items()},
        "norm": None if p.norm is None else p.norm.code,
        "norm_explanation": norm_to_dict(p.norm),
    }


def norm_to_dict(n: NormResult | None) -> dict[str, Any] | None:
    """A player's norm and why (core/norms.py): ``code`` (None: no norm), ``title`` the
    title it counts toward, ``eligible`` and ``reason`` (why no norm could be earned, or
    the games the test counted), ``score`` S and ``games`` over those games, ``needed``
    the margin S - E must exceed, and ``levels``: at each level from 4th Category up,
    ``expected`` E, ``margin`` S - E and whether it was ``earned``; ``closest`` is the
    code of the lowest level not earned (None when every level was). None when the
    section was rated without norms."""
    if n is None:
        return None
    closest = n.closest()
    return {
        "code": n.code,
        "title": n.title,
        "eligible": n.eligible,
        "reason": n.reason,
        "score": n.score,
        "games": n.games,
        "needed": n.needed,
        "closest": None if closest is None else closest.code,
        "levels": [{"code": c.code, "title": c.title, "level": c.level,
                    "expected": c.expected, "margin": c.margin, "earned": c.earned}
                   for c in n.levels],
    }


def rating_to_dict(r: RatingResult) -> dict[str, Any]:
    return {
        "pre": r.pre,
        "pre_games": r.pre_games,
        "post": r.post,
        "post_rounded": r.post_rounded,
        "post_2dp": None if r.post is None else round_half_up(r.post, 2),
        "games_after": r.games_after,
        "formula": r.formula,
        "reason": r.reason,
        "R0": r.r0,
        "N": r.n,
        "N_eff": r.n_eff,
        "m": r.m,
        "S": r.score,
        "initial": _initial(r.initial),
        "steps": [_step(s) for s in r.steps],
        "floors": _floors(r.floors),
        "floor_applied": r.floor_applied,
        "match_cap": r.match_cap,
        "notes": list(r.notes),
        "state_after": rating_state(r.state_after),
    }


def _step(s: StepResult) -> dict[str, Any]:
    out = {k: v for k, v in asdict(s).items() if v is not None}
    out["opponents"] = list(s.opponents)
    out["K"] = out.pop("k", None)
    out["E"] = out.pop("expected", None)
    out["N_eff"] = out.pop("n_eff")
    if s.formula == "special":
        out["R0_adjusted"] = out.pop("r0_adjusted")
        out["S_adjusted"] = out.pop("score_adjusted")
        del out["K"], out["E"]
    return out


def _initial(i: Initial | None) -> dict[str, Any] | None:
    if i is None:
        return None
    return {
        "rating": i.rating,
        "games": i.games,
        "method": i.method,
        "detail": i.detail,
        "sources": [{k: v for k, v in asdict(src).items() if v is not None} for src in i.sources],
    }


def _floors(f: Floors | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {"absolute": f.absolute, "peak": f.peak, "olm": f.olm, "office": f.office,
            "floor": f.floor}


def rating_state(state: Rating | None) -> dict[str, Any] | None:
    """A rating in the input format of event.schema.json."""
    if state is None:
        return None
    out: dict[str, Any] = {"rating": state.rating, "games": state.games}
    if state.date is not None:
        out["date"] = state.date.isoformat()
    for name in ("wins", "draws", "losses", "events3", "peak", "floor", "floor_lowered_from",
                 "floor_lowered_to", "games_above_2200"):
        value = getattr(state, name)
        if value is not None:
            out[name] = value
    if state.olm:
        out["olm"] = True
    if not state.games_known:
        out["games_known"] = False
    if state.match_changes:
        out["match_changes"] = [{"date": c.date.isoformat(), "change": c.change}
                                for c in state.match_changes]
    return out
