"""Reading an event sent to the app: an uploaded file in any format, or event JSON text.

An upload is written to a private temporary folder and read with
`uscf_ratings.formats.detect.read_any`, which chooses the format by content and
extension, exactly as ``uscf db rate FILE`` does. Only the extension of the name the
browser sent is kept: the name itself is the client's and never becomes a path here.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO

from ..core.model import Event
from ..formats.detect import read_any
from ..formats.errors import ParseError
from ..formats.event_json import event_from_dict
from .limits import MAX_DEPTH, json_depth
from .problems import Issue, Problem, from_parse_error

log = logging.getLogger(__name__)
SAFE_SUFFIX = re.compile(r"^\.[A-Za-z0-9]{1,8}$")
COPY_BLOCK = 1 << 16


def event_from_upload(data: bytes | BinaryIO, filename: str) -> Event:
    """The event in an uploaded file (its bytes, or the spooled file the form parser
    kept, copied to disk in blocks rather than read whole); a file that cannot be read
    is a 4xx Problem. The upload itself is bounded by ``--max-upload`` (`limits`); what
    an archive unpacks to is bounded by the readers (`uscf_ratings.formats.archive`)."""
    suffix = Path(filename).suffix
    suffix = suffix.lower() if SAFE_SUFFIX.match(suffix) else ""
    shown = Path(filename).name or "upload"
    with tempfile.TemporaryDirectory(prefix="uscf-upload-") as folder:
        path = Path(folder) / f"upload{suffix}"
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            with path.open("wb") as out:
                shutil.copyfileobj(data, out, COPY_BLOCK)
        if path.stat().st_size == 0:
            raise Problem(400, "the uploaded file is empty",
                          [Issue("the uploaded file is empty", filename)])
        try:
            return read_any(path)
        except ParseError as error:
            # Name the file as the user knows it, not by its temporary path.
            raise from_parse_error(ParseError(shown, list(error.issues))) from None
        except Exception as error:
            # A reader that fails on a damaged file other than with ParseError is a reader
            # bug, but to the person uploading it is a file that cannot be read: answer
            # 422 rather than 500, and log it for the developers.
            log.exception("reading upload %r failed", shown)
            message = f"{shown}: the file could not be read ({type(error).__name__}: {error})"
            raise Problem(422, message) from None


def event_from_json_text(text: str | bytes, source: str = "event JSON") -> Event:
    """Event JSON (a pasted text or an API body): 400 if it is not JSON, 422 if the JSON
    is not a valid event."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Problem(400, f"{source}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    if not text.strip():
        raise Problem(400, f"{source}: empty: expected an event JSON document")
    too_deep = (f"{source}: JSON nested more than {MAX_DEPTH} levels deep; an event JSON "
                "document nests at most six")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        message = f"not valid JSON: {error.msg}"
        where = f"line {error.lineno} column {error.colno}"
        raise Problem(400, f"{source}: {where}: {message}", [Issue(message, where)]) from None
    except RecursionError:
        raise Problem(400, too_deep) from None
    except ValueError as error:  # an integer of more than 4,300 digits, say
        raise Problem(400, f"{source}: not valid JSON: {error}") from None
    if json_depth(data) > MAX_DEPTH:
        raise Problem(400, too_deep)
    try:
        return event_from_dict(data, source)
    except ParseError as error:
        raise from_parse_error(error) from None
