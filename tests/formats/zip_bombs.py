"""Zips built byte by byte (APPNOTE.TXT 4.3), so that a test can make every lie a zip
can tell: a member whose directory entry under-states its size, a flag, a method."""

from __future__ import annotations

import bz2
import lzma
import struct
import zlib
from collections.abc import Iterable

STORED, DEFLATE, BZIP2, LZMA = 0, 8, 12, 14
#: LZMA1's properties: lc = 3, lp = 0, pb = 2 ((pb * 5 + lp) * 9 + lc = 93), and the
#: dictionary's size (APPNOTE.TXT 5.8.8; the LZMA SDK's lzma-specification.txt).
_LZMA_FILTER = {"id": lzma.FILTER_LZMA1, "preset": 0, "dict_size": 1 << 16, "lc": 3, "lp": 0,
                "pb": 2}
_LZMA_HEADER = bytes([9, 20, 5, 0, 93]) + (1 << 16).to_bytes(4, "little")


def compressed(method: int, chunks: Iterable[bytes]) -> tuple[bytes, int, int]:
    """``chunks`` compressed by ``method``: the bytes, their CRC-32 and their size."""
    crc = size = 0
    out: list[bytes] = []
    if method == STORED:
        compress, flush = (lambda b: b), (lambda: b"")
    elif method == DEFLATE:
        c = zlib.compressobj(1, zlib.DEFLATED, -zlib.MAX_WBITS)
        compress, flush = c.compress, c.flush
    elif method == BZIP2:
        b = bz2.BZ2Compressor(1)
        compress, flush = b.compress, b.flush
    else:
        x = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[_LZMA_FILTER])
        compress, flush = x.compress, x.flush
        out.append(_LZMA_HEADER)
    for chunk in chunks:
        crc, size = zlib.crc32(chunk, crc), size + len(chunk)
        out.append(compress(chunk))
    out.append(flush())
    return b"".join(out), crc, size


def zip_of(members: list[tuple[str, int, bytes, int, int]], flags: int = 0) -> bytes:
    """A zip of ``(name, method, packed bytes, CRC-32, size its entries state)``."""
    local, central = bytearray(), bytearray()
    for name, method, packed, crc, size in members:
        encoded = name.encode()
        header = struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, flags, method, 0, 0x21,
                             crc, len(packed), size, len(encoded), 0)
        central += struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 0, 20, 0, flags, method,
                               0, 0x21, crc, len(packed), size, len(encoded), 0, 0, 0, 0, 0,
                               len(local)) + encoded
        local += header + encoded + packed
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members),
                      len(central), len(local), 0)
    return bytes(local + central + end)


def zeros(megabytes: int) -> Iterable[bytes]:
    block = bytes(1 << 20)
    return (block for _ in range(megabytes))


def bomb(method: int, name: str, megabytes: int, stated: int = 1000) -> bytes:
    """A zip of one member of ``megabytes`` MiB of zeros whose entries say ``stated``."""
    packed, crc, _size = compressed(method, zeros(megabytes))
    return zip_of([(name, method, packed, crc, stated)])
