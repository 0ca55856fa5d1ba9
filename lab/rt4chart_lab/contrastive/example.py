"""The one record every contrastive source produces: a (claim, context) pair with its gold label.

A single flat type keeps the real-data loaders (extra.py), the synthetic edits (edits.py) and the
trainer decoupled: the trainer only needs ``context``/``claim``/``label`` and ``group`` (so that a
document and all its edited twins fall on the same side of a train/validation split).
"""

from __future__ import annotations

from typing import Literal

import pydantic

LabelName = Literal["ENT", "CON", "NIC", "NOT_ENT"]
#: Every label an Example may carry. NOT_ENT: hallucinated, but unknown whether CON or NIC.
LABELS: tuple[str, ...] = ("ENT", "CON", "NIC", "NOT_ENT")


class Example(pydantic.BaseModel):
    """One claim judged against one context."""

    model_config = pydantic.ConfigDict(frozen=True)

    context: str  # the raw context text of the row (what the judge sees)
    question: str | None
    claim: str  # one answer sentence, or an edited sentence
    label: LabelName
    source: str  # "xsumfaith", "summedits", ..., or "edit/negation", "edit/quantifier", ...
    group: str  # the source document's id: train/validation splits are made by group
    chars: int = 0  # for real answer sentences with span labels: the sentence's length
    gold_chars: int = 0  # ... and how many of its characters gold spans mark (0 otherwise)
