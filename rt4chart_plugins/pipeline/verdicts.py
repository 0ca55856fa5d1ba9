"""A claim's verdict as the report shows it, from its deciding judgement, evidence settled.

The judge answers in context-sentence ids and a phrase; the report needs character offsets: the
claim's sentence as its answer span, the phrase anchored inside it (or a correction saying it
could not be), the evidence sentences with their passage offsets, and a reason in words when the
judge gave none. The evidence itself is settled before, in one place
(:func:`~rt4chart_plugins.pipeline.evidence.settle_evidence`).
"""

from __future__ import annotations

import re

from rt4chart_plugins.claims import claim_span
from rt4chart_plugins.pipeline.evidence import anchor_phrase
from rt4chart_plugins.pipeline.state import RunState, Verdicts
from rt4chart_plugins.rules.finding import quoted
from rt4chart_plugins.rules.novelty import content_tokens, rarity
from rt4chart_plugins.text.words import content_words, stem
from rt4chart_plugins.types import (
    Claim,
    ClaimVerdict,
    Correction,
    Evidence,
    Judgement,
    Label,
    Span,
)


def claim_verdict(state: RunState, claim: Claim) -> tuple[ClaimVerdict, list[Correction]]:
    """The claim's verdict from what the judging stages left, and the corrections writing it made."""
    judgement, local, context = state.final.get(claim.id), state.local.get(claim.id), state.context_sentences
    sentence = next((s for s in state.answer_sentences if s.id == claim.sentence_id), None)
    answer_span = claim_span(claim, sentence)
    corrections: list[Correction] = []
    if judgement is None:
        why = state.unjudged.get(claim.id) or "not judged"
        unjudged = ClaimVerdict.unjudged(
            claim.id, claim.text, claim.sentence_id, why, answer_span=answer_span, local=local
        )
        return unjudged, corrections
    phrase_span = None
    if judgement.label != Label.ENT and judgement.phrase:
        phrase_span = anchor_phrase(judgement.phrase, answer_span)
        if phrase_span is None and answer_span is not None:
            corrections.append(
                Correction(claim_id=claim.id, kind="phrase_not_in_sentence", detail=judgement.phrase[:120])
            )
    evidence = [Evidence.of(context[i]) for i in judgement.evidence]
    reason = judgement.reason or reason_in_words(judgement, evidence, phrase_span, claim.text)
    verdict = ClaimVerdict(
        id=claim.id,
        text=claim.text,
        sentence_id=claim.sentence_id,
        label=judgement.label,
        answer_span=answer_span,
        phrase_span=phrase_span,
        evidence=evidence,
        reason=reason,
        probs=judgement.probs,
        signals=judgement.signals,
        judged_alone=judgement.alone,
        local=local,
        global_checked=state.global_pass and local is not None,
    )
    return verdict, corrections


def reason_in_words(j: Judgement, evidence: list[Evidence], phrase: Span | None, claim: str) -> str:
    """A reason a person reads, for a judge that wrote none (the trained verifier): the sentence
    the context says, or what nothing in it mentions, and the words ``claim`` adds that no context
    sentence holds. The numbers behind the verdict are in the claim's ``probs`` and ``signals``."""
    said = quoted(_lead(evidence, claim).text) if evidence else None
    if j.label == Label.CON:
        return f"The context says {said}; the claim says otherwise." if said else "The context says otherwise."
    # the words the claim adds that no context sentence holds; a clause's signals may be its
    # sentence's, so only the words the claim itself writes count
    mine = set(content_tokens(claim))
    added = _named([w for w in (j.signals.novel if j.signals else []) if w in mine])
    if j.label == Label.ENT:
        # a supported claim names them beside its citation: the citation is then checked against
        # them, not trusted for them ("a discount on the annual plan")
        if said:
            return f"The context says {said}" + (f", but never mentions {added}." if added else ".")
        return "Supported by the context" + (f", which never mentions {added}." if added else ".")
    # as the added words: a clause is told only of what it writes ("1000" is written "1,000")
    written = _squashed(claim)
    missing = [m for m in (j.signals.missing if j.signals else []) if _squashed(m) in written]
    words = [phrase.text] if phrase else missing
    if words:
        return "Nothing in the context mentions " + " or ".join(quoted(w) for w in words) + "."
    return "Nothing in the context states this" + (f"; it never mentions {added}." if added else ".")


async def build_verdicts(state: RunState) -> Verdicts:
    """The sixth stage: each claim's verdict as the report shows it."""
    part = Verdicts()
    for claim in state.claims:
        verdict, fixed = claim_verdict(state, claim)
        part.verdicts.append(verdict)
        part.corrections.extend(fixed)
    return part


def _lead(evidence: list[Evidence], claim: str) -> Evidence:
    """The evidence sentence a reason quotes: the one holding most of the claim's words (by stem,
    numbers included), each weighed by its :func:`rarity`, the first of equals. Evidence comes in
    document order, and a claim held by two sentences is about the one that holds its rarer
    words: "The sauna costs 4 euros on top of a swim." quotes the sauna's price, "a refund up to a
    day before you travel" the refund rule, not the sentence that shares "day" and "travel"."""
    mine = {stem(w): w for w in content_words(claim, numbers=True)}

    def held(e: Evidence) -> float:
        return sum(rarity(mine[s]) for s in mine.keys() & {stem(w) for w in content_words(e.text, numbers=True)})

    return max(evidence, key=held)


#: the added words a reason names, at most
NAMED_WORDS = 3


def _named(words: list[str]) -> str | None:
    """ "“discount” or “annual”": the :data:`NAMED_WORDS` rarest of ``words`` (the ones that say
    most), and how many more."""
    if not words:
        return None
    rarest = sorted(words, key=rarity, reverse=True)[:NAMED_WORDS]
    said = [quoted(w) for w in sorted(rarest, key=words.index)]
    named = " or ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)
    more = len(words) - NAMED_WORDS
    return f"{named} ({more} more word{'s' if more > 1 else ''})" if more > 0 else named


def _squashed(text: str) -> str:
    """``text``'s letters and digits, lower-cased: "1,000" and "1000" alike."""
    return re.sub(r"[\W_]", "", text.lower())
