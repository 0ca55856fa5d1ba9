"""The public façade: ``Verifier().verify(context=…, answer=…, question=…) -> Report``.

Async inside (judge calls dominate), a sync façade outside, bounded concurrency for batches.
Bad input raises :class:`InvalidInput` with a message saying what is wrong; in a batch the same
failure becomes a ``failed`` report for that row while every other row is still scored.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from .config import PipelineConfig
from .detector import Detector, check_input, failed_report, run_sync  # noqa: F401 - re-exported
from .errors import InvalidInput
from .judges.base import Judge
from .pipeline.aggregate import answer_verdict, unfaithful_spans
from .pipeline.checks import unsupported_facts
from .pipeline.record import RecordChecks
from .pipeline.decompose import decompose
from .pipeline.evidence import anchor_phrase
from .pipeline.global_ import verify_global
from .pipeline.local import fit_windows, sentence_costs, verify_local
from .pipeline.segment import segment_answer, segment_context
from .types import (
    Claim,
    ClaimVerdict,
    Correction,
    Cost,
    Evidence,
    Judgement,
    Label,
    LocalVerdict,
    Report,
    Sentence,
    Span,
)


def judge_name(judge: str | None) -> str:
    """The judge a name stands for: the name itself, else ``$RT4CHART_JUDGE``, else ``"trained"``."""
    return judge or os.environ.get("RT4CHART_JUDGE") or "trained"


def make_judge(judge: Judge | str | None = None, **kwargs: Any) -> Judge:
    """A judge from a name: ``"trained"`` (the packaged cross-encoder verifier, the default;
    ``$RT4CHART_JUDGE`` overrides; ``artifact_dir``, ``threshold``), ``"local"`` (the embedded LLM)
    or ``"openai"`` (any OpenAI-compatible endpoint; ``base_url``, ``api_key``, ``model``)."""
    if isinstance(judge, Judge):
        return judge
    name = judge_name(judge)
    if name == "local":  # cheap to build: judges share the loaded model (judges/llama_cpp.py)
        from .judges.llama_cpp import LlamaCppJudge

        return LlamaCppJudge(**kwargs)
    if name == "trained":
        from .judges.trained import TrainedJudge

        return TrainedJudge(**kwargs)
    if name == "openai":
        from .judges.openai_compat import OpenAIJudge

        return OpenAIJudge(**kwargs)
    raise InvalidInput(f"unknown judge {name!r}: use 'local', 'trained', 'openai' or a Judge instance")


class Verifier(Detector):
    """Claim-level RAG faithfulness with evidence (RT4CHART).

    ``judge``: a :class:`Judge`, or ``"local"`` / ``"trained"`` / ``"openai"`` (``judge_kwargs`` configure it).
    Pipeline knobs (``decomposition``, ``window_size``, ``window_overlap``, ``global_verification``,
    ``sub_sentence_spans``) are validated up front.
    """

    def __init__(self, judge: Judge | str | None = None, *, concurrency: int = 4,
                 judge_kwargs: dict[str, Any] | None = None, **config: Any):
        self.config = PipelineConfig(**config)
        self._judge_spec = judge
        self._judge_kwargs = judge_kwargs or {}
        self._judge: Judge | None = judge if isinstance(judge, Judge) else None
        self.concurrency = concurrency

    @property
    def name(self) -> str:
        return self.judge.name

    def prepare(self) -> None:
        self.judge.prepare()

    @property
    def judge(self) -> Judge:
        if self._judge is None:
            self._judge = make_judge(self._judge_spec, **self._judge_kwargs)
        return self._judge

    async def averify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        check_input(context, answer, question, self.config.max_context_chars)
        await asyncio.to_thread(self.judge.prepare)  # a model load is not this sample's cost
        started = time.perf_counter()
        question = question.strip() or None if question else None
        cost = Cost()
        notes: list[str] = []
        corrections: list[Correction] = []
        answer_sentences = segment_answer(answer)
        context_sentences = segment_context(context)
        judge = self.judge
        cfg = self.config

        claims = await decompose(answer_sentences, cfg.decomposition, judge, cost, notes)
        windows: list = []
        final: dict[int, Judgement] = {}
        local: dict[int, LocalVerdict] = {}
        unjudged: dict[int, str] = {}
        if claims and not context_sentences:
            notes.append("the context is empty: every claim is baseless (NIC) and no judge was asked")
            final = {c.id: Judgement(claim_id=c.id, label=Label.NIC, reason="the context is empty") for c in claims}
        elif claims:
            costs = sentence_costs(context_sentences, judge)
            windows, shrink_note = fit_windows(costs, cfg.window_size, cfg.window_overlap, judge.context_budget())
            if shrink_note:
                notes.append(shrink_note)
            run_global = cfg.global_verification and len(windows) > 1
            local, deciding, unjudged = await verify_local(
                claims, context_sentences, windows, judge, question, cost, corrections,
                want_phrase=cfg.sub_sentence_spans and not run_global,
            )
            final = dict(deciding)
            if run_global:
                final.update(await verify_global(
                    claims, local, context_sentences, costs, windows, judge, question,
                    cfg.sub_sentence_spans, cost, corrections, notes,
                ))
            elif cfg.global_verification:
                notes.append("global verification skipped: the context fits in one window, so it would repeat the local pass")

        verdicts = [
            _claim_verdict(c, final.get(c.id), local.get(c.id), unjudged.get(c.id), answer_sentences,
                           context_sentences, corrections, global_checked=len(windows) > 1 and cfg.global_verification)
            for c in claims
        ]
        if cfg.fact_check and context_sentences:
            _apply_fact_check(verdicts, context, context_sentences, question, notes)
        label, hallucinated, score, state = answer_verdict(verdicts)
        cost.seconds = time.perf_counter() - started
        return Report(
            label=label,
            hallucinated=hallucinated,
            score=score,
            state=state,
            claims=verdicts,
            unfaithful_spans=unfaithful_spans(answer, verdicts),
            phrase_spans=unfaithful_spans(answer, verdicts, sub_sentence=True),
            answer=answer,
            question=question,
            answer_sentences=answer_sentences,
            context_sentences=context_sentences,
            windows=windows,
            corrections=corrections,
            notes=notes,
            cost=cost,
            judge=judge.name,
            error="no claim could be judged: " + next(iter(unjudged.values()), "") if state == "failed" else None,
        )


def _claim_verdict(claim: Claim, judgement: Judgement | None, local: LocalVerdict | None, error: str | None,
                   answer_sentences: list[Sentence], context: list[Sentence], corrections: list[Correction],
                   global_checked: bool) -> ClaimVerdict:
    sentence = next((s for s in answer_sentences if s.id == claim.sentence_id), None)
    answer_span = Span(start=sentence.start, end=sentence.end, text=sentence.text) if sentence else None
    if judgement is None:
        return ClaimVerdict(id=claim.id, text=claim.text, sentence_id=claim.sentence_id, label=None, judged=False,
                            answer_span=answer_span, error=error or "not judged", local=local)
    phrase_span = None
    if judgement.label != Label.ENT and judgement.phrase:
        phrase_span = anchor_phrase(judgement.phrase, answer_span)
        if phrase_span is None and answer_span is not None:
            corrections.append(Correction(claim_id=claim.id, kind="phrase_not_in_sentence", detail=judgement.phrase[:120]))
    evidence = [Evidence.of(context[i]) for i in judgement.evidence if 0 <= i < len(context)]
    reason = judgement.reason or _default_reason(judgement)
    return ClaimVerdict(
        id=claim.id, text=claim.text, sentence_id=claim.sentence_id, label=judgement.label,
        answer_span=answer_span, phrase_span=phrase_span, evidence=evidence, reason=reason,
        probs=judgement.probs, local=local, global_checked=global_checked and local is not None,
    )


def _apply_fact_check(verdicts: list[ClaimVerdict], context: str | list[str], units: list[Sentence],
                      question: str | None, notes: list[str]) -> None:
    """A claim the judge found supported, but which states a number or a name that the context
    does not contain anywhere, is baseless; one that says the opposite of a yes/no field of a
    structured context ("has TVs" against ``"HasTV": "False"``), or gives a day other hours than
    the record's, is contradicted. The deterministic checks overrule the judge."""
    text = context if isinstance(context, str) else "\n".join(context)
    overruled = flipped = 0
    record = RecordChecks([u.text for u in units])
    for v in verdicts:
        if v.label != Label.ENT:
            continue
        conflicts, confirmed = record.read(v.text)
        if conflicts:
            v.label = Label.CON
            v.evidence = [Evidence.of(units[c.unit]) for c in conflicts]
            v.reason = f"the record says {', '.join(map(str, conflicts))} (judge: {v.reason})"
            flipped += 1
            continue
        if confirmed:  # "closed on Fridays": no field names Friday
            continue
        missing = unsupported_facts(v.text, text, question)
        if missing:
            v.unsupported_facts = missing
            v.label = Label.NIC
            v.evidence = []
            v.reason = f"states {', '.join(repr(m) for m in missing)}, found nowhere in the context (judge: {v.reason})"
            overruled += 1
    if overruled:
        notes.append(f"fact check: {overruled} claim(s) judged ENT state numbers or names absent from the context; set to NIC")
    if flipped:
        notes.append(f"field check: {flipped} claim(s) judged ENT say the opposite of a yes/no field "
                     f"or other opening hours; set to CON")


def _default_reason(j: Judgement) -> str:
    conf = f" (p={j.probs[j.label]:.2f})" if j.probs else ""
    if j.label == Label.NIC:
        return f"no context sentence states this{conf}"
    where = ", ".join(str(i) for i in j.evidence) or "none cited"
    verb = "supported" if j.label == Label.ENT else "contradicted"
    return f"{verb} by context sentence(s) {where}{conf}"
