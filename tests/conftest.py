"""Shared test helpers: where the real data lives, and skips that fail under CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip, saying why; under CI (CI=true) a skip is a failure."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: this test must run here)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "uscf_real" / "msa_sections").is_dir():
        skip_or_fail(f"the real rated sections are not here: {SHARED} is missing "
                     "(they live beside the repository, not in it)")
    return SHARED
