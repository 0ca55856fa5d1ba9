"""Answer sentences → atomic claims, each keeping the id of its answer sentence.

The decomposer sees the answer only, never the context (method.md §1.2). A sentence the judge
failed on, or left without claims although it is not a refusal, is kept whole as one claim: a
sentence is never dropped silently, since a dropped sentence is an unchecked hallucination.
"""

from __future__ import annotations

import re

from rt4chart_plugins.errors import InvalidReply
from rt4chart_plugins.judges.base import DecomposeResult, Judge
from rt4chart_plugins.pipeline.state import RunState
from rt4chart_plugins.rules.abstention import is_abstention
from rt4chart_plugins.rules.clauses import clause_claims
from rt4chart_plugins.types import Claim, Cost, Sentence

#: Refusals and meta-remarks carry no verifiable claim (RAGTruth does not count them as hallucinations).
REFUSAL = re.compile(
    r"\b(unable to (answer|determine|provide)|(cannot|can't|can not) (answer|determine|be answered)"
    r"|(do|does|did) not (provide|contain|mention|include|specify|give) (any |enough |sufficient |specific )?"
    r"(information|details|answer)|there is no (information|mention)"
    r"|not (possible|enough information) to (answer|determine)"
    r"|no (relevant )?information (is |was )?(provided|available|given))\b",
    re.IGNORECASE,
)


#: A preamble announces what follows ("Here is a summary of the article in 62 words:", "Based on
#: the given passages, here are the steps to ...:"). It states nothing about the context, and a
#: judge reading it as a claim finds its few words nowhere and flags it: on held-out RAGTruth train
#: rows 7 of 27 preambles were flagged, and dropping them raised the answer AUC of summaries from
#: 0.76 to 0.82. All 119 preambles of the 391 train answers are unannotated, i.e. faithful. Text
#: after a colon is content ("Here is the address: 12 Elm St." is a claim) and is never dropped.
PREAMBLE = re.compile(
    r"^\W*(?:(?:sure|okay|ok|certainly|of course|absolutely)\b[!,.]?\s*)?"
    r"(?:based on the (?:given|provided|above|following)?\s*(?:passages?|information|context|article|text|data|news)"
    r"\b[^,:]*,\s*)?here(?:'s|’s| is| are)\b"
    r"(?:[^:]*:\s*$|\s+(?:a|an|the|my)\s+(?:\w+\s+){0,2}(?:summary|answer|overview|response)\b[^:]*$)",
    re.IGNORECASE,
)


#: A closing courtesy ("I hope this helps!", "Let me know if you have any further questions.")
#: offers help; it says nothing about the context. All 9 of the 391 RAGTruth train answers' closings
#: are unannotated, and the verifier scored "I hope this helps!" just under its threshold, which
#: flagged a faithful answer. Short sentences only, so that content never goes unchecked.
CLOSING = re.compile(
    r"^\W*(?:I hope (?:this|that|these|the above|my (?:answer|response))\b"
    r".*\b(?:helps?|helpful|useful|clarif\w*|answers?)\b"
    r"|(?:please\s+)?let me know if (?:you|there)\b"
    r"|(?:please\s+)?feel free to (?:ask|reach out|contact)\b"
    r"|if you have any (?:other |further |more |additional )?questions\b"
    r"|is there anything else\b)",
    re.IGNORECASE,
)


def is_refusal(sentence: str) -> bool:
    return bool(REFUSAL.search(sentence)) and len(sentence.split()) <= 30


def carries_no_claim(sentence: str) -> bool:
    """A refusal, an abstention ("I don't know."), a preamble or a closing courtesy: nothing in it
    can be checked against the context."""
    return (
        is_refusal(sentence)
        or is_abstention(sentence)
        or bool(PREAMBLE.search(sentence))
        or (bool(CLOSING.search(sentence)) and len(sentence.split()) <= 25)
    )


async def decompose(
    sentences: list[Sentence], mode: str | None, judge: Judge | None, cost: Cost, notes: list[str]
) -> list[Claim]:
    """The claims of the answer's checkable sentences. ``mode`` is the ``decomposition`` option;
    None (a state built without a :class:`~rt4chart_plugins.Verifier`, which resolves it to the
    judge's) asks the judge, as ``llm`` does."""
    checkable = [s for s in sentences if not carries_no_claim(s.text)]
    skipped = len(sentences) - len(checkable)
    if skipped:
        notes.append(f"{skipped} answer sentence(s) are refusals or remarks and carry no claim")
    if not checkable:
        return []
    if mode == "sentence" or judge is None:
        pairs = [(s.id, s.text) for s in checkable]
    else:
        if mode == "clauses":  # split by rule, the judge not asked
            result = DecomposeResult(claims=clause_claims(checkable))
        else:
            result = await judge.decompose(checkable, holistic=(mode == "holistic"), cost=cost)
        pairs = list(result.claims)
        if mode != "holistic":
            covered = {sid for sid, _ in pairs}
            for s in checkable:
                if s.id in result.failed:
                    notes.append(f"decomposition failed for answer sentence {s.id} ({result.failed[s.id]}); kept whole")
                    pairs.append((s.id, s.text))
                elif s.id not in covered:
                    notes.append(f"the decomposer gave no claim for answer sentence {s.id}; kept whole")
                    pairs.append((s.id, s.text))
            pairs.sort(key=lambda p: p[0])
        elif not pairs:
            notes.append("holistic decomposition returned no claim; fell back to one claim per sentence")
            pairs = [(s.id, s.text) for s in checkable]
    text_of = {s.id: s.text for s in sentences}
    return [
        Claim(id=i, text=text, sentence_id=sid, sentence=text_of.get(sid, "")) for i, (sid, text) in enumerate(pairs)
    ]


async def find_claims(state: RunState) -> None:
    """The second stage: the claims of the answer. A decomposition still cut off or unreadable
    after it was asked again fails the run: no claim is made up from it."""
    try:
        state.claims = await decompose(
            state.answer_sentences, state.config.decomposition, state.judge, state.cost, state.notes
        )
    except InvalidReply as exc:
        state.failed = f"no claim could be judged: {exc}"
