"""A zip bomb uploaded to a running `uscf serve` is refused with a 4xx, and the server's
memory stays far below what the zip unpacks to.

The server is a real subprocess on 127.0.0.1 (the memory measured is its own, not the
test's): its peak resident size (VmHWM of /proc/PID/status, which the kernel keeps) is
read before and after the uploads. The bomb is made here: a US Chess rating report zip
whose THEXPORT.DBF is 300 MB of zeros, about 300 KB deflated, well under the 2 MiB
upload limit; and a zip of 5,000 empty members.
"""

from __future__ import annotations

import io
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

UNPACKED = 300 * 1024 * 1024
MB = 1024 * 1024

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="the server's memory is read from /proc (Linux)")


def bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("THEXPORT.DBF", "w", force_zip64=True) as member:
            block = bytes(MB)
            for _ in range(UNPACKED // MB):
                member.write(block)
        archive.writestr("TSEXPORT.DBF", b"")
        archive.writestr("TDEXPORT.DBF", b"")
    return buffer.getvalue()


def many_members() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for n in range(5_000):
            archive.writestr(f"f{n}/THEXPORT.DBF", b"")
    return buffer.getvalue()


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in bytes."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out


def post_file(url: str, name: str, data: bytes) -> tuple[int, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{name}\"\r\nContent-Type: application/zip\r\n\r\n").encode()
    body += data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """`uscf serve` (the estimator alone) on 127.0.0.1 and a free port."""
    from tests.web.test_web_browser import serving

    with serving() as (base, process):
        yield base, process.pid


def test_a_zip_bomb_is_refused_and_the_server_stays_small(server: tuple[str, int]) -> None:
    base, pid = server
    data = bomb()
    assert len(data) < 2 * MB  # under the upload limit: the reader's cap must refuse it
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert sum(i.file_size for i in archive.infolist()) == UNPACKED
    # a first upload loads the readers, so that what follows measures the bomb alone
    status, _ = post_file(base + "/estimate/section", "empty.zip", many_members()[:100])
    assert 400 <= status < 500
    before = memory(pid)
    started = time.monotonic()
    status, page = post_file(base + "/estimate/section", "report.zip", data)
    seconds = time.monotonic() - started
    after = memory(pid)
    growth = after["VmHWM"] - before["VmRSS"]
    print(f"\nserver RSS before {before['VmRSS'] / MB:.0f} MB, peak after "
          f"{after['VmHWM'] / MB:.0f} MB (+{growth / MB:.0f} MB) for a zip of "
          f"{len(data) / 1024:.0f} KB unpacking to {UNPACKED / MB:.0f} MB; {seconds:.2f} s")
    assert 400 <= status < 500, page[:500]
    assert "report.zip" in page and "cap" in page
    assert growth < 150 * MB


def test_a_zip_of_5000_members_is_refused(server: tuple[str, int]) -> None:
    base, pid = server
    status, page = post_file(base + "/estimate/section", "many.zip", many_members())
    assert 400 <= status < 500, page[:500]
    assert "5,000 members" in page
