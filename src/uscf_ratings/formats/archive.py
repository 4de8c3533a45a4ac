"""Zip archives read by the formats (a DBF rating report's zip, WinTD's ``.ptoz``),
bounded by the bytes actually produced, whatever the archive's directory claims.

A small zip can unpack to gigabytes (a "zip bomb"), and its directory can lie about
the sizes. Python's `zipfile` decompresses bzip2 and LZMA members without a bound on
what one call produces, so a 2 KB zip whose directory under-states a bzip2 member took
3 GB in a single read. So the members are never unpacked by `zipfile`: it is used only
to list the directory, and each member's bytes are decompressed here, by one
decompressor per method (stored, deflate, bzip2, LZMA: every method `zipfile` itself
reads), each called with ``max_length`` so that no call produces more than `_CHUNK`
bytes. Reading stops as soon as a member produces more than its directory entry says,
or all members together more than `MAX_UNPACKED`.

Refused, each with a `ParseError` naming the archive, the member and the reason: more
than `MAX_MEMBERS` members, or more than `MAX_UNPACKED` bytes by the directory; a member
that unpacks to more (or fewer) bytes than its entry says, or whose CRC-32 is not the
one stated; an encrypted member (bit 0 of its flags: no password is ever asked for);
a member compressed by any other method (Deflate64, PPMd, ...: `zipfile` reads none of
them either), naming the method.
"""

from __future__ import annotations

import bz2
import io
import lzma
import struct
import zipfile
import zlib
from collections.abc import Iterator
from typing import Protocol

from .bounds import MAX_INPUT_BYTES
from .errors import Issue, ParseError

#: At most this many members in an archive (a rating report has three files).
MAX_MEMBERS = 100
#: At most this many bytes unpacked from an archive, all members together: what is
#: unpacked is the input, held to the same cap as any file (`bounds.MAX_INPUT_BYTES`).
MAX_UNPACKED = MAX_INPUT_BYTES
#: At most this many bytes produced by one call of a decompressor.
_CHUNK = 1 << 16
#: The compression methods read (APPNOTE.TXT 4.4.5), by number.
METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate",
           zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}
#: Names of methods that are refused, for the message (APPNOTE.TXT 4.4.5).
OTHER_METHODS = {1: "shrink", 6: "implode", 9: "Deflate64", 10: "PKWARE DCL implode",
                 18: "IBM TERSE", 19: "IBM LZ77", 93: "Zstandard", 95: "xz", 96: "JPEG",
                 97: "WavPack", 98: "PPMd", 99: "AES encryption"}
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")  # APPNOTE.TXT 4.3.7
_LOCAL_SIGNATURE = b"PK\x03\x04"
_ENCRYPTED = 0x1  #: bit 0 of the general purpose flags (APPNOTE.TXT 4.4.4)


def check_directory(archive: zipfile.ZipFile, source: str) -> None:
    """Refuse an archive whose directory lists too many members or too many bytes."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ParseError(source, [Issue("zip", f"holds {len(infos):,} members; the cap is "
                                               f"{MAX_MEMBERS:,}")])
    total = sum(info.file_size for info in infos)
    if total > MAX_UNPACKED:
        raise ParseError(source, [Issue("zip", f"unpacks to {total:,} bytes by its directory; "
                                               f"the cap is {MAX_UNPACKED:,} bytes")])


class _Decompressor(Protocol):
    @property
    def eof(self) -> bool: ...

    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class Reader:
    """Reads members of one archive (its bytes), counting every byte unpacked against the
    caps. Opening it reads the directory (`zipfile`), and refuses a zip that is not one
    or is over the caps by its directory."""

    def __init__(self, data: bytes, source: str):
        self.data, self.source, self.unpacked = memoryview(data), source, 0
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error,
                NotImplementedError) as error:  # NotImplementedError: a version unknown
            raise self._refused("zip", f"not a readable zip file ({error})") from None
        check_directory(self.archive, source)

    def infolist(self) -> list[zipfile.ZipInfo]:
        return self.archive.infolist()

    def _refused(self, where: str, message: str) -> ParseError:
        return ParseError(self.source, [Issue(where, message)])

    def read(self, info: zipfile.ZipInfo) -> bytes:
        """The member's bytes, refused (naming it) when it is encrypted, compressed by a
        method not read, damaged, or unpacks to more than its entry says or the cap."""
        name = info.filename
        if info.flag_bits & _ENCRYPTED:
            raise self._refused(name, "encrypted: an encrypted member is not read "
                                      "(zip the files without a password)")
        if info.compress_type not in METHODS:
            method = OTHER_METHODS.get(info.compress_type, "unknown")
            raise self._refused(name, f"compressed with method {info.compress_type} "
                                      f"({method}); only {', '.join(METHODS.values())} "
                                      "are read (zip it again with deflate)")
        chunks, produced, crc = [], 0, 0
        for chunk in self._unpacked(info):
            produced += len(chunk)
            self.unpacked += len(chunk)
            if produced > info.file_size:
                raise self._refused(name, f"unpacks to more than the {info.file_size:,} bytes "
                                          "its directory entry says; reading stopped")
            if self.unpacked > MAX_UNPACKED:
                raise self._refused(name, f"unpacks to more than its directory says: "
                                          f"reading stopped past {MAX_UNPACKED:,} bytes, the cap")
            crc = zlib.crc32(chunk, crc)
            chunks.append(chunk)
        if produced != info.file_size:
            raise self._refused(name, f"damaged: unpacks to {produced:,} bytes; its directory "
                                      f"entry says {info.file_size:,}")
        if crc != info.CRC:
            raise self._refused(name, "damaged: its CRC-32 is not the one its directory "
                                      "entry states")
        return b"".join(chunks)

    def _packed(self, info: zipfile.ZipInfo) -> memoryview:
        """The member's compressed bytes, after its local header."""
        start = info.header_offset
        try:
            fields = _LOCAL_HEADER.unpack_from(self.data, start)
        except struct.error:
            raise self._refused(info.filename, "damaged: its local header lies outside "
                                               "the file") from None
        if fields[0] != _LOCAL_SIGNATURE:
            raise self._refused(info.filename, "damaged: no local header where the "
                                               "directory says")
        begin = start + _LOCAL_HEADER.size + fields[10] + fields[11]
        end = begin + info.compress_size
        if end > len(self.data):
            raise self._refused(info.filename, "damaged: its compressed bytes run past the "
                                               "end of the file")
        return self.data[begin:end]

    def _unpacked(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The member's bytes in chunks of at most `_CHUNK` (the one bound)."""
        packed = self._packed(info)
        method = info.compress_type
        if method == zipfile.ZIP_STORED:
            for at in range(0, len(packed), _CHUNK):
                yield bytes(packed[at:at + _CHUNK])
            return
        decompressor: _Decompressor
        try:
            if method == zipfile.ZIP_DEFLATED:
                yield from _inflate(packed)
                return
            if method == zipfile.ZIP_BZIP2:
                decompressor = bz2.BZ2Decompressor()
            else:
                decompressor, packed = _lzma(packed, info.file_size)
            yield from _drain(decompressor, packed)
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as error:
            raise self._refused(info.filename, f"damaged: cannot be unpacked "
                                               f"({METHODS[method]}: {error})") from None


def _inflate(packed: memoryview) -> Iterator[bytes]:
    """Raw deflate (APPNOTE.TXT 4.4.5, method 8), fed a chunk at a time."""
    decompressor = zlib.decompressobj(-zlib.MAX_WBITS)
    at = 0
    pending = b""
    while not decompressor.eof:
        if not pending:
            if at >= len(packed):
                return  # truncated: the size check names it
            pending, at = bytes(packed[at:at + _CHUNK]), at + _CHUNK
        out = decompressor.decompress(pending, _CHUNK)
        pending = decompressor.unconsumed_tail
        yield out


def _drain(decompressor: bz2.BZ2Decompressor | lzma.LZMADecompressor,
           packed: memoryview) -> Iterator[bytes]:
    """Feed ``packed`` a chunk at a time; take at most `_CHUNK` bytes out per call."""
    at = 0
    while not decompressor.eof:
        if decompressor.needs_input:
            if at >= len(packed):
                return  # the stream ends without its end mark: the size check decides
            chunk, at = bytes(packed[at:at + _CHUNK]), at + _CHUNK
        else:
            chunk = b""
        yield decompressor.decompress(chunk, max_length=_CHUNK)


def _lzma(packed: memoryview, size: int) -> tuple[lzma.LZMADecompressor, memoryview]:
    """A decompressor for a zip's LZMA member (APPNOTE.TXT 5.8.8: a version, the size of
    the properties, and LZMA1's five bytes of properties), and the stream after them. The
    dictionary is never larger than the member's stated size and one chunk more: a
    header that claims a 4 GB dictionary gets none of it (a reference further back than
    what was produced is damage)."""
    if len(packed) < 9:
        raise ValueError("its LZMA properties are missing")
    length = int.from_bytes(packed[2:4], "little")
    if length != 5 or len(packed) < 4 + length:
        raise ValueError(f"LZMA properties of {length} bytes; expected 5")
    first = packed[4]
    if first >= 9 * 5 * 5:
        raise ValueError("LZMA properties out of range")
    claimed = int.from_bytes(packed[5:9], "little")
    dictionary = max(4096, min(claimed, size + _CHUNK))
    lc, rest = first % 9, first // 9
    filters = [{"id": lzma.FILTER_LZMA1, "dict_size": dictionary, "lc": lc,
                "lp": rest % 5, "pb": rest // 5}]
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filters), packed[4 + length:]
