"""``judge="auto"``: the trained verifier first, the embedded LLM judge for the claims it is least sure of.

The trained verifier labels every claim in milliseconds; the LLM takes seconds a claim but reads
meaning better. A claim whose P(ENT) lies within ``band`` of the verifier's threshold is
uncertain; the most uncertain ones, at most ``budget`` of a request's claims (rounded up), are judged again by
the LLM against the same window, and its verdict (label, evidence, phrase, reason) replaces the
verifier's. Claims are the answer sentences (not the trained verifier's clauses); the LLM re-judges
each sentence whole. Windows are fitted to the LLM's context budget, since any claim may reach it.

By default (``flag_only``) the LLM may only overrule an ENT: it sees the claims the verifier
found supported (those within ``band`` above the threshold), and its verdict counts when it flags
one. Allowed to overrule any verdict, it cleared more true flags than it added and answer recall
fell; only flagging, it kept the verifier's answer F1 and raised its span F1 (the current table:
lab/docs/benchmarks.md, "The cascade").
"""

from __future__ import annotations

import math
from typing import Any

from rt4chart_plugins.judges.base import Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.types import Cost, Label


class CascadeJudge(Judge):
    """``budget``: the largest share of a request's claims sent to the LLM (0 sends none, 1 every
    uncertain one); ``band``: how far from the threshold a P(ENT) counts as uncertain. ``trained``
    and ``llm`` are the two judges' options (see ``TrainedJudge`` and ``LlamaCppJudge``)."""

    def __init__(
        self,
        *,
        budget: float = 0.25,
        band: float = 0.25,
        flag_only: bool = True,
        trained: dict[str, Any] | None = None,
        llm: dict[str, Any] | None = None,
    ):
        from rt4chart_plugins.errors import InvalidInput

        if not 0.0 <= budget <= 1.0 or not 0.0 <= band <= 1.0:
            raise InvalidInput(f"budget and band must lie in [0, 1] (got {budget}, {band})")
        from rt4chart_plugins.judges.llama import LlamaCppJudge
        from rt4chart_plugins.judges.trained import TrainedJudge

        self.budget, self.band, self.flag_only = budget, band, flag_only
        self.trained = TrainedJudge(**(trained or {}))
        self.llm = LlamaCppJudge(**(llm or {}))

    @property
    def name(self) -> str:  # type: ignore[override]
        return (
            f"auto({self.trained.name}+{self.llm.name},budget={self.budget:g}{',flag-only' if self.flag_only else ''})"
        )

    def prepare(self) -> None:
        self.trained.prepare()
        if self.budget > 0:
            self.llm.prepare()

    # its claims are whole sentences (``Judge.decompose``'s default), not the trained verifier's
    # clauses: the LLM reads a claim without its sentence, and a clause alone ("and includes phone
    # support") lacks its subject

    def context_budget(self) -> int:
        return self.llm.context_budget()

    def count_tokens(self, text: str) -> int:
        return self.llm.count_tokens(text)

    def uncertain(self, result: VerifyResult, n_claims: int) -> list[int]:
        """The claim ids to send to the LLM: P(ENT) within ``band`` of the threshold, nearest first,
        at most ``budget`` of the request's claims, rounded up: a one-sentence answer is a request
        of one claim, and rounding down would never let its claim reach the LLM."""
        t = self.trained.threshold
        near = [
            (abs(j.probs[Label.ENT] - t), j.claim_id)
            for j in result.judgements
            if j.probs and abs(j.probs[Label.ENT] - t) <= self.band and (j.label == Label.ENT or not self.flag_only)
        ]
        return [cid for _, cid in sorted(near)[: math.ceil(self.budget * n_claims - 1e-9)]]

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        first = await self.trained.verify(request, cost=cost)
        chosen = set(self.uncertain(first, len(request.claims)))
        if not chosen:
            return first
        second = await self.llm.verify(
            request.model_copy(
                update={
                    "claims": [c for c in request.claims if c.id in chosen],
                    "hints": {k: v for k, v in request.hints.items() if k in chosen},
                }
            ),
            cost=cost,
        )
        better = {j.claim_id: j for j in second.judgements}
        out = VerifyResult(unjudged=dict(first.unjudged))
        for j in first.judgements:
            if j.claim_id in better and self.flag_only and better[j.claim_id].label == Label.ENT:
                j.reason = f"{j.reason}; the embedded LLM agrees" if j.reason else "the embedded LLM agrees"
                out.judgements.append(j)
            elif j.claim_id in better:
                assert j.probs is not None  # only a claim with a P(ENT) is uncertain
                llm = better[j.claim_id]
                llm.reason = (
                    f"embedded LLM (the trained verifier was unsure: P(ENT)={j.probs[Label.ENT]:.2f}): "
                    f"{llm.reason or ''}"
                ).rstrip(": ")
                out.judgements.append(llm)
            else:
                out.judgements.append(j)
        return out

    async def aclose(self) -> None:
        await self.llm.aclose()
