"""Local verification: every claim against every overlapping window, then the OR-join.

Windows of W sentences advance by W−O. When a window would not fit the judge's context budget it
is shrunk (W and O scaled down together) rather than truncated, so no sentence goes unread. W left
unset is the judge's: the method's 25, or the whole context for a judge whose verdict there is
final (``Judge.one_window``).
"""

from __future__ import annotations

import asyncio

from rt4chart_plugins.config import METHOD_WINDOW_SIZE
from rt4chart_plugins.judges.base import Judge, VerifyRequest
from rt4chart_plugins.pipeline.state import Judged, Part, RunState, Spoken, runs_global
from rt4chart_plugins.types import Judgement, Label, LocalVerdict, Sentence, Window


def make_windows(n_sentences: int, size: int, overlap: int) -> list[Window]:
    """Overlapping windows covering sentences 0..n-1; the last one ends at the last sentence."""
    if size < 1:
        raise ValueError("window size must be at least 1")
    if not 0 <= overlap < size:
        raise ValueError(f"overlap must satisfy 0 <= overlap < size (got {overlap} >= {size})")
    if n_sentences <= 0:
        return []
    stride = size - overlap
    windows: list[Window] = []
    first = 0
    while True:
        last = min(first + size, n_sentences) - 1
        windows.append(Window(index=len(windows), first=first, last=last))
        if last >= n_sentences - 1:
            return windows
        first += stride


def whole_context(size: int | None, judge: Judge) -> bool:
    """Whether a verification reads the whole context as one window: W left unset, and a judge
    whose verdict there is final (the global pass would replace every window's verdict with it,
    so the windows would only cost time)."""
    return size is None and judge.one_window


def window_shape(size: int | None, overlap: int, judge: Judge, n_sentences: int) -> tuple[int, int]:
    """W and O for one verification: the ones set; else one window over the whole context
    (:func:`whole_context`), else the method's W."""
    if whole_context(size, judge):
        return max(1, n_sentences), 0
    return (size, overlap) if size is not None else (METHOD_WINDOW_SIZE, overlap)


def sentence_costs(context: list[Sentence], judge: Judge) -> list[int]:
    """Tokens each context sentence takes in a prompt (+4: the "[id] " prefix and newline).
    Computed once per verification and shared by the window and global-pass planning."""
    return [judge.count_tokens(s.text) + 4 for s in context]


def fit_windows(costs: list[int], size: int, overlap: int, budget: int) -> tuple[list[Window], str | None]:
    """Windows over sentences of these token ``costs`` that each fit ``budget``; a note when they
    had to be shrunk."""
    w, o = size, overlap
    while True:
        windows = make_windows(len(costs), w, o)
        if w == 1 or all(sum(costs[i] for i in win.ids) <= budget for win in windows):
            break
        w = max(1, w // 2)
        o = min(o // 2, w - 1)
    note = None
    if w != size:
        note = f"windows shrunk from W={size}, O={overlap} to W={w}, O={o} to fit the judge's context ({budget} tokens)"
    return windows, note


def or_join(labels: list[Label]) -> Label:
    """CON if any window contradicts, else ENT if any supports, else NIC."""
    return Label.by_precedence(labels, (Label.CON, Label.ENT, Label.NIC))


async def verify_local(state: RunState, windows: list[Window], *, want_phrase: bool) -> Judged:
    """Every claim against every window: the OR-joined local verdicts, the deciding window's
    judgement per claim as the judge gave it (its evidence is settled later, in one place:
    :func:`~rt4chart_plugins.pipeline.evidence.settle_evidence`), the claims no window judged
    and the judge's cost.
    ``want_phrase``: ask for unsupported phrases here (when no global pass will ask for them)."""
    claims, context, judge = state.claims, state.context_sentences, state.judge
    part = Judged()

    async def one(window: Window):
        request = VerifyRequest(
            mode="local",
            sentences=[context[i] for i in window.ids],
            claims=claims,
            question=state.question,
            want_phrase=want_phrase,
        )
        return window, await judge.verify(request, cost=part.cost)

    per_window = await asyncio.gather(*(one(w) for w in windows))
    by_claim: dict[int, list[tuple[Window, Judgement]]] = {c.id: [] for c in claims}
    errors: dict[int, str] = {}
    for window, result in per_window:
        for j in result.judgements:
            if j.claim_id in by_claim:
                by_claim[j.claim_id].append((window, j))
        for cid, err in result.unjudged.items():
            errors.setdefault(cid, err)

    for claim in claims:
        seen = sorted(by_claim[claim.id], key=lambda wj: wj[0].index)
        if not seen:
            part.unjudged[claim.id] = errors.get(claim.id, "no window could be judged")
            continue
        label = or_join([j.label for _, j in seen])
        window, judgement = _decider(seen, label)
        part.local[claim.id] = LocalVerdict(
            label=label,
            window=window.index if label != Label.NIC else None,
            window_labels=[j.label for _, j in seen],
        )
        part.said_locally[claim.id] = Spoken(judgement, frozenset(window.ids))
    return part


def _decider(seen: list[tuple[Window, Judgement]], label: Label) -> tuple[Window, Judgement]:
    """The window that decided the OR-join: the most confident one carrying the joined label."""
    matching = [(w, j) for w, j in seen if j.label == label]

    def confidence(wj: tuple[Window, Judgement]) -> float:
        probs = wj[1].probs
        return probs.get(label, 0.0) if probs else 0.0

    return max(matching, key=confidence)


async def judge_locally(state: RunState) -> Part:
    """The third stage: every claim against every window, OR-joined. With an empty context every
    claim is baseless and no judge is asked."""
    if not state.claims:
        return Part()
    if not state.context_sentences:
        return Judged(
            notes=["the context is empty: every claim is baseless (NIC) and no judge was asked"],
            said_locally={
                c.id: Spoken(Judgement(claim_id=c.id, label=Label.NIC, reason="the context is empty"), frozenset())
                for c in state.claims
            },
        )
    cfg, judge = state.config, state.judge
    costs = sentence_costs(state.context_sentences, judge)
    size, overlap = window_shape(cfg.window_size, cfg.window_overlap, judge, len(state.context_sentences))
    windows, shrink_note = fit_windows(costs, size, overlap, judge.context_budget())
    # the global pass asks for the phrases when it runs
    part = await verify_local(state, windows, want_phrase=cfg.sub_sentence_spans and not runs_global(cfg, windows))
    part.windows, part.sentence_costs = windows, costs
    part.notes = [shrink_note] if shrink_note else []
    return part
