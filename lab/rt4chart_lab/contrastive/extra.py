"""The six extra human-annotated sets (data/extra/) as sentence-level examples.

Span-labelled sets give each answer sentence its own label; answer-level sets (BEGIN, FaithDial)
are used only where the answer-level label pins down the sentence. SummEdits also yields its
faithful original summaries, which sit in the same group as their edited twins: the pairs that
teach the verifier that one changed word matters. Rules where the sets' own annotations are weaker
than they look (all kept on the side of precision):

- WiCE's non-supported-token spans are typed "Baseless" by the converter without knowing
  (``meta.label_type_known`` is false), so they become NOT_ENT, not NIC.
- DialFact labels the whole response: a multi-sentence refuted response is skipped.
- A SummEdits sentence with no span in an edited summary is ENT only if it occurs verbatim in the
  original summary; otherwise the edit was a deletion (the diff leaves no span) and it is NOT_ENT.
- BEGIN's "Generic" and FaithDial's generic/uncooperative-only answers are chit-chat, not claims:
  calling them ENT would teach that unrelated text is entailed, so they are skipped.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from rt4chart_lab.data.datasets import set_path
from rt4chart_plugins.pipeline.segment import segment_answer

from .example import Example
from .rows import LabelledSentence, answer_level_sentences, group_of, is_claim, read_jsonl, span_sentences

SPAN_SETS = ("xsumfaith", "summedits", "wice_nst_train", "dialfact_testsmall")
ANSWER_SETS = ("begin", "faithdial_audit")
ALL_SETS = SPAN_SETS + ANSWER_SETS
ALIASES = {"dialfact": "dialfact_testsmall", "wice": "wice_nst_train", "faithdial": "faithdial_audit"}



def extra_examples(
    data_dir: Path,
    *,
    sets: Sequence[str] | None = None,
    per_set: int | None = None,
    seed: int = 0,
) -> list[Example]:
    """Sentence-level examples of the extra sets; ``per_set`` caps each set, keeping whole groups.

    With ``sets=None`` every set whose file exists is read; a set asked for by name must exist.
    """
    names = [ALIASES.get(s, s) for s in sets] if sets is not None else None
    out: list[Example] = []
    for name in names or ALL_SETS:
        if name not in ALL_SETS:
            raise ValueError(f"unknown extra set {name!r}; known: {', '.join(ALL_SETS)}")
        path = set_path(data_dir, name)
        if not path.exists():
            if names is not None:
                raise FileNotFoundError(path)
            continue
        examples = _dedupe(set_examples(name, read_jsonl(path)))
        out.extend(cap_by_group(examples, per_set, seed=seed) if per_set is not None else examples)
    return out


def set_examples(name: str, rows: Iterable[dict]) -> list[Example]:
    """The examples of one set's rows (no dedupe, no cap)."""
    out: list[Example] = []
    for row in rows:
        context = (row.get("context") or "").strip()
        if not context:
            continue
        question = (row.get("question") or "").strip() or None
        group = group_of(name, context)
        for sent in row_sentences(name, row):
            if sent.text.strip() and is_claim(sent.text):
                out.append(
                    Example(
                        context=context, question=question, claim=sent.text.strip(), label=sent.label,
                        source=name, group=group, chars=sent.chars, gold_chars=sent.gold_chars,
                    )
                )
    return out


def row_sentences(name: str, row: dict) -> list[LabelledSentence]:
    """The labelled sentences one row contributes (possibly none)."""
    meta = row.get("meta") or {}
    if name in ANSWER_SETS:
        faithful = not row.get("hallucinated")
        if faithful and not is_faithful_claim_row(name, meta):
            return []
        return answer_level_sentences(row, faithful=faithful) or []
    nic_as = "NOT_ENT" if meta.get("label_type_known") is False else "NIC"
    sentences = span_sentences(row, nic_as=nic_as) or []
    if name == "summedits":
        sentences = _summedits_sentences(row, sentences)
    return sentences


def is_faithful_claim_row(name: str, meta: dict) -> bool:
    """A faithful answer-level row that makes claims (not generic chit-chat)."""
    label = str(meta.get("begin_label", "")).lower()
    if name == "begin":
        return label == "fully attributable"
    return "entailment" in label  # FaithDial: entailment, "entailment,uncooperative", ...


def _summedits_sentences(row: dict, sentences: list[LabelledSentence]) -> list[LabelledSentence]:
    """Edited SummEdits rows: unspanned sentences not in the original are NOT_ENT; add the original."""
    original = ((row.get("meta") or {}).get("original_summary") or "").strip()
    originals = [s.text.strip() for s in segment_answer(original)] if original else []
    out = list(sentences)
    if row.get("hallucinated") and originals:
        kept = set(originals)
        out = [
            LabelledSentence(s.text, "NOT_ENT", s.chars, s.gold_chars)
            if s.label == "ENT" and s.text.strip() not in kept
            else s
            for s in out
        ]
    out.extend(LabelledSentence(s, "ENT", chars=len(s)) for s in originals if is_claim(s))
    return out


def _dedupe(examples: list[Example]) -> list[Example]:
    """One example per (source, group, claim); a claim given two different labels is dropped."""
    labels: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for ex in examples:
        labels[(ex.source, ex.group, ex.claim)].add(ex.label)
    seen: set[tuple[str, str, str]] = set()
    out: list[Example] = []
    for ex in examples:
        key = (ex.source, ex.group, ex.claim)
        if key in seen or len(labels[key]) > 1:
            continue
        seen.add(key)
        out.append(ex)
    return out


def cap_by_group(examples: list[Example], cap: int, *, seed: int = 0) -> list[Example]:
    """At most ``cap`` examples, drawn as whole groups in a seeded order.

    Groups are taken whole while they fit; a group too big for the room left is passed over. When
    groups are so large that room remains, the first passed-over group fills it (so a cap below
    the size of every group still yields examples); at most one group is ever cut.
    """
    if cap <= 0:
        return []
    by_group: dict[str, list[Example]] = defaultdict(list)
    for ex in examples:
        by_group[ex.group].append(ex)
    order = sorted(by_group)
    random.Random(seed).shuffle(order)
    out: list[Example] = []
    passed: list[str] = []
    for group in order:
        members = by_group[group]
        if len(out) + len(members) <= cap:
            out.extend(members)
        else:
            passed.append(group)
        if len(out) == cap:
            return out
    if passed:
        out.extend(by_group[passed[0]][: cap - len(out)])
    return out


def counts(examples: Iterable[Example]) -> dict[str, int]:
    """How many examples per "source/label", sorted by key."""
    tally = Counter(f"{ex.source}/{ex.label}" for ex in examples)
    return dict(sorted(tally.items()))
