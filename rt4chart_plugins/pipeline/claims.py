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

from rt4chart_plugins.claims import carries_no_claim, clause_claims
from rt4chart_plugins.errors import InvalidReply
from rt4chart_plugins.judges.base import DecomposeResult, Judge
from rt4chart_plugins.pipeline.state import Claims, RunState
from rt4chart_plugins.types import Claim, Cost, Sentence


async def decompose(sentences: list[Sentence], mode: str | None, judge: Judge | None) -> Claims:
    """The claims of ``sentences`` in ``mode`` (``clauses``, ``llm``, ``sentence``, ``holistic``; None,
    a state built without a :class:`~rt4chart_plugins.Verifier`, asks the judge as ``llm`` does), with the
    notes that say which sentences carry none or were kept whole, and the judge's cost."""
    part = Claims()
    checkable = [s for s in sentences if not carries_no_claim(s.text)]
    skipped = len(sentences) - len(checkable)
    if skipped:
        part.notes.append(f"{skipped} answer sentence(s) are refusals or remarks and carry no claim")
    if not checkable:
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
    text_of = {s.id: s.text for s in sentences}
    part.claims = [
        Claim(id=i, text=text, sentence_id=sid, sentence=text_of.get(sid, "")) for i, (sid, text) in enumerate(pairs)
    ]
    return part


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
