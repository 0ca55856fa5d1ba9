"""Global verification, with a prompt adapted to each claim's local label.

Locally NIC → search the whole context with no hint (the evidence may be spread over windows).
Locally ENT/CON → the deciding window is passed as a location hint and the judge checks whether the
surrounding text changes the verdict. The final evidence is re-extracted from C by the judge; the
local evidence is only a hint (both are settled after this pass, in one place:
:func:`~rt4chart_plugins.pipeline.evidence.settle_evidence`). When C is one window the pass would
repeat the local one: skipped.
"""

from __future__ import annotations

import asyncio

from rt4chart_plugins.judges.base import VerifyRequest
from rt4chart_plugins.pipeline.local import whole_context
from rt4chart_plugins.pipeline.state import Part, Rejudged, RunState, Spoken
from rt4chart_plugins.types import Claim, Label, LocalVerdict, Sentence, Window


def _span_that_fits(context: list[Sentence], cost: list[int], window: Window, budget: int) -> list[Sentence]:
    """The deciding window grown on both sides while it fits the judge (for contexts too long
    to be read whole): the 'surrounding text' of the global check, as much as the judge can take."""
    lo, hi = window.first, window.last
    used = sum(cost[lo : hi + 1])
    grew = True
    while grew:
        grew = False
        if lo > 0 and used + cost[lo - 1] <= budget:
            lo -= 1
            used += cost[lo]
            grew = True
        if hi < len(context) - 1 and used + cost[hi + 1] <= budget:
            hi += 1
            used += cost[hi]
            grew = True
    return context[lo : hi + 1]


async def verify_global(state: RunState) -> Rejudged:
    """Global judgements, as the judge gave them, for the claims the pass could judge, with the
    notes and the judge's cost."""
    local, context, costs, windows = state.local, state.context_sentences, state.sentence_costs, state.windows
    judge, question, want_phrase = state.judge, state.question, state.config.sub_sentence_spans
    part = Rejudged()
    judged = [c for c in state.claims if c.id in local]
    if not judged:
        return part
    budget = judge.context_budget()
    whole_fits = sum(costs) <= budget

    requests: list[VerifyRequest] = []
    searching = [c for c in judged if local[c.id].label == Label.NIC]
    hinted = [c for c in judged if local[c.id].label != Label.NIC]
    if whole_fits:
        if searching:
            requests.append(
                VerifyRequest(
                    mode="global_search",
                    sentences=context,
                    claims=searching,
                    question=question,
                    want_phrase=want_phrase,
                )
            )
        if hinted:
            hints = {c.id: (local[c.id].label, list(windows[_deciding(local[c.id])].ids)) for c in hinted}
            requests.append(
                VerifyRequest(
                    mode="global_hint",
                    sentences=context,
                    claims=hinted,
                    question=question,
                    hints=hints,
                    want_phrase=want_phrase,
                )
            )
    else:
        if searching:
            part.notes.append(
                f"{len(searching)} locally-NIC claim(s) kept their local verdict: the context is too "
                "long for the judge to search it whole"
            )
        by_window: dict[int, list[Claim]] = {}
        for c in hinted:
            by_window.setdefault(local[c.id].window, []).append(c)  # type: ignore[arg-type]
        for w_index, group in by_window.items():
            window = windows[w_index]
            hints = {c.id: (local[c.id].label, list(window.ids)) for c in group}
            requests.append(
                VerifyRequest(
                    mode="global_hint",
                    sentences=_span_that_fits(context, costs, window, budget),
                    claims=group,
                    question=question,
                    hints=hints,
                    want_phrase=want_phrase,
                )
            )

    results = await asyncio.gather(*(judge.verify(r, cost=part.cost) for r in requests))
    for request, result in zip(requests, results):
        shown = frozenset(s.id for s in request.sentences)
        part.said_globally.extend(Spoken(j, shown) for j in result.judgements)
        for cid, err in result.unjudged.items():
            part.notes.append(f"global verification failed for claim {cid} ({err}); its local verdict stands")
    return part


async def judge_globally(state: RunState) -> Part:
    """The fourth stage: the global pass over the claims the windows judged, or a note saying
    why it would only repeat the local one."""
    cfg = state.config
    if not state.claims or not state.context_sentences or not cfg.global_verification:
        return Part()
    if state.global_pass:
        return await verify_global(state)
    if whole_context(cfg.window_size, state.judge):
        return Part(
            notes=[
                "global verification skipped: the judge read the whole context as one window, "
                "so it would repeat the local pass"
            ]
        )
    return Part(
        notes=["global verification skipped: the context fits in one window, so it would repeat the local pass"]
    )


def _deciding(verdict: LocalVerdict) -> int:
    """The window that decided an ENT or CON local verdict (only a NIC has none)."""
    assert verdict.window is not None, "an ENT or CON local verdict names its deciding window"
    return verdict.window
