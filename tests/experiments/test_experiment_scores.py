"""The predictive scores (experiments/scores.py), against hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from uscf_ratings.experiments.scores import Sums, band_of, movement, predict


def test_log_loss_and_brier_by_hand() -> None:
    """Two games, section 4.2's We with its 400:
    - 1600 beats 1400: p = 1/(1 + 10^(-200/400)) = 1/(1 + 0.316228) = 0.759747;
      log loss -ln 0.759747 = 0.274770; Brier (1 - 0.759747)^2 = 0.057722.
    - 1500 draws 1500: p = 0.5; log loss -(0.5 ln 0.5 + 0.5 ln 0.5) = ln 2 = 0.693147;
      Brier 0.
    Means: log loss (0.274770 + 0.693147)/2 = 0.483959; Brier 0.057722/2 = 0.028861."""
    found = predict(np.array([1600.0, 1500.0]), np.array([1400.0, 1500.0]),
                    np.array([False, True]), np.array([1.0, 0.5]), 400.0)
    assert found.overall.games == 2
    assert found.overall.mean_log_loss == pytest.approx(0.483959, abs=1e-6)
    assert found.overall.mean_brier == pytest.approx(0.028861, abs=1e-6)
    assert found.by_kind["established"].mean_log_loss == pytest.approx(0.274770, abs=1e-6)
    assert found.by_kind["provisional"].mean_log_loss == pytest.approx(math.log(2))
    # bands by the mean of the two ratings: (1600 + 1400)/2 = 1500 and 1500
    assert found.by_band == {"1400-1599": found.overall}


def test_calibration_puts_both_sides_in_their_bins() -> None:
    """p = 0.759747 (bin 15, 0.75-0.80) for the winner and 0.240253 (bin 4) for the
    loser; the draw's 0.5 twice in bin 10. Means: bin 15 p 0.759747, result 1; bin 4
    result 0; bin 10 result 0.5."""
    found = predict(np.array([1600.0, 1500.0]), np.array([1400.0, 1500.0]),
                    np.array([False, False]), np.array([1.0, 0.5]), 400.0)
    bins = found.calibration
    assert [i for i, (n, _, _) in enumerate(bins) if n] == [4, 10, 15]
    n, sum_p, sum_y = bins[15]
    assert (n, sum_y) == (1, 1.0) and sum_p == pytest.approx(0.759747, abs=1e-6)
    assert bins[4][2] == 0.0 and bins[10] == (2, 1.0, 1.0)


def test_a_wider_logistic_scale_predicts_more_cautiously() -> None:
    """With 800 in place of 400: p = 1/(1 + 10^(-200/800)) = 1/(1 + 0.562341) = 0.640065."""
    found = predict(np.array([1600.0]), np.array([1400.0]), np.array([False]),
                    np.array([1.0]), 800.0)
    assert found.overall.mean_brier == pytest.approx((1 - 0.640065) ** 2, abs=1e-6)


def test_bands_and_movement() -> None:
    assert band_of(1599.9) == "1400-1599" and band_of(1600) == "1600-1799"
    moved = movement([10.0, -4.0, 0.0], [("2025-01", [1000.0, 2000.0, 1500.0])])
    # mean (10 - 4 + 0)/3 = 2; sd sqrt(((8)^2 + (-6)^2 + (-2)^2)/3) = sqrt(104/3) = 5.888
    assert moved.mean_change == pytest.approx(2.0)
    assert moved.sd_change == pytest.approx(math.sqrt(104 / 3))
    assert moved.total_change == 6.0
    # percentiles of 1000, 1500, 2000 (linear): 10th 1100, median 1500, 90th 1900
    assert moved.months == (("2025-01", 3, 1500.0, 1100.0, 1500.0, 1900.0),)


def test_the_scores_worked_in_place_are_the_formulas_written_plainly() -> None:
    """`predict` works its arrays in place: each step is the same operation on the same
    numbers as the formulas of the module's docstring, so the same bits. Random games
    over many bands, half of them between provisional players."""
    rng = np.random.default_rng(11)
    a, b = rng.normal(1500, 400, 5000), rng.normal(1500, 400, 5000)
    provisional = rng.random(5000) < 0.5
    y = rng.choice([0.0, 0.5, 1.0], 5000)
    found = predict(a, b, provisional, y, 400.0)
    p = 1.0 / (1.0 + np.power(10.0, -(a - b) / 400.0))
    q = np.clip(p, 1e-15, 1.0 - 1e-15)
    loss = -(y * np.log(q) + (1.0 - y) * np.log(1.0 - q))
    brier = (p - y) ** 2
    assert found.overall == Sums(5000, float(loss.sum()), float(brier.sum()))
    for kind, mask in (("established", ~provisional), ("provisional", provisional)):
        assert found.by_kind[kind] == Sums(int(mask.sum()), float(loss[mask].sum()),
                                           float(brier[mask].sum()))
    bands = np.floor((a + b) / 2.0 / 200.0)
    assert len(found.by_band) > 5
    for band in np.unique(bands).tolist():
        mask = bands == band
        # bincount adds a band's games in their order, as a loop would
        total_loss, total_brier = 0.0, 0.0
        for x, z in zip(loss[mask].tolist(), brier[mask].tolist(), strict=True):
            total_loss, total_brier = total_loss + x, total_brier + z
        assert found.by_band[band_of(band * 200.0)] == Sums(int(mask.sum()), total_loss,
                                                           total_brier)
    sides_p, sides_y = np.concatenate([p, 1.0 - p]), np.concatenate([y, 1.0 - y])
    bins = np.minimum((sides_p * 20).astype(np.int64), 19).tolist()
    counts, sums_p, sums_y = [0] * 20, [0.0] * 20, [0.0] * 20
    for k, x, z in zip(bins, sides_p.tolist(), sides_y.tolist(), strict=True):
        counts[k], sums_p[k], sums_y[k] = counts[k] + 1, sums_p[k] + x, sums_y[k] + z
    assert found.calibration == tuple(zip(counts, sums_p, sums_y, strict=True))
