"""Zip archives read by the formats (a DBF rating report's zip, WinTD's ``.ptoz``),
within caps: a small zip can unpack to gigabytes (a "zip bomb"), so the number of
members and the total unpacked size are checked from the zip's directory before
anything is unpacked, and the size again while reading, in chunks, since a directory
can lie. A zip over a cap is refused with a `ParseError` naming the file, the cap and
what was found.
"""

from __future__ import annotations

import zipfile

from .errors import Issue, ParseError

#: At most this many members in an archive (a rating report has three files).
MAX_MEMBERS = 100
#: At most this many bytes unpacked from an archive, all members together (the US Chess
#: report of an event of 2,000 players is well under 2 MB).
MAX_UNPACKED = 64 * 1024 * 1024
_CHUNK = 1 << 16


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


class Reader:
    """Reads members of one archive, counting every byte unpacked against the cap."""

    def __init__(self, archive: zipfile.ZipFile, source: str):
        check_directory(archive, source)
        self.archive, self.source, self.unpacked = archive, source, 0

    def read(self, info: zipfile.ZipInfo) -> bytes:
        chunks = []
        with self.archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                self.unpacked += len(chunk)
                if self.unpacked > MAX_UNPACKED:
                    raise ParseError(self.source, [Issue(
                        info.filename, f"unpacks to more than its directory says: reading "
                                       f"stopped past {MAX_UNPACKED:,} bytes, the cap")])
                chunks.append(chunk)
        return b"".join(chunks)
