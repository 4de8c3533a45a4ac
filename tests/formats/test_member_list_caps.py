"""The caps of member lists (`formats.bounds`, issue 37): `MAX_MEMBERS` rows, counted and
checked one at a time as a list is read, a line of at most `MAX_MEMBER_LINE_CHARS`, a
supplement of at most `MAX_MEMBER_LIST_BYTES`; and a supplement read a line at a time
gives the lines its whole text would. The caps are lowered here (the same code, at a size
a test can build many times); test_bounds_ceiling.py runs them at their real size under
a memory limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.formats import bounds, member_list, supplement
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_list import read_members
from uscf_ratings.formats.supplement import _lines

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def supplement_text(members: int) -> str:
    return "".join(f"{10_000_000 + i}\tLEE, KIM {i}\tWA\tUSA\t\tA\t\t\t2026-02-01\t1400P20\n"
                   for i in range(members))


@SETTINGS
@given(members=st.integers(1, 30), cap=st.integers(1, 30),
       kind=st.sampled_from(["rtglist.txt", "list.csv", "list.json"]))
def test_members_past_the_cap_are_refused_at_the_row(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     members: int, cap: int, kind: str) -> None:
    """Each kind of member list: the supplement and the office's CSV refuse the row past
    the cap, naming its line; the office's JSON the list, before any is converted."""
    for module in (bounds, supplement, member_list):
        monkeypatch.setattr(module, "MAX_MEMBERS", cap)
    path = tmp_path / kind
    if kind == "rtglist.txt":
        path.write_text(supplement_text(members))
    elif kind == "list.csv":
        path.write_text("id,name,R_rating,R_games\n" + "".join(
            f"{10_000_000 + i},Kim {i},1400,20\n" for i in range(members)))
    else:
        path.write_text(json.dumps({"members": [
            {"id": str(10_000_000 + i), "name": f"Kim {i}"} for i in range(members)]}))
    if members <= cap:
        assert len(read_members(path)) == members
        return
    with pytest.raises(ParseError) as refused:
        read_members(path)
    line = {"rtglist.txt": cap + 1, "list.csv": cap + 2}.get(kind)
    place = f"line {line}: " if line else ""
    what = "members" if line is None else "rows of members"
    count = members if line is None else cap + 1
    assert str(refused.value) == (f"{path}: {place}{count:,} {what}: more than the {cap:,} "
                                  "one file may have")


# Text with every line break str.splitlines() knows, in either encoding the supplement
# reader takes, and characters that are not line breaks.
LINE_TEXT = st.lists(st.sampled_from(
    ["a", "1", "\t", ",", " ", "é", "€", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d",
     "\x1e", "\x85", "\u2028", "\u2029", "\ufeff"]), max_size=60).map("".join)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=LINE_TEXT, encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1252"]))
def test_lines_are_read_as_the_whole_text_splits(tmp_path: Path, text: str,
                                                 encoding: str) -> None:
    """A supplement read a line at a time gives the lines ``splitlines()`` of its whole
    text gave (UTF-8, a BOM skipped, else Windows-1252), whatever ends its lines."""
    data = text.encode(encoding, errors="replace")
    path = tmp_path / "list.txt"
    path.write_bytes(data)
    try:
        whole = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        whole = data.decode("cp1252", errors="replace")
    assert list(_lines(path)) == whole.splitlines()


def test_a_line_past_its_cap_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rtglist.txt"
    path.write_text(supplement_text(2) + "1" * (bounds.MAX_MEMBER_LINE_CHARS + 1) + "\n")
    with pytest.raises(ParseError) as refused:
        read_members(path)
    assert str(refused.value) == (f"{path}: line 3: more than "
                                  f"{bounds.MAX_MEMBER_LINE_CHARS:,} characters")


def test_a_supplement_past_its_bytes_is_refused_before_it_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supplement, "MAX_MEMBER_LIST_BYTES", 100)
    path = tmp_path / "rtglist.txt"
    path.write_text(supplement_text(3))
    with pytest.raises(ParseError) as refused:
        read_members(path)
    assert str(refused.value) == (f"{path}: {path.stat().st_size:,} bytes: larger than the "
                                  "100 bytes a member list may have")
