"""Real sections chained through the ratings office (issue: the office's chaining test).

Published pre-event ratings are taken as given; history that a crosstable does not show
is carried only across links where the office's rating rounds to the next published
pre-event rating; the floors of member_pages_2021.json are imported. The figures are
printed (run with -s to see them) and must not fall below the engine's own.
"""

from __future__ import annotations

from pathlib import Path

from uscf_ratings.fidelity.chain import chain


def test_chaining_with_and_without_history(shared: Path, tmp_path: Path) -> None:
    without = chain(shared, f"sqlite:///{tmp_path / 'plain.db'}", carry_history=False,
                    import_floors=False)
    carried = chain(shared, f"sqlite:///{tmp_path / 'chained.db'}", carry_history=True,
                    import_floors=True)
    print("\nwithout carried history:", without.as_dict())
    print("with carried history and June 2021 floors:", carried.as_dict())
    assert without.players == carried.players > 20000
    # the sample holds few links, so carrying history changes little; it must not hurt
    # beyond the floors of 2021 imposed on older events (a floor then may be higher)
    assert carried.within1 >= without.within1 - 0.002 * without.players
    assert carried.exact >= without.exact - 0.002 * without.players
