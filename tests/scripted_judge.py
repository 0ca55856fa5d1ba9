"""A deterministic judge for unit tests of pipeline logic (joins, windows, offsets, the oracle).

Never proof that a feature works with a real model: the integration tests do that. Rules: a claim
is ENT in a window that holds a sentence containing its ``support`` key, CON where a sentence holds
its ``conflict`` key, else NIC; it cites the matching sentences (plus whatever ``extra_evidence``
injects, to exercise the oracle).
"""

from __future__ import annotations

from rt4chart_plugins.judges.base import DecomposeResult, Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.types import Cost, Judgement, Label, Sentence


class ScriptedJudge(Judge):
    def __init__(self, rules: dict[str, tuple[str | None, str | None]] | None = None, *,
                 extra_evidence: list[int] | None = None, fail_claims: set[str] | None = None,
                 budget: int = 6000, split_on: str | None = " and ", phrase: str | None = None):
        self.name = "scripted"
        self.rules = rules or {}
        self.extra_evidence = extra_evidence or []
        self.fail_claims = fail_claims or set()
        self.budget = budget
        self.split_on = split_on
        self.phrase = phrase
        self.requests: list[VerifyRequest] = []

    def context_budget(self) -> int:
        return self.budget

    async def decompose(self, sentences: list[Sentence], *, holistic: bool, cost: Cost) -> DecomposeResult:
        cost.judge_calls += 1
        out = DecomposeResult()
        for s in sentences:
            parts = s.text.rstrip(".").split(self.split_on) if self.split_on else [s.text]
            out.claims.extend((s.id, p.strip()) for p in parts if p.strip())
        return out

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        cost.judge_calls += 1
        self.requests.append(request)
        result = VerifyResult()
        for claim in request.claims:
            if any(key in claim.text for key in self.fail_claims):
                result.unjudged[claim.id] = "scripted failure"
                continue
            support, conflict = next(
                (rule for key, rule in self.rules.items() if key in claim.text), (None, None)
            )
            label, evidence = Label.NIC, []
            for s in request.sentences:
                if conflict and conflict in s.text:
                    label, evidence = Label.CON, evidence + [s.id]
                elif support and support in s.text and label != Label.CON:
                    label, evidence = Label.ENT, evidence + [s.id]
            result.judgements.append(Judgement(
                claim_id=claim.id, label=label, evidence=evidence + self.extra_evidence,
                phrase=self.phrase if label != Label.ENT else None,
            ))
        return result
