"""Where the edit items come from: sentences known to be supported by their context, train text only.

Two kinds of supported sentence: faithful answer sentences (no gold span touches them) of
RAGTruth *train* rows, SummEdits originals and the faithful answers of XSumFaith, BEGIN and
FaithDial; and sentences copied verbatim from each context. The copies matter: a negated copy of a
context sentence overlaps the context almost entirely and is still CON, so the verifier learns
that word overlap does not decide. RAGTruth is read only through ``ragtruth_train_rows``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from rt4chart_lab.data.datasets import set_path
from rt4chart_plugins.pipeline.segment import segment_context

from .edits import Item
from .extra import ALL_SETS, row_sentences
from .rows import group_of, ragtruth_train_rows, read_jsonl, span_sentences
from .text import name_spans, opens_with_subject, tokens

#: Sets whose faithful answer sentences become edit items (SummEdits: its original summaries).
FAITHFUL_SETS = ("summedits", "xsumfaith", "begin", "faithdial_audit")
COPIES_PER_CONTEXT = 2
_LABEL_PREFIX = re.compile(r"^\s*\w+(?: \d+)?\s*:")  # "passage 1:", "Note:", "Q:"
_JUNK = re.compile(r"https?://|www\.|\(meta data\)|[|#*_=<>{}\[\]]|\.\.\.")


def ragtruth_path(data_dir: Path) -> Path:
    return Path(data_dir) / "ragtruth" / "ragtruth.jsonl"


def copyable(unit: str, names: Iterable[str] = ()) -> bool:
    """A context sentence fit to stand alone as a claim: plain, declarative, 6-30 words, opening
    with a function word or a name (``names``: the context's), not an imperative or a heading."""
    text = unit.strip()
    n = len(text.split())
    if not 6 <= n <= 30 or "\n" in text or "?" in text or not text.endswith((".", "!")):
        return False
    if not text[:1].isupper() or _LABEL_PREFIX.match(text) or _JUNK.search(text):
        return False
    letters = sum(c.isalpha() for c in text)
    return letters >= 0.6 * len(text) and opens_with_subject(tokens(text), names)


def context_copies(context: str, rng: random.Random, k: int = COPIES_PER_CONTEXT) -> list[str]:
    """Up to ``k`` sentences copied verbatim from ``context`` (prose units only, not JSON fields)."""
    prose = [s.text.strip() for s in segment_context(context) if s.field is None]
    names = {span.text for unit in prose for span in name_spans(unit) if not span.initial}
    units = list(dict.fromkeys(u for u in prose if copyable(u, names)))
    return rng.sample(units, min(k, len(units)))


def edit_items(data_dir: Path, *, seed: int = 0, limit: int | None = None) -> list[Item]:
    """(group, context, question, supported sentence) items, deduplicated, in a seeded order.

    With ``limit``, only the first ``limit`` items of that order are built (a fast sample).
    """
    jobs = list(_jobs(Path(data_dir), seed))
    random.Random(seed).shuffle(jobs)
    out: list[Item] = []
    seen: set[tuple[str, str]] = set()
    for job in jobs:
        for item in job():
            key = (item[0], item[3])
            if key in seen:
                continue
            seen.add(key)
            out.append(item)
            if limit is not None and len(out) >= limit:
                return out
    return out


Job = Callable[[], list[Item]]


def _jobs(data_dir: Path, seed: int) -> Iterator[Job]:
    """One lazy job per answer row and per distinct context, so a limited run builds only a few."""
    contexts: dict[str, tuple[str, str | None]] = {}
    rt_path = ragtruth_path(data_dir)
    if rt_path.exists():
        for row in ragtruth_train_rows(rt_path):
            context = (row.get("context") or "").strip()
            if not context:
                continue
            group = f"ragtruth:{row['source_id']}"
            question = (row.get("question") or "").strip() or None
            contexts.setdefault(group, (context, question))
            yield lambda row=row, group=group, context=context, question=question: [
                (group, context, question, s.text)
                for s in (span_sentences(row) or []) if s.label == "ENT"
            ]
    for name in ALL_SETS:
        path = set_path(data_dir, name)
        if not path.exists():
            continue
        for row in read_jsonl(path):
            context = (row.get("context") or "").strip()
            if not context:
                continue
            group = group_of(name, context)
            question = (row.get("question") or "").strip() or None
            contexts.setdefault(group, (context, question))
            if name in FAITHFUL_SETS:
                yield lambda row=row, name=name, group=group, context=context, question=question: [
                    (group, context, question, s.text)
                    for s in row_sentences(name, row) if s.label == "ENT"
                ]
    for group, (context, question) in contexts.items():
        yield lambda group=group, context=context, question=question: [
            (group, context, question, s)
            for s in context_copies(context, random.Random(f"{seed}|copies|{group}"))
        ]
