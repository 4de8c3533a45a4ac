"""Build the hand-made US Chess rating-report fixtures in tests/formats/data/dbf/.

Run ``python3 tests/formats/data/make_dbf_fixtures.py`` to rebuild them; a test checks that
the committed files are what this script writes.

The dBase III bytes are written here by a writer of its own (:func:`table`), independent
of ``uscf_ratings.formats.dbf``, so that a mistake in the module's writer cannot hide in
the fixtures. Each fixture folder holds THEXPORT.DBF, TSEXPORT.DBF and TDEXPORT.DBF; values
are given exactly as the bytes of the record (left- or right-justified as stated), so each
fixture shows one oddity of the format notes (shared/spec/file-formats.md).
"""

from __future__ import annotations

import struct
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent / "dbf"

Field = tuple[str, str, int]  # name, type letter, width


def table(fields: Sequence[Field], rows: Sequence[Sequence[str]], *, deleted: Sequence[int] = (),
          year: int = 2024, month: int = 3, day: int = 1, count: int | None = None) -> bytes:
    """A dBase III table. Every value is text of exactly its field's width (checked).

    Header, 32 bytes: version 0x03; last update as year-1900, month, day; record count
    (uint32 LE); header length 32 + 32 per field + 1 (uint16 LE); record length 1 + the
    field widths (uint16 LE); 20 reserved zero bytes. Then a 32-byte descriptor per field:
    name (11 bytes, NUL-padded), type letter, 4 zero bytes, width, decimals (0), 14 zero
    bytes. 0x0D ends the header. Each record: a flag byte (0x20 live, 0x2A deleted) and the
    values, fixed width. 0x1A ends the file. ``count`` overrides the record count in the
    header (to make a truncated file).
    """
    header_len = 32 + 32 * len(fields) + 1
    record_len = 1 + sum(width for _, _, width in fields)
    n = len(rows) if count is None else count
    out = bytearray(struct.pack("<BBBBIHH", 0x03, year - 1900, month, day, n, header_len,
                                record_len))
    out += bytes(20)
    for name, kind, width in fields:
        out += name.encode("ascii").ljust(11, b"\0") + kind.encode("ascii") + bytes(4)
        out += bytes([width, 0]) + bytes(14)
    out += b"\r"
    for index, row in enumerate(rows):
        out += b"*" if index in deleted else b" "
        for (name, _, width), value in zip(fields, row, strict=True):
            if len(value) != width:
                raise ValueError(f"{name}: {value!r} is not {width} wide")
            out += value.encode("ascii")
    out += b"\x1a"
    return bytes(out)


def c(value: str, width: int) -> str:
    """Left-justified text, as 2C (Sept-2025) and SwissSys write it."""
    return value.ljust(width)


def r(value: str, width: int) -> str:
    """Right-justified text, as N fields and older writers have it."""
    return value.rjust(width)


# -- a plain SwissSys-style set: every field C, left-justified, dates as C(8) text --------

HEAD = [("H_FORMAT", "C", 5), ("H_PROGRAM", "C", 10), ("H_EVENT_ID", "C", 12),
        ("H_NAME", "C", 35), ("H_TOT_SECT", "C", 2), ("H_BEG_DATE", "C", 8),
        ("H_END_DATE", "C", 8)]
SECT = [("S_EVENT_ID", "C", 12), ("S_SEC_NUM", "C", 2), ("S_SEC_NAME", "C", 30),
        ("S_R_SYSTEM", "C", 1), ("S_TIMECTL", "C", 40), ("S_TRN_TYPE", "C", 1),
        ("S_TOT_RNDS", "C", 2), ("S_BEG_DATE", "C", 8), ("S_END_DATE", "C", 8)]
DETL = [("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "C", 4),
        ("D_MEM_ID", "C", 8), ("D_NAME", "C", 30), ("D_RATING", "C", 4)]


def plain_set(players: Sequence[tuple[str, str, str, str, Sequence[str]]], rounds: int,
              section_extra: Sequence[str] = (), detail_fields: Sequence[Field] = DETL,
              section_fields: Sequence[Field] = SECT) -> dict[str, bytes]:
    """One-section event 202403010001 "Fixture Open", R, G/90;d30, 2024-03-01.
    ``players``: (pair, id, name, rating, cells) with cells as written."""
    head = table(HEAD, [[c("2C", 5), c("FIXTURE", 10), c("202403010001", 12),
                         c("Fixture Open", 35), c("1", 2), "20240301", "20240301"]])
    sect_row = [c("202403010001", 12), c("1", 2), c("Open", 30), "R", c("G/90;d30", 40), "S",
                c(str(rounds), 2), "20240301", "20240301"]
    sect = table(section_fields, [list(section_extra) or sect_row])
    cells = [(f"D_RND{k:02d}", "C", 7) for k in range(1, rounds + 1)]
    rows = [[c("202403010001", 12), c("1", 2), c(pair, 4), c(mid, 8), c(name, 30), c(rating, 4)]
            + [c(x, 7) for x in cell_texts] for pair, mid, name, rating, cell_texts in players]
    detl = table(list(detail_fields) + cells, rows)
    return {"THEXPORT.DBF": head, "TSEXPORT.DBF": sect, "TDEXPORT.DBF": detl}


def swisssys_style() -> dict[str, bytes]:
    """Three players, two rounds: a game each round and a bye, cells like ``W2W``."""
    return plain_set([("1", "12345678", "ALPHA, ANN", "1500", ["W2W", "H"]),
                      ("2", "23456789", "BRAVO, BEN", "1400", ["L1B", "W3B"]),
                      ("3", "34567890", "CHARLIE, CY", "", ["B", "L2W"])], rounds=2)


# -- legacy layout: 9-character event ids, 5-character cells, D_REC_SEQ continuation ----

def legacy() -> dict[str, bytes]:
    """Four players, 12 rounds (a round robin played four times over, reported by rounds
    as a Swiss). Rounds 11 and 12 are in a second record per player (D_REC_SEQ 2), whose
    D_RND01 and D_RND02 are rounds 11 and 12. Cells are 5 wide: letter, opponent
    right-justified in 3, colour. TDEXPORT has only the fields the notes list for this
    layout (no name, no rating). One record is deleted (flag 0x2A) and must be skipped."""
    head = table([("H_EVENT_ID", "C", 9), ("H_NAME", "C", 35), ("H_BEG_DATE", "D", 8),
                  ("H_END_DATE", "D", 8)],
                 [["199803070", c("Old Timers Quad", 35), "19980307", "19980308"]], year=1998)
    sect = table([("S_EVENT_ID", "C", 9), ("S_SEC_NUM", "C", 2), ("S_SEC_NAME", "C", 30),
                  ("S_R_SYSTEM", "C", 1), ("S_TIMECTL", "C", 40), ("S_TRN_TYPE", "C", 1),
                  ("S_TOT_RNDS", "C", 2), ("S_DTLREC01", "N", 6)],
                 [["199803070", r("1", 2), c("Quad", 30), "R", c("G/15", 40), "S", "12",
                   r("1", 6)]], year=1998)
    pairings = [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    outcome = {(1, 2): "W", (1, 3): "W", (1, 4): "W", (2, 3): "D", (2, 4): "W", (3, 4): "L"}
    flip = {"W": "L", "L": "W", "D": "D"}
    cells: dict[int, list[str]] = {p: [] for p in (1, 2, 3, 4)}
    for rnd in range(12):
        for a, b in pairings[rnd % 3]:
            res = outcome[(a, b)]
            cells[a].append(f"{res}{b:>3}{'W' if rnd % 2 == 0 else 'B'}")
            cells[b].append(f"{flip[res]}{a:>3}{'B' if rnd % 2 == 0 else 'W'}")
    fields = [("D_EVENT_ID", "C", 9), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "C", 4),
              ("D_REC_SEQ", "C", 1), ("D_MEM_ID", "C", 8)] + [
        (f"D_RND{k:02d}", "C", 5) for k in range(1, 11)]
    rows = [["199803070", r("1", 2), r(str(p), 4), "1", f"1000000{p}"] + cells[p][:10]
            for p in (1, 2, 3, 4)]
    rows.append(["199803070", r("1", 2), r("9", 4), "1", "10000009"] + ["U    "] * 10)
    rows += [["199803070", r("1", 2), r(str(p), 4), "2", f"1000000{p}"] + cells[p][10:]
             + [" " * 5] * 8 for p in (1, 2, 3, 4)]
    detl = table(fields, rows, deleted=[4], year=1998)
    return {"THEXPORT.DBF": head, "TSEXPORT.DBF": sect, "TDEXPORT.DBF": detl}


# -- dates as D, numbers as N, right-justified cells, two sections, P ratings ------------

def typed() -> dict[str, bytes]:
    """Two sections: 1 dual-rated (D), three rounds; 2 Quick (Q), two rounds, padded with
    U0 in round 3. Dates are type D; section and pair numbers are N (right-justified);
    cells are right-justified (``W   12B``); D_RATING is C(7) holding provisional ratings
    with their games (``1456P12``, ``1501/15``). Forfeits without opponent (X, F), a
    half-point bye (H), a full-point bye (B)."""
    head = table([("H_FORMAT", "C", 5), ("H_EVENT_ID", "C", 12), ("H_NAME", "C", 35),
                  ("H_TOT_SECT", "N", 2), ("H_BEG_DATE", "D", 8), ("H_END_DATE", "D", 8)],
                 [[c("2C", 5), "202405040007", c("Spring Swiss", 35), r("2", 2), "20240504",
                   "20240505"]])
    sect_fields = [("S_EVENT_ID", "C", 12), ("S_SEC_NUM", "N", 2), ("S_SEC_NAME", "C", 30),
                   ("S_R_SYSTEM", "C", 1), ("S_TIMECTL", "C", 40), ("S_TRN_TYPE", "C", 1),
                   ("S_TOT_RNDS", "N", 2), ("S_BEG_DATE", "D", 8), ("S_END_DATE", "D", 8)]
    sect = table(sect_fields, [
        ["202405040007", r("1", 2), c("Championship", 30), "D", c("G/45;d5", 40), "S",
         r("3", 2), "20240504", "20240505"],
        ["202405040007", r("2", 2), c("Booster", 30), "Q", c("G/25;d5", 40), "S", r("2", 2),
         "20240505", "        "]])
    fields = [("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "N", 2), ("D_PAIR_NUM", "N", 4),
              ("D_MEM_ID", "C", 8), ("D_NAME", "C", 30), ("D_RATING", "C", 7)] + [
        (f"D_RND{k:02d}", "C", 7) for k in (1, 2, 3)]
    rows = [
        # section 1: pairs 1-4
        [r("1", 2), r("1", 4), "12000001", c("DELTA, DAN", 30), c("1456P12", 7),
         "W    2B", "D    3W", "X      "],
        [r("1", 2), r("2", 4), "12000002", c("ECHO, EVE", 30), c("1501/15", 7),
         "L    1W", "W    4B", "H      "],
        [r("1", 2), r("3", 4), "12000003", c("FOXTROT, FAY", 30), c("1800", 7),
         "W    4W", "D    1B", "F      "],
        [r("1", 2), r("4", 4), "12000004", c("GOLF, GUS", 30), c("0", 7),
         "L    3B", "L    2W", "B      "],
        # section 2: pairs 1-2, padded with U0
        [r("2", 2), r("1", 4), "12000005", c("HOTEL, HAL", 30), c("", 7),
         "D    2W", "W    2B", c("U0", 7)],
        [r("2", 2), r("2", 4), "12000006", c("INDIA, IDA", 30), c(" 980", 7),
         "D    1B", "L    1W", c("U0", 7)],
    ]
    rows = [["202405040007"] + row for row in rows]
    return {"THEXPORT.DBF": head, "TSEXPORT.DBF": sect, "TDEXPORT.DBF": table(fields, rows)}


# -- a round robin reported by opponent columns ------------------------------------------

def round_robin() -> dict[str, bytes]:
    """A quad (S_TRN_TYPE R, three rounds) reported as a cross table: column k is the
    game against pair k, the diagonal blank. Most cells give only the letter; pair 4's
    row also names the opponent (``L1``), which must agree."""
    rows = [("1", "13000001", "JULIET, JO", "1700", ["", "W", "W", "D"]),
            ("2", "13000002", "KILO, KIT", "1650", ["L", "", "D", "W"]),
            ("3", "13000003", "LIMA, LEE", "1600", ["L", "D", "", "W"]),
            ("4", "13000004", "MIKE, MO", "1550", ["D1", "L2", "L3", ""])]
    sect = [c("202403010001", 12), c("1", 2), c("Quad", 30), "R", c("G/90;d30", 40), "R",
            c("3", 2), "20240301", "20240301"]
    return plain_set(rows, rounds=4, section_extra=sect)


# -- malformed sets ---------------------------------------------------------------------

def truncated_header() -> dict[str, bytes]:
    files = swisssys_style()
    files["THEXPORT.DBF"] = files["THEXPORT.DBF"][:20]
    return files


def truncated_records() -> dict[str, bytes]:
    """TDEXPORT's header says 4 records; three follow."""
    files = swisssys_style()
    data = bytearray(files["TDEXPORT.DBF"])
    struct.pack_into("<I", data, 4, 4)
    files["TDEXPORT.DBF"] = bytes(data)
    return files


def wrong_types() -> dict[str, bytes]:
    """D_PAIR_NUM as a logical (L), D_RND02 as a number (N), S_BEG_DATE as L."""
    detl = [("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "L", 4),
            ("D_MEM_ID", "C", 8), ("D_NAME", "C", 30), ("D_RATING", "C", 4)]
    files = plain_set([("1", "12345678", "ALPHA, ANN", "1500", ["W2W", "H"]),
                       ("2", "23456789", "BRAVO, BEN", "1400", ["L1B", "H"])], rounds=2,
                      detail_fields=detl)
    data = bytearray(files["TDEXPORT.DBF"])
    data[32 + 32 * 7 + 11] = ord("N")  # the 8th descriptor, D_RND02
    files["TDEXPORT.DBF"] = bytes(data)
    sect = [(n, "L" if n == "S_BEG_DATE" else t, w) for n, t, w in SECT]
    files["TSEXPORT.DBF"] = plain_set([], 2, section_fields=sect)["TSEXPORT.DBF"]
    return files


def one_bad_cell(cell: str) -> dict[str, bytes]:
    return plain_set([("1", "12345678", "ALPHA, ANN", "1500", [cell]),
                      ("2", "23456789", "BRAVO, BEN", "1400", ["L1B"])], rounds=1)


def several() -> dict[str, bytes]:
    """Problems in all three files: a bad end date (THEXPORT), an unknown system letter
    (TSEXPORT), and in TDEXPORT an unknown result letter, a missing opponent pair, a game
    with no opponent, a rating that is not a number and a section that does not exist."""
    files = plain_set([("1", "12345678", "ALPHA, ANN", "15OO", ["Q2W", "W9B"]),
                       ("2", "23456789", "BRAVO, BEN", "1400", ["W", "H"])], rounds=2,
                      section_extra=[c("202403010001", 12), c("1", 2), c("Open", 30), "Z",
                                     c("G/90;d30", 40), "S", c("2", 2), "20240301",
                                     "20240301"])
    files["THEXPORT.DBF"] = table(HEAD, [[c("2C", 5), c("FIXTURE", 10), c("202403010001", 12),
                                          c("Fixture Open", 35), c("1", 2), "20240301",
                                          "20241301"]])
    bad_section = table(DETL + [("D_RND01", "C", 7), ("D_RND02", "C", 7)],
                        [[c("202403010001", 12), c("7", 2), c("3", 4), c("", 8), c("X", 30),
                          c("", 4), c("U", 7), c("U", 7)]])
    rows = files["TDEXPORT.DBF"]
    # append the stray record: same layout, so splice its record bytes before the 0x1A
    header_len = struct.unpack_from("<H", rows, 8)[0]
    extra = bad_section[header_len:-1]
    data = bytearray(rows[:-1] + extra + b"\x1a")
    struct.pack_into("<I", data, 4, 3)
    files["TDEXPORT.DBF"] = bytes(data)
    return files


FIXTURES = {
    "swisssys_style": swisssys_style,
    "legacy_5char": legacy,
    "typed_dates_numbers": typed,
    "round_robin": round_robin,
    "bad_truncated_header": truncated_header,
    "bad_truncated_records": truncated_records,
    "bad_wrong_types": wrong_types,
    "bad_unknown_code": lambda: one_bad_cell("Q2W"),
    "bad_missing_pair": lambda: one_bad_cell("W9B"),
    "bad_double_game": lambda: one_bad_cell("$2W"),
    "bad_several": several,
}


def zipped() -> bytes:
    """The SwissSys-style set in a zip, lower-case names inside a folder."""
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in swisssys_style().items():
            info = zipfile.ZipInfo(f"report/{name.lower()}", date_time=(2024, 3, 1, 0, 0, 0))
            archive.writestr(info, data)
    return buffer.getvalue()


def build(root: Path = HERE) -> dict[Path, bytes]:
    """Every fixture file's path and bytes."""
    out = {root / folder / name: data for folder, make in FIXTURES.items()
           for name, data in make().items()}
    out[root / "report.zip"] = zipped()
    return out


def main() -> None:
    for path, data in build().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(path.relative_to(HERE.parent), len(data), "bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
