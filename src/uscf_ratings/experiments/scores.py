"""How well a variant's pre-event ratings predicted the games, and how far ratings moved.

The measures of rating research (for instance Glickman's and the Kaggle chess rating
competitions'): for each game between two players rated before the event, the expected
score p = We(R_A, R_B) of the standard formula (2025 text, section 4.2, with the
variant's own numbers) against the result y (1, 0.5 or 0):

    log loss  -(y ln p + (1 - y) ln(1 - p))     (p kept within [1e-15, 1 - 1e-15])
    Brier     (p - y)^2

each averaged over the games, overall, by rating band (the mean of the two pre-event
ratings, 200 points wide) and by kind (both established, or at least one provisional:
N <= 25). Each game counts once, from the side of the player listed first. Calibration
puts both sides of every game into twenty bins of p and compares the mean p with the mean
y in each. Games with an unrated player are not scored: the prediction needs two ratings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

CLIP = 1e-15
BAND_WIDTH = 200.0
CALIBRATION_BINS = 20


@dataclass(frozen=True)
class Sums:
    """Sums over games, from which the means follow (sums add across groups)."""

    games: int = 0
    log_loss: float = 0.0
    brier: float = 0.0

    def __add__(self, other: Sums) -> Sums:
        return Sums(self.games + other.games, self.log_loss + other.log_loss,
                    self.brier + other.brier)

    @property
    def mean_log_loss(self) -> float:
        return self.log_loss / self.games if self.games else math.nan

    @property
    def mean_brier(self) -> float:
        return self.brier / self.games if self.games else math.nan


@dataclass(frozen=True)
class Prediction:
    """The predictive scores of one variant."""

    overall: Sums
    by_band: dict[str, Sums]  #: "1400-1599": the mean of the two ratings in that band
    by_kind: dict[str, Sums]  #: "established" or "provisional"
    #: per bin of p (width 1/20): games, sum of p, sum of y (both sides of each game)
    calibration: tuple[tuple[int, float, float], ...]


def expected_scores(pre_a: NDArray[np.float64], pre_b: NDArray[np.float64],
                    we_scale: float) -> NDArray[np.float64]:
    """We(R_A, R_B) = 1/(1 + 10^(-(R_A - R_B)/400)) for every game (section 4.2)."""
    return 1.0 / (1.0 + np.power(10.0, -(pre_a - pre_b) / we_scale))


def band_of(mean_rating: float) -> str:
    """The 200-point band holding a rating: "1400-1599"."""
    low = int(math.floor(mean_rating / BAND_WIDTH) * BAND_WIDTH)
    return f"{low}-{low + int(BAND_WIDTH) - 1}"


def predict(pre_a: NDArray[np.float64], pre_b: NDArray[np.float64],
            provisional: NDArray[np.bool_], y: NDArray[np.float64],
            we_scale: float) -> Prediction:
    """The scores of the games given by their pre-event ratings, whether either player
    was provisional, and the first player's result ``y``."""
    p = expected_scores(pre_a, pre_b, we_scale)
    q = np.clip(p, CLIP, 1.0 - CLIP)
    loss = -(y * np.log(q) + (1.0 - y) * np.log(1.0 - q))
    brier = (p - y) ** 2

    def sums(mask: NDArray[np.bool_] | None = None) -> Sums:
        if mask is None:
            return Sums(len(p), float(loss.sum()), float(brier.sum()))
        return Sums(int(mask.sum()), float(loss[mask].sum()), float(brier[mask].sum()))

    bands = np.floor((pre_a + pre_b) / 2.0 / BAND_WIDTH).astype(np.int64)
    found, band = np.unique(bands, return_inverse=True)
    band_games = np.bincount(band, minlength=len(found))
    band_loss = np.bincount(band, weights=loss, minlength=len(found))
    band_brier = np.bincount(band, weights=brier, minlength=len(found))
    by_band = {band_of(b * BAND_WIDTH): Sums(int(n), float(ll), float(bs))
               for b, n, ll, bs in zip(found.tolist(), band_games, band_loss, band_brier,
                                        strict=True)}
    by_kind = {"established": sums(~provisional), "provisional": sums(provisional)}
    both_p = np.concatenate([p, 1.0 - p])
    both_y = np.concatenate([y, 1.0 - y])
    bins = np.minimum((both_p * CALIBRATION_BINS).astype(np.int64), CALIBRATION_BINS - 1)
    counts = np.bincount(bins, minlength=CALIBRATION_BINS)
    sum_p = np.bincount(bins, weights=both_p, minlength=CALIBRATION_BINS)
    sum_y = np.bincount(bins, weights=both_y, minlength=CALIBRATION_BINS)
    calibration = tuple((int(n), float(sp), float(sy))
                        for n, sp, sy in zip(counts, sum_p, sum_y, strict=True))
    return Prediction(sums(), by_band, by_kind, calibration)


@dataclass(frozen=True)
class Movement:
    """How far ratings moved: the change (post - pre) of every rated player in every
    section, and the pool's ratings at each month's end."""

    changes: int
    mean_change: float  #: above 0: points flow into the pool (inflation)
    sd_change: float
    total_change: float
    #: per month ("2025-03"): members with a rating, mean, and the 10th, 50th and 90th
    #: percentiles of their latest ratings in the system followed
    months: tuple[tuple[str, int, float, float, float, float], ...] = field(default=())


def movement(changes: Sequence[float] | NDArray[np.float64],
             months: Sequence[tuple[str, Sequence[float]]]) -> Movement:
    """`Movement` from the changes and each month's latest ratings."""
    values = np.asarray(changes, dtype=np.float64)
    shown = []
    for month, ratings in months:
        # sorted: the mean's last bits do not hang on the order the members were met in
        r = np.sort(np.asarray(ratings, dtype=np.float64))
        if len(r):
            q10, q50, q90 = np.percentile(r, [10, 50, 90]).tolist()
            shown.append((month, len(r), float(r.mean()), q10, q50, q90))
    return Movement(len(values), float(values.mean()) if len(values) else math.nan,
                    float(values.std()) if len(values) else math.nan,
                    float(values.sum()), tuple(shown))
