"""CSV cells that a spreadsheet would run as formulas, made inert (CSV injection).

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read
by Excel, LibreOffice and Google Sheets as a formula (``=HYPERLINK("http://x","y")``
in a player's name becomes a link; ``@SUM(...)``, ``+1+2`` are computed). OWASP's rule:
prefix such a cell with a single quote, which the spreadsheet shows as text and does
not run. Used by every CSV the project writes for people (``uscf rate --format csv``,
``uscf db list --format csv``, the web app's downloads); not by the CSV crosstable
format of `csv_crosstable`, a data interchange format read back by this project.

A number stays a number: a numeric value, or a text that is one plain number
(``-12``, ``+3``, ``-0.5``, ``1e3`` is not one), is left as it is, so a rating change
of -12 sums in the spreadsheet. A plain number cannot run anything.

>>> [safe_cell(c) for c in ['=HYPERLINK("http://x","y")', "-1+2", "@SUM(A1)", "\\tx", -12, "-12", "Ana"]]
['\\'=HYPERLINK("http://x","y")', "'-1+2", "'@SUM(A1)", "'\\tx", -12, '-12', 'Ana']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
#: One plain decimal number, as a spreadsheet reads a number (no exponent, no spaces).
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet will not run: a text that begins like a
    formula gets a leading single quote; numbers and plain numeric texts are kept."""
    if not isinstance(value, str) or not value.startswith(TRIGGERS):
        return value
    if PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def safe_row(values: Iterable[Any]) -> list[Any]:
    return [safe_cell(v) for v in values]
