"""``judge="local"``'s default read: the embedded LLM judges each answer sentence against the premise
the trained verifier would pick, off its logits, after instructions held in its KV cache.

The window read (:class:`.judge.LlamaCppJudge`, ``read="window"``) reads a whole window of context
per request and asks up to four questions per claim, and decomposes the answer by generating
claims: tens of seconds an answer on two cores. Here each sentence costs one forward pass over a
premise of about 120 tokens and two short questions (:class:`.premise_read.PremiseReader`), and its
(P(ENT), P(CON), P(NIC)) come from the fitted decision over the LLM's readings alone
(:mod:`rt4chart_plugins.judges.reader.fitted`). No token is generated: the evidence is the premise's
sentences that hold the claim's words (ENT) or its best match (CON).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from rt4chart_plugins.claims import by_sentence, judged_text
from rt4chart_plugins.deadline import checkpoint
from rt4chart_plugins.errors import JudgeError
from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.cache import JudgeCache, cache_from_setting
from rt4chart_plugins.judges.llama import premise_read
from rt4chart_plugins.judges.llama.judge import LlamaCppJudge
from rt4chart_plugins.judges.reader.fitted import FIT_FILE, load_fit
from rt4chart_plugins.judges.reader.verdicts import premise_verdicts
from rt4chart_plugins.types import Cost, Sentence


class PremiseJudge(Judge):
    """The embedded LLM's premise read (see the module docstring). ``model_path`` / ``model`` /
    ``n_threads`` / ``seed``: the model; ``cache``: the readings' cache; ``fit``: a fit file from
    ``rt4chart fit-reader`` instead of the shipped one."""

    one_window = True
    clause_claims = True

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model: str | None = None,
        n_threads: int | None = None,
        seed: int = 0,
        cache: JudgeCache | str | bool | None = True,
        fit: str | Path | None = None,
    ):
        from rt4chart_plugins.judges.llama.loading import judge_model_name

        self.reader = premise_read.PremiseReader(
            model_path, model=model, n_threads=n_threads or max(1, os.cpu_count() or 1), seed=seed
        )
        self.fit = load_fit(Path(fit) if fit else FIT_FILE)
        self.cache = cache_from_setting(cache)
        self.name = f"{judge_model_name(model or _default_model(), model_path)}+premise-read"
        self._writer: LlamaCppJudge | None = None

    def prepare(self) -> None:
        self.reader.load()

    def context_budget(self) -> int:
        return 10**9  # it picks its own premise out of any window

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        return await asyncio.to_thread(self._verify_sync, request, cost)

    def _verify_sync(self, request: VerifyRequest, cost: Cost) -> VerifyResult:
        """Each answer sentence read once against its premise; its clauses take its verdict (a
        clause alone, "and includes phone support", lacks its subject), as the trained verifier's do."""
        from rt4chart_plugins.judges.trained.reading import premise_question

        if not request.sentences:
            return VerifyResult(unjudged={c.id: "no context sentences" for c in request.claims})
        self.reader.load()
        premises = premise_read.trained_premises([s.text for s in request.sentences])
        question = premise_question(request.sentences, request.question)
        out = VerifyResult()
        for group in by_sentence(request.claims):
            checkpoint()
            text = judged_text(group)
            premise = premises.pick(text, question)
            try:
                reading = premise_read.cached_reading(self.reader, self.cache, text, premise.text, cost)
            except JudgeError as exc:
                out.unjudged.update({c.id: str(exc) for c in group})
                continue
            out.judgements.extend(
                premise_verdicts(group, text, premise, premises, request.sentences, reading, self.fit)
            )
        return out

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        """Asked for (``decomposition="llm"``): the window read's generated claims, on the same model."""
        if self._writer is None:
            self._writer = LlamaCppJudge(
                self.reader._explicit_path,
                model=self.reader._model_name,
                n_threads=self.reader.n_threads,
                seed=self.reader.seed,
                cache=self.cache if self.cache is not None else False,
            )
        return await self._writer.decompose(sentences, holistic=holistic, cost=cost)


def _default_model() -> str:
    from rt4chart_plugins import models

    return models.DEFAULT_MODEL
