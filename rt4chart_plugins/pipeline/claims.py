"""The claims stage: answer sentences → claims, each keeping the id of its answer sentence; and the
clauses of a contradicted sentence read alone, for the rule stage.

How an answer is split is :mod:`rt4chart_plugins.claims`; this stage runs it on the answer. The
decomposer sees the answer only, never the context (method.md §1.2). A judge that judges clauses
(``Judge.clause_claims``) gets the clauses of each sentence; another is asked for its claims
(``decomposition="llm"``). A sentence the judge failed on, or left without claims although it is
not a refusal, is kept whole as one claim: a sentence is never dropped silently, since a dropped
sentence is an unchecked hallucination.
"""

from __future__ import annotations

import re
from collections import Counter

from rt4chart_plugins.claims import asserted_span, clause_claims, no_claim_reason
from rt4chart_plugins.errors import InvalidReply
from rt4chart_plugins.judges.base import DecomposeResult, Judge
from rt4chart_plugins.pipeline.state import Claims, RunState
from rt4chart_plugins.text.abstention import is_attribution
from rt4chart_plugins.types import Claim, Cost, Sentence, Span, Unclaimed


async def decompose(sentences: list[Sentence], mode: str | None, judge: Judge | None) -> Claims:
    """The claims of ``sentences`` in ``mode`` (``clauses``, ``llm``, ``sentence``, ``holistic``; None,
    a state built without a :class:`~rt4chart_plugins.Verifier`, asks the judge as ``llm`` does), with the
    notes that say which sentences carry none or were kept whole, and the judge's cost."""
    part = Claims()
    checkable, part.unclaimed = asserted(sentences)
    asserting = {s.id for s in checkable}
    whole = [u for u in part.unclaimed if u.sentence_id not in asserting]
    if whole:
        why = ", ".join(f"{n} {reason}" for reason, n in Counter(u.reason for u in whole).items())
        part.notes.append(f"{len(whole)} answer sentence(s) carry no claim ({why})")
    cut = [u for u in part.unclaimed if u.sentence_id in asserting]
    framed = sum(u.reason == "preamble" for u in cut)
    if len(cut) > framed:
        part.notes.append(
            f"{len(cut) - framed} answer sentence(s) abstain and then assert: only what they assert is judged"
        )
    if framed:
        part.notes.append(
            f"{framed} answer sentence(s) attribute what they say to the context: only what they attribute is judged"
        )
    if not checkable:
        if sentences and all(u.reason == "abstention" for u in part.unclaimed):
            part.notes.append("the answer only abstains: it says what it does not know, and claims nothing")
        return part
    if mode == "sentence" or judge is None:
        pairs = [(s.id, s.text) for s in checkable]
    else:
        if mode == "clauses" or (judge.clause_claims and mode != "holistic"):  # split by rule, no model asked
            result = DecomposeResult(claims=clause_claims(checkable))
        else:
            try:
                result = await judge.decompose(checkable, holistic=(mode == "holistic"), cost=part.cost)
            except InvalidReply as exc:  # still cut off or unreadable after it was asked again
                part.failed = f"no claim could be judged: {exc}"
                return part
        pairs = list(result.claims)
        part.notes.extend(result.notes)
        if mode != "holistic":
            covered = {sid for sid, _ in pairs}
            for s in checkable:
                if s.id in result.failed:
                    part.notes.append(
                        f"decomposition failed for answer sentence {s.id} ({result.failed[s.id]}); kept whole"
                    )
                    pairs.append((s.id, s.text))
                elif s.id not in covered:
                    part.notes.append(f"the decomposer gave no claim for answer sentence {s.id}; kept whole")
                    pairs.append((s.id, s.text))
            pairs.sort(key=lambda p: p[0])
        elif not pairs:
            part.notes.append("holistic decomposition returned no claim; fell back to one claim per sentence")
            pairs = [(s.id, s.text) for s in checkable]
    text_of = {s.id: s.text for s in checkable}
    doubted = after_abstention(sentences, checkable, part.unclaimed)
    part.claims = [
        Claim(id=i, text=text, sentence_id=sid, sentence=text_of.get(sid, ""), after_abstention=sid in doubted)
        for i, (sid, text) in enumerate(pairs)
    ]
    return part


def after_abstention(sentences: list[Sentence], checkable: list[Sentence], unclaimed: list[Unclaimed]) -> set[int]:
    """The ids of the answer sentences that assert right after the answer said the context lacks
    something: after an abstaining clause of the same sentence ("The listing doesn't say, but the
    deposit is …") or after a sentence that only abstains ("Pets aren't mentioned. Still, the
    hotel charges …"). The answerer's own words say the context did not give it this, so a judge
    may ask more of its support. An abstention that comes after the assertion ("X, but the text
    says nothing about Y") does not put it in doubt, nor does a sentence that opens by saying the
    context gives it ("The page doesn't mention 5G. It does say that unused data …"): there the
    answerer's words say the opposite."""
    starts = {s.id: s.start for s in checkable}
    opening = [u for u in unclaimed if u.sentence_id in starts and u.span.start < starts[u.sentence_id]]
    leading = {u.sentence_id for u in opening if u.reason == "abstention"}
    attributed = {u.sentence_id for u in opening if u.reason == "preamble" and is_attribution(u.span.text)}
    only_abstains = {u.sentence_id for u in unclaimed if u.reason == "abstention" and u.sentence_id not in starts}
    ids = [s.id for s in sentences]
    before = {b: a for a, b in zip(ids, ids[1:])}
    return {i for i in starts if (i in leading or before.get(i) in only_abstains) and i not in attributed}


def asserted(sentences: list[Sentence]) -> tuple[list[Sentence], list[Unclaimed]]:
    """The answer sentences cut to what they assert (:func:`~rt4chart_plugins.claims.asserted_span`),
    those that assert nothing left out; and every stretch left out, with its reason."""
    kept: list[Sentence] = []
    unclaimed: list[Unclaimed] = []
    for s in sentences:
        where = asserted_span(s.text)
        if where is None:
            reason = no_claim_reason(s.text) or "abstention"  # clause by clause, each abstains
            unclaimed.append(Unclaimed(sentence_id=s.id, span=_span(s, 0, len(s.text)), reason=reason))  # type: ignore[arg-type]
            continue
        a, b = where
        if (a, b) != (0, len(s.text)):
            for x, y in ((0, a), (b, len(s.text))):
                piece = _TRAILING_JOINER.sub("", s.text[x:y]).strip(" ,;:–—-")
                if len(piece) > 1:
                    at = s.text.index(piece, x)
                    reason = no_claim_reason(piece) or "abstention"
                    unclaimed.append(Unclaimed(sentence_id=s.id, span=_span(s, at, at + len(piece)), reason=reason))  # type: ignore[arg-type]
            s = s.model_copy(update={"text": s.text[a:b], "start": s.start + a, "end": s.start + b})
        kept.append(s)
    return kept, unclaimed


#: the connective an abstaining clause leaves at its end when what follows asserts ("…, but")
_TRAILING_JOINER = re.compile(r"[\s,;:–—-]*\b(?:but|however|although|though|yet|and|so)\W*$", re.IGNORECASE)


def _span(sentence: Sentence, a: int, b: int) -> Span:
    return Span(start=sentence.start + a, end=sentence.start + b, text=sentence.text[a:b])


async def find_claims(state: RunState) -> Claims:
    """The second stage: the claims of the answer. A decomposition still cut off or unreadable
    after it was asked again fails the run: no claim is made up from it."""
    return await decompose(state.answer_sentences, state.config.decomposition, state.judge)


async def read_alone(state: RunState, clauses: list[str]) -> tuple[list[float] | None, Cost]:
    """For the rule stage: how far each clause of a contradicted sentence, read alone by the judge
    (``Judge.support_alone``), is above (positive) or below the support it asks of a clause; None
    when the judge cannot say. Which of them then hold is
    :func:`~rt4chart_plugins.claims.held_alone`'s rule (the rule stage's ``settle``)."""
    cost = Cost()
    support = await state.judge.support_alone(clauses, state.context_sentences, state.question, cost=cost)
    return support, cost
