"""An estimate told in the terminal (``uscf estimate``): the numbers and the explanation
the web estimator's page shows, as plain text.

Ratings are shown to two decimals and as published (rounded half up, core/formulas.py);
K, E and N' to four places without trailing zeros, as the page shows them.
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..core.formulas import plain, two_decimals
from ..core.model import SYSTEM_NAMES, System
from .estimate import DEFAULT_OPPONENT_GAMES, Estimate, Part

RESULT_WORDS = {"W": "won", "D": "drew", "L": "lost"}
CAVEAT = ("This is an estimate. It rates your games against opponents who play only you, at "
          "the ratings you gave (as established players with N = "
          f"{DEFAULT_OPPONENT_GAMES} unless you gave N). In a real section your opponents' "
          "own ratings move too: Step 5 rates you against their Step 4 ratings, which depend "
          "on all of their games. The section's other games can move your final rating by "
          "a few points.")


def r2(value: float | None) -> str:
    """A rating to two decimals, rounded half up; "-" for none."""
    return "-" if value is None else two_decimals(value)


def render(est: Estimate) -> str:
    """The whole estimate: each system's result and notes, the games, the performance
    ratings, the norm, then each system's explanation step by step."""
    inp = est.input
    parts = est.parts
    names = " and ".join(SYSTEM_NAMES[p.system] for p in parts)
    rules = est.result.rules
    lines = [*_wrapped(
        f"Estimate: your {names} rating{'s' if len(parts) > 1 else ''} after "
        f"{len(inp.played)} game{'s' if len(inp.played) != 1 else ''} on {inp.day} (rules "
        f"of {rules.effective}: bonus threshold B = {plain(rules.bonus_threshold)}, "
        f"{rules.initialization} initialization)"), ""]
    for part in parts:
        lines.extend(_summary(part, len(parts) > 1))
    lines.extend(["", *_wrapped(CAVEAT)])
    for note in est.notes:
        lines.extend(["", *_wrapped(note)])
    lines.extend(["", "Games", *_games(est)])
    lines.extend(["", "Performance rating of these games"])
    for part in parts:
        low, high = part.by_2025.low, part.by_2025.high
        by_2025 = (r2(low) if part.by_2025.single is not None else
                   f"above {r2(low)}" if high is None else f"below {r2(high)}" if low is None
                   else f"{r2(low)} .. {r2(high)}")
        lines.append(f"  {SYSTEM_NAMES[part.system]}: algorithm of 400 {r2(part.by_400)}; "
                     f"2025 text, section 4.1 {by_2025}")
    norm = est.norm
    if norm is not None:
        lines.extend(["", "Norm toward a title", *_norm(norm)])
    for part in parts:
        lines.extend(["", f"Why this {SYSTEM_NAMES[part.system]} rating", *_explained(part.explanation)])
    return "\n".join(lines)


def _summary(part: Part, named: bool) -> list[str]:
    r = part.rating
    pre = "unrated" if r.pre is None else r2(r.pre)
    head = f"  {SYSTEM_NAMES[part.system]}: " if named else "  "
    lines = [f"{head}{pre} -> {r2(r.post)}, shown as {r.post_rounded} "
             f"(based on {_games_word(r.games_after)})"]
    for note in part.notes:
        lines.extend(_wrapped(note, "  "))
    if part.other_order is not None:
        lines.extend(_wrapped(
            f"Had you won against your highest-rated opponents instead (the same score), the "
            f"estimate would be {r2(part.other_order.post)}, shown as "
            f"{part.other_order.post_rounded}.", "  "))
    return lines


def _games(est: Estimate) -> list[str]:
    inp = est.input
    quick = inp.dual
    head = "  game  opponent" + ("  Quick   " if quick else "") + "  N    result"
    rows = [head + (" (assumed)" if inp.total is not None else "")]
    for number, game in enumerate(inp.played, 1):
        rows.append(f"  {number:>4}  {r2(game.opponent_rating):>8}"
                    + (f"  {r2(game.rating_in(System.Q)):>8}" if quick else "")
                    + f"  {game.opponent_games:<4} {RESULT_WORDS[game.result]}")
    return rows


def _norm(norm: dict[str, Any]) -> list[str]:
    if not norm["eligible"]:
        return _wrapped(f"None can be earned here: {norm['reason']}.", "  ")
    if norm["code"] is None:
        said = "No norm: no level's margin was exceeded"
    else:
        said = f"A norm at {norm['code']} ({norm['title']})"
    lines = _wrapped(f"{said}; S = {plain(norm['score'])} in {norm['games']} games, needing "
                     f"S - E above {plain(norm['needed'])} ({norm['reason']}).", "  ")
    for level in norm["levels"]:
        lines.append(f"    {level['code']:<5} {level['title']:<22} E {plain(level['expected']):<8}"
                     f" S - E {plain(level['margin']):<8} {'earned' if level['earned'] else '-'}")
    return lines


def _explained(r: dict[str, Any]) -> list[str]:
    """One rating's explanation, as the web page's "explain" block gives it."""
    pre = "unrated" if r["pre"] is None else f"{r2(r['pre'])} (N {r['pre_games']})"
    lines = [f"  {pre} -> {r2(r['post'])}, shown as {r['post_rounded']} (N {r['games_after']})",
             f"  formula    {r['formula']}: {r['reason']}",
             f"  R0         {r2(r['R0'])}",
             f"  N, N'      {r['N']}, {plain(r['N_eff'])}",
             f"  m, S       {r['m']}, {plain(r['S'])}"]
    initial = r.get("initial")
    if initial:
        lines.extend(_wrapped(f"initial    {r2(initial['rating'])} on {_games_word(initial['games'])}, "
                              f"{initial['method']}: {initial['detail']}", "  ", "             "))
        for source in initial.get("sources", []):
            lines.extend(_wrapped(_source(source), "             "))
    floors = r.get("floors")
    if floors:
        held = f", the {r['floor_applied']} floor held the rating" if r["floor_applied"] else ""
        parts = [f"absolute {plain(floors['absolute'])}"] + [
            f"{name} {plain(floors[name])}" for name in ("peak", "olm", "office") if floors[name]]
        lines.append(f"  floor      {plain(floors['floor'])}{held} ({', '.join(parts)})")
    if r.get("match_cap"):
        lines.append(f"  match cap  {r['match_cap']}")
    for note in r.get("notes", []):
        lines.extend(_wrapped(f"note       {note}", "  ", "             "))
    for step in r.get("steps", []):
        lines.extend(_step(step))
    return lines


def _source(s: dict[str, Any]) -> str:
    """One rating Step 1 took, with its conversion and weight where it has them."""
    given = f"{s['source']} {plain(s['given'])} -> {r2(s['rating'])}" if "given" in s \
        else f"{s['source']} {r2(s['rating'])}"
    weight = f", weight {plain(s['weight'])}" if "weight" in s else ""
    conversion = f" ({s['conversion']})" if "conversion" in s else ""
    return f"{given}{weight}{conversion}"


def _step(s: dict[str, Any]) -> list[str]:
    """A step in two lines: the opponents' ratings it used, then its terms and result."""
    opponents = ", ".join("withheld" if o is None else r2(o) for o in s["opponents"])
    prior = f" ({s['prior']})" if s.get("prior") not in (None, "none") else ""
    if s["formula"] == "standard":
        terms = (f"K {plain(s.get('K'))}, E {plain(s.get('E'))}, K(S-E) {plain(s.get('change'))}, "
                 f"bonus {plain(s.get('bonus'))}")
    else:
        terms = f"R0' {r2(s.get('R0_adjusted'))}, S' {plain(s.get('S_adjusted'))}" + (
            ", capped at 2700 (the special formula's cap)" if s.get("capped") else "")
    return [*_wrapped(f"step {s['step']}     {s['formula']}{prior} against {opponents}", "  ",
                      "             "),
            f"             N' {plain(s['N_eff'])}, {terms}: {r2(s['unfloored'])}"
            + ("" if s["unfloored"] == s["rating"] else f", floored to {r2(s['rating'])}")]


def _games_word(count: int | None) -> str:
    return f"{count} game" + ("" if count == 1 else "s")


def _wrapped(text: str, indent: str = "", later: str | None = None, width: int = 88) -> list[str]:
    """``text`` in lines of at most ``width``, the first indented by ``indent``, the
    rest by ``later`` (``indent`` if not given)."""
    return textwrap.wrap(text, width, initial_indent=indent,
                         subsequent_indent=indent if later is None else later,
                         break_on_hyphens=False) or [indent]
