"""An experiment as a small TOML file: the history, the period and the variants.

    title = "The bonus threshold B"
    history = "events"          # a folder of event files, beside this file, or an
                                # office database: "sqlite:///office.db" (a relative
                                # SQLite file is beside this file too)
    from = 2025-01-01           # optional: the period (start dates of sections)
    to = 2025-12-31
    baseline = "documented"     # optional: the variant the others are compared with
    follow = "R"                # optional: the system whose ratings are shown over time

    [[variant]]
    name = "documented"         # no field: the documented rules, by date

    [[variant]]
    name = "K numerator 700"
    k_numerator = 700

    [grid]                      # one variant for each combination of these values
    bonus_threshold = [8, 10, 12, 14, 16]

The fields a variant may change are those of core/variants.py (`FIELDS`), each number
within its domain (core/domain.py, `OPTIONS`). An experiment runs exactly the variants the
file names: its ``[[variant]]`` tables and its grid's combinations, nothing added; the
documented rules are a variant only where a table without fields names them. Every
problem is a `SpecError` that names the file and the key.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import System
from ..core.variants import Variant, VariantError
from ..office.db import sqlite_path
from .history import Period, is_database_url

#: the keys of the file's top level
TOP_KEYS = frozenset({"title", "history", "from", "to", "baseline", "follow", "variant", "grid"})


class SpecError(ValueError):
    """The experiment file cannot be used: the message names the file and the key."""


@dataclass(frozen=True)
class Spec:
    """What `run_experiment` needs besides the history itself."""

    title: str
    history: Path | str | None  #: a folder, a database URL; None: on the command line
    period: Period
    variants: tuple[Variant, ...]
    baseline: str  #: a variant's name
    follow: System


def read_spec(path: Path) -> Spec:
    """The experiment described by the TOML file ``path``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise SpecError(f"{path}: cannot be read ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{path}: not TOML: {error}") from None
    return spec_of(data, path)


def spec_of(data: dict[str, Any], path: Path) -> Spec:
    """The experiment of the parsed TOML ``data`` (``path`` names it in messages and
    anchors a relative history)."""
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise SpecError(f"{path}: unknown key {unknown[0]!r}; expected "
                        + ", ".join(sorted(TOP_KEYS)))
    history = data.get("history")
    if history is not None and not isinstance(history, str):
        raise SpecError(f"{path}: history must be a folder or a database URL (text), not "
                        f"{history!r}")
    variants = _variants(data, path)
    names = [v.name for v in variants]
    baseline = data.get("baseline", names[0])
    if baseline not in names:
        raise SpecError(f"{path}: baseline {baseline!r} is not the name of a variant "
                        f"({', '.join(names)})")
    follow = data.get("follow", "R")
    try:
        system = System(follow)
    except ValueError:
        raise SpecError(f"{path}: follow must be a system (R, Q, B, OR, OQ, OB), not "
                        f"{follow!r}") from None
    return Spec(str(data.get("title", path.stem)),
                None if history is None else _beside(history, path.parent),
                _period(_day(data, "from", path), _day(data, "to", path), path),
                tuple(variants), str(baseline), system)


def _beside(history: str, folder: Path) -> Path | str:
    """The history as given, a relative folder or SQLite file taken beside the spec."""
    if not is_database_url(history):
        return folder / history
    file = sqlite_path(history)
    if file is None or file.is_absolute():
        return history
    query = history.partition("?")[2]
    return f"sqlite:///{folder / file}" + (f"?{query}" if query else "")


def _period(start: date | None, end: date | None, path: Path) -> Period:
    if start is not None and end is not None and start > end:
        raise SpecError(f"{path}: from ({start}) is after to ({end})")
    return Period(start, end)


def _day(data: dict[str, Any], key: str, path: Path) -> date | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, date) and not hasattr(value, "hour"):
        return value
    raise SpecError(f"{path}: {key} must be a date such as 2025-01-01 (no quotes), "
                    f"not {value!r}")


def _variants(data: dict[str, Any], path: Path) -> list[Variant]:
    out: list[Variant] = []
    listed = data.get("variant", [])
    if not isinstance(listed, list):
        raise SpecError(f"{path}: variant must be a list of tables ([[variant]])")
    for i, table in enumerate(listed, 1):
        if not isinstance(table, dict):
            raise SpecError(f"{path}: variant {i} must be a table ([[variant]])")
        fields = dict(table)
        name = fields.pop("name", None)
        if not isinstance(name, str) or not name:
            raise SpecError(f"{path}: variant {i} has no name")
        try:
            out.append(Variant(name, fields))
        except VariantError as error:
            raise SpecError(f"{path}: [[variant]] {i}: {error}") from None
    grid = data.get("grid", {})
    if not isinstance(grid, dict):
        raise SpecError(f"{path}: grid must be a table of lists ([grid])")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise SpecError(f"{path}: grid.{key} must be a list of values")
        for at, value in enumerate(values):
            try:  # each value alone, so that the message names its place in the list
                Variant(key, {key: value})
            except VariantError as error:
                problem = str(error).removeprefix(f"variant {key!r}: ")
                raise SpecError(f"{path}: grid.{key}[{at}]: {problem}") from None
    keys = list(grid)
    # without a grid there is no combination: product() of nothing is one empty tuple,
    # which would add a variant of no name and no change that the file never named
    for combination in itertools.product(*(grid[k] for k in keys)) if keys else ():
        fields = dict(zip(keys, combination, strict=True))
        out.append(Variant(", ".join(f"{k} = {v}" for k, v in fields.items()), fields))
    if not out:
        raise SpecError(f"{path}: no variant: give [[variant]] tables or a [grid]")
    names = [v.name for v in out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SpecError(f"{path}: two variants are named {twice[0]!r}")
    return out
