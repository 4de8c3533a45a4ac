"""Ids in links: one way to put a member's or an event's id into a path.

The office accepts ids with any printable character: ``--assign-ids`` gives
``EVENT/SECTION/PAIR``, and an event file may name its event ``Spring Open #3`` or
``50% off?``. A link percent-encodes every character of the id that is not unreserved
in a URL (RFC 3986, section 2.3), the "/" included, so that the id is one segment; the
server decodes the path before routing, and the routes that take an id match the rest of
the path (``{member_id:path}``), "/" and all. Every link the pages make goes through
`segment` (the templates' ``url_for``, the API's ``Location``).

>>> segment("202608010001/2/14"), segment("Spring Open #3?"), segment("Łódź 50%")
('202608010001%2F2%2F14', 'Spring%20Open%20%233%3F', '%C5%81%C3%B3d%C5%BA%2050%25')
"""

from __future__ import annotations

from urllib.parse import quote


def segment(value: str) -> str:
    """``value`` as one segment of a URL's path: every reserved character encoded, and
    an id of dots alone too, which a client would otherwise take for "this folder" or
    "the folder above" (RFC 3986, section 5.2.4). Browsers take even the encoded dots
    so (the WHATWG URL standard): such an id opens through the API alone.

    >>> segment(".."), segment("a.b")
    ('%2E%2E', 'a.b')
    """
    if value and not value.strip("."):
        return "%2E" * len(value)
    return quote(value, safe="")
