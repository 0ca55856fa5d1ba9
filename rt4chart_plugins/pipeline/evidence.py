"""The retromorphic oracle, which the judging stages apply: every element of the trace must be traceable to C.

Evidence ids must exist and lie in the context the judge was shown; NIC claims carry none; a quote
is matched against each context sentence on its own (never against joined passages, where it could
straddle two sources). Every fix is recorded as a :class:`Correction`, never applied silently.
"""

from __future__ import annotations

import re

from rt4chart_plugins.types import Correction, Judgement, Label, Sentence, Span

_NORM = re.compile(r"[\W_]+", re.UNICODE)


def _norm(text: str) -> str:
    return _NORM.sub(" ", text.lower()).strip()


def check_evidence(
    judgement: Judgement, shown: set[int], context: list[Sentence]
) -> tuple[list[int], list[Correction]]:
    """The judgement's evidence ids after the oracle (valid, shown to the judge, sorted, unique),
    and the corrections that say what it fixed."""
    cid = judgement.claim_id
    ids: list[int] = []
    corrections: list[Correction] = []
    for i in judgement.evidence:
        if not 0 <= i < len(context):
            corrections.append(
                Correction(claim_id=cid, kind="evidence_out_of_range", detail=f"sentence {i} does not exist")
            )
        elif i not in shown:
            corrections.append(
                Correction(
                    claim_id=cid, kind="evidence_outside_window", detail=f"sentence {i} was not shown to the judge"
                )
            )
        else:
            ids.append(i)
    if judgement.quote:
        hit = match_quote(judgement.quote, [context[i] for i in sorted(shown) if 0 <= i < len(context)])
        if hit is None:
            corrections.append(Correction(claim_id=cid, kind="quote_unmatched", detail=judgement.quote[:120]))
        elif hit not in ids:
            ids.append(hit)
            corrections.append(
                Correction(claim_id=cid, kind="quote_matched", detail=f"quote located in sentence {hit}")
            )
    if judgement.label == Label.NIC:
        if ids:
            corrections.append(Correction(claim_id=cid, kind="evidence_on_nic_removed", detail=f"dropped {ids}"))
        return [], corrections
    if not ids:
        corrections.append(
            Correction(
                claim_id=cid, kind="evidence_missing", detail=f"{judgement.label.value} verdict cited no valid sentence"
            )
        )
    return sorted(set(ids)), corrections


def match_quote(quote: str, sentences: list[Sentence]) -> int | None:
    """The id of the sentence that contains the quote (normalized), or that it contains."""
    q = _norm(quote)
    if not q:
        return None
    for s in sentences:
        t = _norm(s.text)
        if q in t or (len(t) > 20 and t in q):
            return s.id
    return None


def anchor_phrase(phrase: str | None, sentence: Span | None) -> Span | None:
    """Locate the judge's named phrase inside the claim's answer sentence (case-insensitive)."""
    if not phrase or sentence is None:
        return None
    phrase = phrase.strip().strip("\"'“”").strip()
    if len(phrase) < 2:
        return None
    at = sentence.text.lower().find(phrase.lower())
    if at < 0:
        pattern = r"\W+".join(re.escape(w) for w in _norm(phrase).split())
        m = re.search(pattern, sentence.text, re.IGNORECASE) if pattern else None
        if not m:
            return None
        at, end = m.start(), m.end()
    else:
        end = at + len(phrase)
    if end - at >= len(sentence.text):
        return None  # the whole sentence: no finer than the sentence span
    return Span(start=sentence.start + at, end=sentence.start + end, text=sentence.text[at:end])
