"""The evidence stage: the retromorphic oracle, applied once, after the judges have spoken:
every element of the trace must be traceable to C.

Evidence ids must exist and lie in the context the judge was shown; NIC claims carry none; a quote
is matched against each context sentence on its own (never against joined passages, where it could
straddle two sources); a claim found supported with no sentence to show for it is reported
baseless. Every fix is recorded as a :class:`Correction`, never applied silently. This is the one
place a claim's evidence is decided: the judging stages hand on what the judge said, and only the
rules (:mod:`rt4chart_plugins.pipeline.rules`) may replace it, with their own finding.
"""

from __future__ import annotations

import re

from rt4chart_plugins.pipeline.state import Part, RunState, Settled, Spoken
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


def settled(spoken: Spoken, context: list[Sentence]) -> tuple[Judgement, list[Correction]]:
    """A judgement with its evidence checked by the oracle (:func:`check_evidence`), and the
    corrections that say what it fixed."""
    ids, corrections = check_evidence(spoken.judgement, set(spoken.shown), context)
    return spoken.judgement.model_copy(update={"evidence": ids}), corrections


def final(judgement: Judgement, corrections: list[Correction]) -> tuple[Judgement, list[Correction]]:
    """A claim's deciding judgement as the report shows it. "Supported" is a claim about C: with
    no sentence of C to show for it (every id the judge cited was out of range, or a cut reply
    kept the label and lost the ids), nothing verifies it, so it is baseless as far as the report
    can show: reported NIC, the judge's word kept in its reason, and the oracle's
    ``evidence_missing`` saying so."""
    if judgement.label != Label.ENT or judgement.evidence:
        return judgement, corrections
    said = judgement.reason or "Supported by the context."
    missing = Correction(
        claim_id=judgement.claim_id,
        kind="evidence_missing",
        detail="ENT with no existing context sentence cited: reported NIC",
    )
    baseless = judgement.model_copy(
        update={
            "label": Label.NIC,
            "phrase": None,
            "reason": f"the judge found it supported but cited no sentence of the context (judge: {said})",
        }
    )
    return baseless, [c for c in corrections if c.kind != "evidence_missing"] + [missing]


async def settle_evidence(state: RunState) -> Part:
    """The fifth stage: every judgement's evidence settled once, after the judges have spoken:
    the local verdicts' (a NIC one carries none), then the global pass's, which decide the claims
    they judge. A claim's deciding judgement is then as the report shows it (:func:`final`)."""
    context = state.context_sentences
    part = Settled(local=dict(state.local))
    rejudged = {spoken.judgement.claim_id for spoken in state.said_globally}
    for cid, spoken in state.said_locally.items():
        fixed: list[Correction] = []
        if spoken.judgement.label == Label.NIC:
            judgement = spoken.judgement.model_copy(update={"evidence": []})
        else:
            judgement, fixed = settled(spoken, context)
        if cid in part.local:
            part.local[cid] = part.local[cid].model_copy(update={"evidence": judgement.evidence})
        if cid not in rejudged:  # the local verdict decides the claim
            judgement, fixed = final(judgement, fixed)
        part.corrections.extend(fixed)
        part.final[cid] = judgement
    for spoken in state.said_globally:
        judgement, fixed = final(*settled(spoken, context))
        part.corrections.extend(fixed)
        part.final[judgement.claim_id] = judgement
    return part


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
