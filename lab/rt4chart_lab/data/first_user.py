"""The first-user set (``first_user.jsonl``, ``FIRST_USER.md``): hand-written answers over short
everyday contexts, grouped by what a new user checks first: invented things, properties, events,
places and times; pure abstentions; an abstention followed by an assertion; paraphrases; plain
restatements; plain contradictions.

Written before any judge was tuned for it and never run through one while it was written; never
train on it. The training sources read RAGTruth train rows, ``extra/``, ``nli/`` and the reader
labels, never this folder's hand-written sets (``lab/tests/test_first_user.py`` checks it).

``TUNE_PATH`` (``everyday_tune.jsonl``, ``EVERYDAY_TUNE.md``): an independent set of the same schema over
other everyday contexts, the one judges may be tuned and fitted on; load it with ``load_first_user(TUNE_PATH)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PATH = Path(__file__).resolve().parent / "first_user.jsonl"
#: the everyday tuning set: same schema, groups and labels, other contexts; tune and fit on this one
TUNE_PATH = Path(__file__).resolve().parent / "everyday_tune.jsonl"
#: the answer-level gold; NONE: the answer carries no claim (a pure abstention)
LABELS = ("ENT", "CON", "NIC", "NONE")
#: the groups whose answers add a fact the context lacks (all NIC)
INVENTED = ("invented_thing", "invented_property", "invented_event", "invented_place", "invented_time")
#: hallucinated groups: right when flagged
HALLUCINATED = (*INVENTED, "abstention_then_assertion", "contradiction")
#: faithful groups: right when not flagged
FAITHFUL = ("abstention", "paraphrase", "faithful")
GROUPS = (*HALLUCINATED, *FAITHFUL)
FIELDS = ("id", "context_id", "context", "question", "answer", "group", "label", "hallucinated")


@dataclass(frozen=True)
class FirstUserRow:
    id: str
    context_id: str
    context: str
    question: str | None
    answer: str
    group: str
    label: str  # gold: ENT, CON, NIC or NONE
    hallucinated: bool

    def verify_input(self) -> dict:
        return {"id": self.id, "context": self.context, "answer": self.answer, "question": self.question}


def check(d: dict) -> FirstUserRow:
    """One line as a row, or ValueError naming what is wrong with it."""
    where = d.get("id", "?")
    if missing := [k for k in FIELDS if k not in d]:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    if d["label"] not in LABELS:
        raise ValueError(f"{where}: unknown label {d['label']!r}")
    if d["group"] not in GROUPS:
        raise ValueError(f"{where}: unknown group {d['group']!r}")
    if d["hallucinated"] != (d["label"] in ("CON", "NIC")) or d["hallucinated"] != (d["group"] in HALLUCINATED):
        raise ValueError(f"{where}: group {d['group']}, label {d['label']} and "
                         f"hallucinated={d['hallucinated']} disagree")
    return FirstUserRow(*(d[k] for k in FIELDS))


def load_first_user(path: Path | None = None, *, limit: int | None = None) -> list[FirstUserRow]:
    with (path or PATH).open(encoding="utf-8") as f:
        rows = [check(json.loads(line)) for line in f if line.strip()]
    return rows[:limit]
