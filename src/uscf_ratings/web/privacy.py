"""What the open pages and endpoints may show about a member.

Birth dates and contact details are never shown: many members are minors. The office's
tables hold no contact details, and no page or endpoint reads the birth date column. But
an explanation of an age-based initial rating would give the age away to the day: its
text says "age 10.40", and R0 = 50 x age is exact to many decimals, from which the age in
days (and, with the event's date, the birth date) follows. So what is read from the
database passes through `public_rating`, which keeps the age in whole years (an age
group) and rounds the numbers that are 50 x age to whole points.

>>> public_rating({"R0": 520.0342, "initial": {"rating": 520.0342, "method": "age",
...     "detail": "age-based rating (section 2.3): age 10.40: 50 x age, within 100..1300",
...     "sources": [{"source": "age", "rating": 520.0342}]}, "steps": []})["initial"]["detail"]
'age-based rating (section 2.3): age 10: 50 x age, within 100..1300 (shown to whole points, which keeps the age private)'
"""

from __future__ import annotations

import copy
import re
from typing import Any

AGE = re.compile(r"\bage (\d+)\.\d+")
NOTE = " (shown to whole points, which keeps the age private)"


#: The age-based ratings that say nothing about an age: no usable birth date (section 2.3).
NO_AGE = (750.0, 1300.0)


def _uses_age(initial: dict[str, Any]) -> bool:
    """Whether the initial rating was computed from a birth date."""
    if initial.get("method") == "age":
        return initial.get("rating") not in NO_AGE
    return any(s.get("age_rating") not in (None, *NO_AGE) for s in initial.get("sources") or [])


def public_rating(explanation: dict[str, Any]) -> dict[str, Any]:
    """A rating explanation (``rating_to_dict``'s shape) with the age kept private."""
    out = copy.deepcopy(explanation)
    initial = out.get("initial")
    if not initial or not _uses_age(initial):
        return out
    initial["detail"] = AGE.sub(r"age \1", str(initial.get("detail", ""))) + NOTE
    initial["rating"] = round(initial["rating"])
    if out.get("R0") is not None:
        out["R0"] = round(out["R0"])
    for source in initial.get("sources") or []:
        if source.get("age_rating") is not None:
            source["age_rating"] = round(source["age_rating"])
        if source.get("source") == "age":
            source["rating"] = round(source["rating"])
    out["notes"] = [AGE.sub(r"age \1", note) for note in out.get("notes") or []]
    return out


def public_ratings(ratings: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {system: public_rating(r) for system, r in ratings.items()}
