"""Variants of the rules: the documented rule sets with some fields changed.

A ratings committee asks what a change would do before it makes one (the bonus threshold
B went 8, 10, 12, 14, 12, 10 between 2012 and 2025: rules.py). A `Variant` names the
fields it changes, in a `RuleSet` (the dated rules) or in its `Constants` (the numbers in
the formulas); every other field keeps its documented value for the section's date.

>>> from datetime import date
>>> wider = Variant("B = 16", {"bonus_threshold": 16.0, "k_numerator": 700.0})
>>> rules = wider.rules_for(date(2025, 3, 1))
>>> rules.bonus_threshold, rules.constants.k_numerator, rules.constants.n_star_top
(16.0, 700.0, 2355.0)
>>> Variant("x", {"bonus": 1.0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
uscf_ratings.core.variants.VariantError: variant 'x': no rule field 'bonus' ...

A number is refused outside the domain where its formula means something
(core/domain.py, `OPTIONS`):

>>> Variant("y", {"k_numerator": -800})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
uscf_ratings.core.variants.VariantError: variant 'y': k_numerator -800: expected a number above 0 ...
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from . import conversions
from .constants import DOCUMENTED, Constants
from .domain import option_problem
from .model import System
from .rules import RuleSet, rules_for


class VariantError(ValueError):
    """A variant names a field that does not exist or gives it a value of the wrong kind."""


def _choices(*values: str) -> frozenset[str]:
    return frozenset(values)


#: the dated fields a variant may change, with the values each takes (a type, or the
#: allowed words); the date, the systems and the time controls define which games a
#: section has, so they are not rules a variant changes
RULE_FIELDS: dict[str, type | frozenset[str]] = {
    "bonus_threshold": float,
    "bonus_m3_needs_distinct_opponents": bool,
    "initialization": _choices("priority", "blended"),
    "fide_conversion": frozenset(conversions.FIDE),
    "youth_fide_conversion": frozenset(conversions.YOUTH_FIDE),
    "fide_game_factor_split": float,
    "cfc_conversion": frozenset(conversions.CFC),
    "cfc_needs_residency": bool,
    "missing_age_rule": _choices("adult", "membership"),
    "absolute_floor_systems": frozenset,
}
CONSTANT_FIELDS: tuple[str, ...] = Constants._fields
FIELDS = tuple(RULE_FIELDS) + CONSTANT_FIELDS
#: the fields Step 1 (core/initial.py) reads: a variant that changes none of them gives
#: every player new to the history the documented initial rating (the priority lists
#: read "established", 2017 text, 2.3)
STEP1_FIELDS = frozenset({"initialization", "fide_conversion", "youth_fide_conversion",
                          "fide_game_factor_split", "cfc_conversion", "cfc_needs_residency",
                          "missing_age_rule", "established_after"}
                         | {f for f in CONSTANT_FIELDS if f.startswith("init_")})


@dataclass(frozen=True)
class Variant:
    """A name and the fields it changes: field name to value, given as a mapping and kept
    as sorted pairs (a variant is hashable and travels to other processes)."""

    name: str
    changes: tuple[tuple[str, Any], ...] = ()

    def __init__(self, name: str, changes: Mapping[str, Any] | None = None) -> None:
        checked = {key: _checked(name, key, value) for key, value in (changes or {}).items()}
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "changes", tuple(sorted(checked.items())))

    def apply(self, rules: RuleSet) -> RuleSet:
        """The rule set ``rules`` with this variant's changes."""
        if not self.changes:
            return rules
        constants = {k: v for k, v in self.changes if k in CONSTANT_FIELDS}
        dated = {k: v for k, v in self.changes if k in RULE_FIELDS}
        return replace(rules, constants=rules.constants._replace(**constants), **dated)

    @property
    def constants(self) -> Constants:
        """The formulas' numbers of this variant (the same at every date)."""
        return DOCUMENTED._replace(**{k: v for k, v in self.changes if k in CONSTANT_FIELDS})

    def rules_for(self, day: date) -> RuleSet:
        """The documented rule set in force on ``day`` (rules.rules_for), changed."""
        return _applied(self, rules_for(day))


@functools.lru_cache(maxsize=1024)
def _applied(variant: Variant, rules: RuleSet) -> RuleSet:
    return variant.apply(rules)


DOCUMENTED_RULES = Variant("documented")


def _checked(name: str, key: str, value: Any) -> Any:
    """``value`` for field ``key`` in the type the rule set holds and in its domain
    (core/domain.py, `OPTIONS`), or VariantError."""
    where = f"variant {name!r}"
    if key in CONSTANT_FIELDS or RULE_FIELDS.get(key) is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise VariantError(f"{where}: {key} must be a number, not {value!r}")
        problem = option_problem(key, value)
        if problem is not None:
            raise VariantError(f"{where}: {problem}")
        return float(value)
    kind = RULE_FIELDS.get(key)
    if kind is None:
        raise VariantError(f"{where}: no rule field {key!r} (see docs/researcher.md for "
                           "the fields)")
    if kind is bool:
        if not isinstance(value, bool):
            raise VariantError(f"{where}: {key} must be true or false, not {value!r}")
        return value
    if kind is frozenset:  # absolute_floor_systems: system codes
        codes = [value] if isinstance(value, str) else value
        try:
            return frozenset(System(code) for code in codes)
        except (TypeError, ValueError):
            raise VariantError(f"{where}: {key} must be a list of systems (R, Q, B, OR, OQ, "
                               f"OB), not {value!r}") from None
    assert isinstance(kind, frozenset)
    if value not in kind:
        raise VariantError(f"{where}: {key} must be one of {', '.join(sorted(kind))}, "
                           f"not {value!r}")
    return value
