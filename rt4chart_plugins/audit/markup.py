"""Text as the audit pages' markup: every piece of text that came from a context, a question,
an answer, a judge or an input row is escaped here, once; and the id a row's element and
permalink carry."""

from __future__ import annotations

import re
from html import escape
from typing import Any


def e(value: Any) -> str:
    """Text as markup: ``<``, ``>``, ``&`` and both quotes escaped, so it is safe in an attribute too."""
    return escape("" if value is None else str(value), quote=True)


def anchor(row_id: str) -> str:
    """The element id of a row, and its permalink ``#row-ID`` (whitespace, invalid in ids, as ``_``)."""
    return "row-" + re.sub(r"\s", "_", row_id)
