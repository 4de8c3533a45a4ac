"""Archives are read through a stream capped on the bytes actually produced, for every
compression method (issue 37): a member whose directory entry under-states its size is
refused after at most one chunk past what the entry says, whatever the method; an
encrypted member, or one compressed by a method not read, is refused naming it.

The zips are built byte by byte (tests/formats/zip_bombs.py); an honest one is checked
against Python's own `zipfile`, so the builder cannot be wrong in our favour."""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.formats.zip_bombs import BZIP2, DEFLATE, LZMA, STORED, bomb, compressed, zip_of

from uscf_ratings.formats import archive, dbf, wintd
from uscf_ratings.formats.errors import ParseError

METHODS = {"stored": STORED, "deflate": DEFLATE, "bzip2": BZIP2, "LZMA": LZMA}


def refusal(data: bytes, name: str = "M") -> str:
    reader = archive.Reader(data, "a.zip")
    with pytest.raises(ParseError) as caught:
        reader.read(reader.archive.getinfo(name))
    assert caught.value.source == "a.zip"
    [issue] = caught.value.issues
    assert issue.where == name
    return issue.message


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(METHODS)), st.binary(max_size=100_000),
       st.integers(1, 4))
def test_an_honest_member_reads_as_zipfile_reads_it(method: str, payload: bytes,
                                                    repeat: int) -> None:
    data = payload * repeat  # repeated: compressible, so the chunks differ in and out
    packed, crc, size = compressed(METHODS[method], [data])
    zipped = zip_of([("M", METHODS[method], packed, crc, size)])
    assert zipfile.ZipFile(io.BytesIO(zipped)).read("M") == data  # the builder is right
    reader = archive.Reader(zipped, "a.zip")
    assert reader.read(reader.archive.getinfo("M")) == data


@pytest.mark.parametrize("method", sorted(METHODS))
def test_a_bomb_stops_one_chunk_past_what_its_entry_says(method: str) -> None:
    """24 MiB of zeros whose directory says 1,000 bytes: refused, and the memory Python
    allocated while reading stays under 1 MiB (zipfile's own read of the bzip2 and LZMA
    members made the 24 MiB in one call)."""
    zipped = bomb(METHODS[method], "M", 24)
    assert method == "stored" or len(zipped) < 200_000
    tracemalloc.start()
    try:
        message = refusal(zipped)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message == ("unpacks to more than the 1,000 bytes its directory entry says; "
                       "reading stopped")
    assert peak < 1 << 20, peak


def test_a_member_that_unpacks_to_less_than_its_entry_says_is_damaged() -> None:
    packed, crc, _ = compressed(DEFLATE, [b"x" * 500])
    message = refusal(zip_of([("M", DEFLATE, packed, crc, 600)]))
    assert message == "damaged: unpacks to 500 bytes; its directory entry says 600"


def test_a_wrong_crc_is_damage() -> None:
    packed, crc, size = compressed(BZIP2, [b"report"])
    message = refusal(zip_of([("M", BZIP2, packed, crc ^ 1, size)]))
    assert message == "damaged: its CRC-32 is not the one its directory entry states"


@pytest.mark.parametrize("method", [DEFLATE, BZIP2, LZMA])
def test_a_truncated_or_garbled_member_is_damaged(method: str | int) -> None:
    packed, crc, size = compressed(int(method), [bytes(range(256)) * 40])
    for broken in (packed[: len(packed) // 2], packed[:9] + b"\xff" * (len(packed) - 9)):
        message = refusal(zip_of([("M", int(method), broken, crc, size)]))
        assert message.startswith("damaged: "), message


def test_an_encrypted_member_is_refused_naming_it() -> None:
    """Bit 0 of the flags (APPNOTE.TXT 4.4.4): zipfile asks for a password, a traceback."""
    packed, crc, size = compressed(DEFLATE, [b"secret"])
    zipped = zip_of([("TDEXPORT.DBF", DEFLATE, packed, crc, size)], flags=1)
    message = refusal(zipped, "TDEXPORT.DBF")
    assert message.startswith("encrypted: an encrypted member is not read")


@pytest.mark.parametrize("method, name", [(9, "Deflate64"), (98, "PPMd"), (93, "Zstandard"),
                                          (77, "unknown")])
def test_a_method_not_read_is_refused_naming_it(method: int, name: str) -> None:
    zipped = zip_of([("M", method, b"\x00" * 16, 0, 16)])
    assert refusal(zipped) == (f"compressed with method {method} ({name}); only stored, "
                               "deflate, bzip2, LZMA are read (zip it again with deflate)")


def test_an_lzma_header_claiming_a_huge_dictionary_gets_none_of_it() -> None:
    """The dictionary is never larger than the stated size and a chunk: 4 GB claimed."""
    packed, crc, size = compressed(LZMA, [b"abc" * 1000])
    claimed = packed[:5] + (0xFFFFFFFF).to_bytes(4, "little") + packed[9:]
    tracemalloc.start()
    reader = archive.Reader(zip_of([("M", LZMA, claimed, crc, size)]), "a.zip")
    assert reader.read(reader.archive.getinfo("M")) == b"abc" * 1000
    tracemalloc.stop()


@pytest.mark.parametrize("method", sorted(METHODS))
def test_the_readers_refuse_a_bomb_naming_the_file_and_member(tmp_path: object,
                                                               method: str) -> None:
    """Both doors that open zips: a rating report's zip and WinTD's .ptoz."""
    from pathlib import Path

    folder = Path(str(tmp_path))
    report = folder / "report.zip"
    report.write_bytes(bomb(METHODS[method], "TDEXPORT.DBF", 1))
    with pytest.raises(ParseError) as caught:
        dbf.read(report)
    assert str(caught.value) == (f"{report}: TDEXPORT.DBF: unpacks to more than the 1,000 "
                                 "bytes its directory entry says; reading stopped")
    ptoz = folder / "event.ptoz"
    ptoz.write_bytes(bomb(METHODS[method], "Json", 1))
    with pytest.raises(ParseError) as caught:
        wintd.read(ptoz, event_date=None)
    assert str(caught.value).startswith(f"{ptoz}: Json: unpacks to more than the 1,000 bytes")
