"""The numbers written into the rating formulas, as one record a rule set carries.

The dated rules (B, the floors' systems, the initialization method: rules.py) change
with a section's date; these numbers have not changed in any covered text, so every
dated rule set carries `DOCUMENTED`. They are still data rather than literals in the
kernels, so that a ratings committee can ask what another value would do
(docs/researcher.md): a variant of the rules replaces some of them.

All fields are floats, counts included: the kernels (kernels.py) compare them with whole
numbers, and Numba passes a record of one type as one compact tuple.
"""

from __future__ import annotations

from typing import NamedTuple


class Constants(NamedTuple):
    """Every constant of the formulas, with its documented value and section (2025 text
    unless said)."""

    # Step 2, section 3: N* = 50/sqrt(0.662 + 0.00000739 (2569 - R0)^2), 50 above 2355
    n_star_games: float = 50.0
    n_star_a: float = 0.662
    n_star_b: float = 0.00000739
    n_star_centre: float = 2569.0
    n_star_top: float = 2355.0
    #: Step 4: the special formula for N <= 8 (section 4)
    special_max_games: float = 8.0
    #: PWe(R, Ri) is 0 and 1 beyond Ri -/+ 400; R0' = R0 -/+ 400 (section 4.1)
    pwe_width: float = 400.0
    #: the special formula never gives more than 2700 (section 4.1)
    special_cap: float = 2700.0
    #: We(R, Ri) = 1/(1 + 10^(-(R - Ri)/400)) (section 4.2)
    we_scale: float = 400.0
    #: K = 800/(N' + m) (section 4.2)
    k_numerator: float = 800.0
    # K of a dual-rated Regular rating above 2200: 800(6.5 - 0.0025R)/(N' + m) below 2500,
    # 200/(N' + m) from 2500 (section 4.2)
    dual_k_from: float = 2200.0
    dual_k_a: float = 6.5
    dual_k_b: float = 0.0025
    dual_k_top: float = 2500.0
    dual_k_top_numerator: float = 200.0
    #: the bonus needs m >= 3 (section 4.2)
    bonus_min_games: float = 3.0
    #: m' = max(m, 4) in the bonus B sqrt(m') (section 4.2)
    bonus_m_floor: float = 4.0
    #: each step's rating is raised to 100 (section 1, Steps 3-5)
    step_floor: float = 100.0
    # AF = min(100 + 4 N_W + 2 N_D + N_R, 150), N_R counting events of 3 or more games
    # (section 5)
    absolute_floor: float = 100.0
    absolute_floor_cap: float = 150.0
    absolute_floor_win: float = 4.0
    absolute_floor_draw: float = 2.0
    absolute_floor_event: float = 1.0
    absolute_floor_event_games: float = 3.0
    # the peak floor: the peak rounded, less 200, at or just below one of 1200, 1300, ...,
    # 2100 (section 5)
    peak_floor_drop: float = 200.0
    peak_floor_lowest: float = 1200.0
    peak_floor_highest: float = 2100.0
    peak_floor_step: float = 100.0
    #: the OLM floor of 2200, earned by 300 games while established above 2200 (section 5)
    olm_floor: float = 2200.0
    olm_games: float = 300.0
    #: "established" means based on more than 25 games (section 1)
    established_after: float = 25.0
    # blended initialization (section 2): Game Factor G_k (at most) 10 from the Regular
    # rating (and for OLB from OTBB, OLQ from OTBQ; a FIDE rating above the split), else
    # 5; Z_k = min(6, (X_k - P_k)/350); S_k = exp(.06 (Z_k - 6) D_k/365.25); N =
    # min(10, sum W_k) rounded up
    init_game_factor: float = 10.0
    init_other_game_factor: float = 5.0
    init_z_cap: float = 6.0
    init_z_scale: float = 350.0
    init_staleness: float = 0.06
    init_games_cap: float = 10.0
    # norms toward the titles (../shared/spec/titles.md, "A norm in one section"; docs/
    # norms.md shows which reading of each open point the real crosstables confirm)
    #: the lowest norm level (4th Category, 1200) and the step between levels: seven
    #: levels, 1200 to 2400
    norm_lowest_level: float = 1200.0
    norm_level_step: float = 200.0
    #: the expected score against one opponent at level L, D = L - opponent's rating: 0
    #: for D <= -400, 0.5 + D/800 up to 0, 0.5 + D/400 up to 200, then 1
    norm_table_below: float = 400.0
    norm_table_above: float = 200.0
    #: a norm needs a score more than this many points above the expected score
    norm_margin: float = 1.0
    #: a norm needs at least this many rated games ...
    norm_min_games: float = 4.0
    #: ... and no opponent met more than this many times
    norm_max_meetings: float = 2.0
    #: five norms at a level (or above) earn its title (titles.md, "Titles")
    title_norms: float = 5.0
    #: National Master: an established Regular rating of 2200 (titles.md, "Titles")
    national_master: float = 2200.0


#: the values of the rating system's documents
DOCUMENTED = Constants()
