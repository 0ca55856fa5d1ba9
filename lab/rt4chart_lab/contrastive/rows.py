"""Reading the benchmark rows and turning span labels into sentence labels.

Shared by extra.py (labelled examples) and sources.py (faithful sentences to edit), so that both
agree on what "a faithful sentence" is. RAGTruth rows are read through :func:`ragtruth_train_rows`
only, which drops every row whose ``split`` is not ``"train"`` before anything else sees it: the
test split is for reporting, and no code path here can hand a test row on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rt4chart_plugins.pipeline.segment import segment_answer

CON_TYPES = frozenset({"Evident Conflict", "Subtle Conflict"})
NIC_TYPES = frozenset({"Evident Baseless Info", "Subtle Baseless Info"})
MIN_CLAIM_WORDS = 3


@dataclass(frozen=True)
class LabelledSentence:
    """One answer sentence with the label its row's annotation gives it."""

    text: str
    label: str  # ENT / CON / NIC / NOT_ENT
    chars: int = 0
    gold_chars: int = 0


def read_jsonl(path: Path) -> Iterator[dict]:
    """The JSON objects of a .jsonl file, blank lines skipped."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def ragtruth_train_rows(path: Path) -> Iterator[dict]:
    """RAGTruth rows of the train split only; test rows are dropped here, by construction."""
    for row in read_jsonl(path):
        if row.get("split") == "train":
            yield row


def group_of(set_name: str, context: str) -> str:
    """A stable id of the source document, so every answer about one context shares a group."""
    return f"{set_name}:{hashlib.sha1(context.encode('utf-8')).hexdigest()[:12]}"


def is_claim(text: str) -> bool:
    """Worth judging: at least 3 words and not a question (a question asserts nothing)."""
    return len(text.split()) >= MIN_CLAIM_WORDS and not text.rstrip().endswith("?")


def label_of(label_type: str) -> str | None:
    """RAGTruth label type -> CON / NIC (None for an unknown type)."""
    if label_type in CON_TYPES:
        return "CON"
    if label_type in NIC_TYPES:
        return "NIC"
    return None


def span_sentences(row: dict, *, nic_as: str = "NIC") -> list[LabelledSentence] | None:
    """Sentence labels of a span-annotated row; None when the row cannot be labelled per sentence.

    A sentence overlapping a CON span is CON (CON wins), else one overlapping a NIC span is NIC
    (``nic_as`` lets a set whose baseless type is only a guess say NOT_ENT instead), else ENT, but
    only when the row is faithful or has spans elsewhere: a hallucinated row with no spans at all
    says only "something here is wrong", so its whole answer is one NOT_ENT claim. A row annotated
    at answer granularity (one span over the whole answer, as in DialFact) is usable only when the
    answer is a single claim: with several sentences we cannot tell which one is wrong.
    """
    answer = row.get("answer") or ""
    labels = row.get("labels") or []
    if not answer.strip():
        return None
    if row.get("hallucinated") and not labels:
        text = answer.strip()
        return [LabelledSentence(text, "NOT_ENT")] if is_claim(text) else []
    sentences = [s for s in segment_answer(answer) if len(s.text.split()) >= MIN_CLAIM_WORDS]
    if labels and (row.get("meta") or {}).get("granularity") == "answer" and len(sentences) > 1:
        return None
    out: list[LabelledSentence] = []
    for sent in sentences:
        text = sent.text.strip()
        if not is_claim(text):
            continue
        kinds: set[str] = set()
        marked: set[int] = set()
        for span in labels:
            lo, hi = max(sent.start, span["start"]), min(sent.end, span["end"])
            if lo < hi:
                kind = label_of(span.get("label_type", ""))
                if kind:
                    kinds.add(kind)
                marked.update(range(lo, hi))
        if "CON" in kinds:
            label = "CON"
        elif "NIC" in kinds:
            label = nic_as
        else:
            label = "ENT"
        out.append(LabelledSentence(text, label, chars=len(sent.text), gold_chars=len(marked)))
    return out


def answer_level_sentences(row: dict, *, faithful: bool) -> list[LabelledSentence] | None:
    """Sentence labels of a row annotated only at answer level; None when it must be skipped.

    A faithful answer makes every sentence ENT. A hallucinated answer is usable only when it holds
    exactly one sentence of three words or more (then NOT_ENT: the set does not say CON or NIC);
    with several, or when that one sentence is a question, we cannot tell which part is wrong.
    """
    answer = (row.get("answer") or "").strip()
    if not answer:
        return None
    sentences = [s.text.strip() for s in segment_answer(answer)]
    contentful = [s for s in sentences if len(s.split()) >= MIN_CLAIM_WORDS]
    if faithful:
        return [LabelledSentence(s, "ENT") for s in contentful if is_claim(s)]
    if len(contentful) != 1 or not is_claim(contentful[0]):
        return None
    return [LabelledSentence(contentful[0], "NOT_ENT")]
