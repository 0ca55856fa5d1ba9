"""The local judge's premise read, asked of a model behind an OpenAI-compatible endpoint
(``judge="openai", read="premise"``).

A small model served at home, asked for three-way verdicts in JSON, labels nearly every claim the
same way: the project's 1.5B model behind llama.cpp's server called every minimal pair CON
(balanced accuracy 0.50). The embedded judge gets far more from the same weights by asking two
Yes/No questions and reading P(Yes) against P(No) off the next token, which a chat endpoint
returns too, as log probabilities (llama.cpp's server, vLLM and OpenAI do). So each answer
sentence is asked, as in :class:`~rt4chart_plugins.judges.llama.premise_judge.PremiseJudge`,
against the premise the trained verifier picks: *supported?* and *can both be true?*, each one
token long; and the fitted decision turns the two readings into its claims' verdicts
(:func:`~rt4chart_plugins.judges.reader.verdicts.premise_verdicts`).

An endpoint that returns no log probabilities still answers: the word it wrote is read as 1
(Yes) or 0 (No), a coarser reading that the decision takes as it is. A reply that is neither
leaves the sentence's claims unjudged, with why, and is never cached.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence

from rt4chart_plugins.claims import by_sentence, judged_text
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import InvalidReply, JudgeError
from rt4chart_plugins.judges.base import VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache
from rt4chart_plugins.judges.prompts import READOUT_NO, READOUT_YES
from rt4chart_plugins.types import Cost

#: log probabilities asked for the one token of a reply (OpenAI's API allows at most 20)
TOP_LOGPROBS = 20
_YES = {w.lower() for w in READOUT_YES}
_NO = {w.lower() for w in READOUT_NO}

#: how one Yes/No question is asked: (system, user, the row's cost) → P(Yes) against P(No)
AskYesNo = Callable[[str, str, Cost], Awaitable[float]]


def yes_probability(top: Sequence[tuple[str, float]], text: str) -> float:
    """P(Yes) against P(No) from the reply's first token: its top log probabilities, each token
    read without case or surrounding space. With none of either among them, or no log
    probabilities at all, the word the model wrote: 1.0 for Yes, 0.0 for No. Raises
    :class:`InvalidReply` when the reply says neither."""
    yes = sum(math.exp(lp) for token, lp in top if token.strip().lower() in _YES and math.isfinite(lp))
    no = sum(math.exp(lp) for token, lp in top if token.strip().lower() in _NO and math.isfinite(lp))
    if yes + no > 0:
        return yes / (yes + no)
    word = text.strip().strip(".!").lower()
    if word in _YES or word in _NO:
        return 1.0 if word in _YES else 0.0
    raise InvalidReply(f"the reply to a Yes/No question was neither ({text[:40]!r}) and came with no log probabilities")


async def verify_by_premise(
    ask: AskYesNo, request: VerifyRequest, cost: Cost, *, name: str, cache: JudgeCache | None, concurrency: int
) -> VerifyResult:
    """Every claim's verdict, each answer sentence read once against its premise (its clauses take
    its verdict, as in the embedded premise read). ``concurrency`` sentences are asked at a time,
    each sentence's two questions one after the other, so that a server that keeps the last
    prompt in its KV cache reads the second question's premise once."""
    from rt4chart_plugins.judges.llama import premise_read
    from rt4chart_plugins.judges.reader.fitted import FIT_FILE, load_fit
    from rt4chart_plugins.judges.reader.verdicts import premise_verdicts
    from rt4chart_plugins.judges.trained.reading import premise_question

    out = VerifyResult()
    if not request.sentences:
        out.unjudged = {c.id: "no context sentences" for c in request.claims}
        return out
    fit = load_fit(FIT_FILE)
    premises = premise_read.trained_premises([s.text for s in request.sentences])
    question = premise_question(request.sentences, request.question)

    async def read(text: str, premise: str) -> tuple[float, float]:
        key = premise_read.reading_key(name, text, premise)
        if cache is not None and (hit := cache.get(key)) is not None:
            cost.cache_hits += 1
            return float(hit[0]), float(hit[1])
        cost.judge_calls += 1
        reading = (
            await ask(premise_read.SYSTEM, premise_read.pair_user(premise, text, premise_read.ASK_SUPPORT), cost),
            await ask(premise_read.SYSTEM, premise_read.pair_user(premise, text, premise_read.ASK_COMPATIBLE), cost),
        )
        if cache is not None:
            cache.put(key, list(reading))
        return reading

    async def judge(group: list) -> None:
        checkpoint()
        text = judged_text(group)
        premise = premises.pick(text, question)
        try:
            reading = await read(text, premise.text)
        except JudgeError as exc:
            out.unjudged.update({c.id: str(exc) for c in group})
            return
        out.judgements.extend(premise_verdicts(group, text, premise, premises, request.sentences, reading, fit))

    groups = by_sentence(request.claims)
    for start in range(0, len(groups), concurrency):
        await asyncio.gather(*(judge(g) for g in groups[start : start + concurrency]))
    return out
