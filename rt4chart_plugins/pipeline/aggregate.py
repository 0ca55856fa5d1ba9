"""The report of a run: the answer-level AND-join, the score, and the unfaithful spans."""

from __future__ import annotations

import time

from rt4chart_plugins.pipeline.state import RunState
from rt4chart_plugins.types import AnswerState, ClaimVerdict, Label, Report, Span


def and_join(labels: list[Label]) -> Label:
    """CON if any claim is contradicted, else NIC if any is baseless, else ENT."""
    return Label.by_precedence(labels, (Label.CON, Label.NIC, Label.ENT))


def answer_verdict(claims: list[ClaimVerdict]) -> tuple[Label | None, bool | None, float | None, AnswerState]:
    """(label, hallucinated, score, state). Never NaN: no claims → score 1.0, state no_claims; no
    judged claim → no score and no verdict (None), state failed."""
    if not claims:
        return None, False, 1.0, "no_claims"
    judged = [c.label for c in claims if c.judged and c.label is not None]
    if not judged:
        return None, None, None, "failed"
    label = and_join(judged)
    score = sum(1 for lab in judged if lab == Label.ENT) / len(judged)
    state: AnswerState = "verified" if len(judged) == len(claims) else "partial"
    return label, label != Label.ENT, score, state


def merge_spans(answer: str, spans: list[Span]) -> list[Span]:
    """The union of unfaithful spans, as disjoint sorted ranges of the answer."""
    merged: list[list[int]] = []
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        if merged and s.start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], s.end)
        else:
            merged.append([s.start, s.end])
    return [Span(start=a, end=b, text=answer[a:b]) for a, b in merged]


def unfaithful_spans(answer: str, claims: list[ClaimVerdict], *, sub_sentence: bool = False) -> list[Span]:
    """Sentence spans of unfaithful claims (the paper's localization), or their named phrases
    where the judge gave one (finer, better span precision)."""
    spans: list[Span] = []
    for c in claims:
        if c.label in (Label.CON, Label.NIC):
            span = c.phrase_span if sub_sentence and c.phrase_span else c.answer_span
            if span is not None:
                spans.append(span)
    return merge_spans(answer, spans)


def report_of(state: RunState) -> Report:
    """The last step: the run's Report, from the verdicts the stages left (the AND-join, the
    score, the unfaithful spans), or the failure that stopped it."""
    state.cost.seconds = time.perf_counter() - state.started
    # what a failed run reports too: the inputs as segmented, the notes and the cost
    common = Report.failure(
        state.failed,
        answer=state.answer,
        question=state.question,
        answer_sentences=state.answer_sentences,
        context_sentences=state.context_sentences,
        notes=state.notes,
        unclaimed=state.unclaimed,
        cost=state.cost,
        judge=state.judge.name,
    )
    if state.failed:
        return common
    label, hallucinated, score, answer_state = answer_verdict(state.verdicts)
    error = None
    if answer_state == "failed":
        error = "no claim could be judged: " + next(iter(state.unjudged.values()), "")
    return common.model_copy(
        update={
            "label": label,
            "hallucinated": hallucinated,
            "score": score,
            "state": answer_state,
            "claims": state.verdicts,
            "unfaithful_spans": unfaithful_spans(state.answer, state.verdicts),
            "phrase_spans": unfaithful_spans(state.answer, state.verdicts, sub_sentence=True),
            "windows": state.windows,
            "corrections": state.corrections,
            "error": error,
        }
    )
