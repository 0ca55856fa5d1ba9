"""The minimal-pairs dev set (``pairs.jsonl``, ``PAIRS.md``): hand-written (context, answer, label)
items that a judge must get right by meaning, not word overlap.

Each hallucinated answer has a faithful twin on the same context (same ``pair``), so a judge that
passes whatever the context's words cover scores about the faithful share and no better. Written
before any model was trained against it, from invented text; never train on it (the training
sources refuse nothing here by construction: they read RAGTruth train rows and ``extra/``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PATH = Path(__file__).resolve().parent / "pairs.jsonl"
LABELS = ("ENT", "CON", "NIC")


@dataclass(frozen=True)
class PairRow:
    id: str
    category: str
    context: str
    question: str | None
    answer: str
    label: str  # gold: ENT, CON or NIC
    pair: str

    @property
    def hallucinated(self) -> bool:
        return self.label != "ENT"

    def verify_input(self, *, with_question: bool = True) -> dict:
        return {"id": self.id, "context": self.context, "answer": self.answer,
                "question": self.question if with_question else None}


def load_pairs(path: Path | None = None, *, limit: int | None = None) -> list[PairRow]:
    rows = []
    with (path or PATH).open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                if d["label"] not in LABELS:
                    raise ValueError(f"{d['id']}: unknown label {d['label']!r}")
                rows.append(PairRow(d["id"], d["category"], d["context"], d.get("question"), d["answer"],
                                    d["label"], d["pair"]))
    return rows[:limit]


def with_question_dropped(rows: list[PairRow]) -> list[PairRow]:
    """The rows that carry a question, once more without it (ids suffixed ``-noq``): the same
    claim against the same premise must get the same label either way."""
    return [PairRow(f"{r.id}-noq", r.category, r.context, None, r.answer, r.label, r.pair) for r in rows if r.question]
