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
    # one array, worked in place: a year's million games would otherwise make five
    p = np.subtract(pre_a, pre_b)
    np.negative(p, out=p)
    p /= we_scale
    np.power(10.0, p, out=p)
    p += 1.0
    return np.divide(1.0, p, out=p)


def band_of(mean_rating: float) -> str:
    """The 200-point band holding a rating: "1400-1599"."""
    low = int(math.floor(mean_rating / BAND_WIDTH) * BAND_WIDTH)
    return f"{low}-{low + int(BAND_WIDTH) - 1}"


def predict(pre_a: NDArray[np.float64], pre_b: NDArray[np.float64],
            provisional: NDArray[np.bool_], y: NDArray[np.float64],
            we_scale: float) -> Prediction:
    """The scores of the games given by their pre-event ratings, whether either player
    was provisional, and the first player's result ``y``."""
    # the arrays are worked in place where the formula allows (each step the same
    # operation on the same numbers, so the same bits): a variant of a year's history
    # would otherwise fill a dozen new arrays of a million games
    p = expected_scores(pre_a, pre_b, we_scale)
    not_y = np.subtract(1.0, y)
    loss = np.clip(p, CLIP, 1.0 - CLIP)  # q
    other = np.subtract(1.0, loss)
    np.log(loss, out=loss)
    loss *= y  # y ln q
    np.log(other, out=other)
    other *= not_y  # (1 - y) ln(1 - q)
    loss += other
    np.negative(loss, out=loss)
    brier = np.subtract(p, y, out=other)
    np.square(brier, out=brier)

    def sums(mask: NDArray[np.bool_] | None = None) -> Sums:
        if mask is None:
            return Sums(len(p), float(loss.sum()), float(brier.sum()))
        return Sums(int(mask.sum()), float(loss[mask].sum()), float(brier[mask].sum()))

    mean = np.add(pre_a, pre_b, out=not_y)  # not_y is read no more
    mean /= 2.0
    mean /= BAND_WIDTH
    bands = np.floor(mean, out=mean).astype(np.int64)
    lowest = int(bands.min()) if len(bands) else 0
    bands -= lowest  # a band's index from the lowest: counted without a sort
    band_games = np.bincount(bands)
    band_loss = np.bincount(bands, weights=loss)
    band_brier = np.bincount(bands, weights=brier)
    by_band = {band_of((lowest + b) * BAND_WIDTH): Sums(int(band_games[b]),
                                                        float(band_loss[b]),
                                                        float(band_brier[b]))
               for b in np.flatnonzero(band_games).tolist()}
    by_kind = {"established": sums(~provisional), "provisional": sums(provisional)}
    n = len(p)
    both_p, both_y = np.empty(2 * n), np.empty(2 * n)
    both_p[:n] = p
    np.subtract(1.0, p, out=both_p[n:])
    both_y[:n] = y
    np.subtract(1.0, y, out=both_y[n:])
    scaled = np.multiply(both_p, CALIBRATION_BINS)
    bins = scaled.astype(np.int64)
    np.minimum(bins, CALIBRATION_BINS - 1, out=bins)
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
             months: Sequence[tuple[str, Sequence[float] | NDArray[np.float64]]]
             ) -> Movement:
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
