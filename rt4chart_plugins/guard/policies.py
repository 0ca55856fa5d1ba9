"""The guard's policies: what a user sees of an answer, given its verification report.

- ``drop`` takes out each claim the context contradicts (CON) or does not contain (NIC), clause
  by clause (:mod:`rt4chart_plugins.guard.surgery`); an answer left with no claim is refused.
- ``flag`` takes nothing out: it marks each such claim inline, and may quote, after the answer,
  the context sentence a contradicted claim goes against.
- ``refuse`` answers with the configured message when any claim is contradicted or the share of
  supported claims is below ``min_support``; otherwise the answer stands as it came.

A claim that could not be judged (a ``partial`` report) counts as unsupported: what was not
verified is not shown as if it were. An answer that could not be verified at all (a ``failed``
report) is never passed on silently: ``on_error`` says whether the caller gets no text, the
answer marked unverified, or the error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rt4chart_plugins.errors import JudgeError
from rt4chart_plugins.guard.citations import Sources, cite
from rt4chart_plugins.guard.options import DEFAULT_MESSAGE, ON_ERROR, POLICIES, GuardOptions, given
from rt4chart_plugins.guard.result import Citation, GuardedAnswer, GuardedClaim, OnError
from rt4chart_plugins.guard.surgery import Edit, drop, mark_after
from rt4chart_plugins.types import ClaimVerdict, Label, Report, Span

# the options' names and message are read from here too (``rt4chart guard``'s flags)
__all__ = ["DEFAULT_MESSAGE", "MARKS", "ON_ERROR", "POLICIES", "guard_report"]

#: the inline marks of ``flag`` (and of an answer passed on unverified)
MARKS: dict[Label | None, str] = {Label.CON: "[contradicted]", Label.NIC: "[unsupported]", None: "[unverified]"}
_RANK: dict[Label | None, int] = {Label.CON: 0, Label.NIC: 1, None: 2}


def guard_report(
    report: Report,
    options: GuardOptions | None = None,
    *,
    passages: Sequence[str] | None = None,
    sources: Sources | None = None,
    error: BaseException | None = None,
    **keywords: Any,
) -> GuardedAnswer:
    """The answer of ``report`` as the guard's ``options`` let a user see it (a
    :class:`GuardOptions`, or its keywords: ``policy="flag"``; ``cite_sources`` is ``cite``).

    ``cite``: ``[n]`` markers after each kept, supported span, standing for ``passages`` (the
    context when it was a list of passages) or else for context sentences; ``sources`` shares the
    numbering with other pieces of the same answer. ``quote``: under ``flag``, the context sentence
    a contradicted claim goes against is quoted after the answer. ``error``: the exception behind a
    failed report, raised as it is under ``on_error="raise"``.
    """
    if "cite_sources" in keywords:  # the name this function gave ``cite`` before the options were one value
        keywords = {("cite" if k == "cite_sources" else k): v for k, v in keywords.items()}
    options = given(options, keywords)
    policy, cite_sources, on_error = options.policy, options.cite, options.on_error
    message, min_support, quote = options.message, options.min_support, options.quote
    sources = sources if sources is not None else Sources(passages)
    base: dict[str, Any] = {"policy": policy, "report": report}
    if report.state == "failed":
        return _unverified(report, on_error, error, base)
    answer = report.answer
    failing = [c for c in report.claims if c.label != Label.ENT]
    placed = {c.id: _span_of(c, answer) for c in report.claims}
    unplaced = [c for c in failing if placed[c.id] is None]
    notes: list[str] = []
    if policy == "refuse":
        why = _refusal(report.claims, min_support)
        if why:
            return GuardedAnswer(text=message, status="refused", removed=_listed(failing, placed), notes=[why], **base)
        edit = Edit(answer)
        if failing:
            notes.append(f"{len(failing)} claim(s) not supported, above the refusal threshold: kept as they came")
        return _done(edit, report, cite_sources, sources, [], [], notes, base)
    if policy == "flag":
        edit = Edit(answer)
        _flag(edit, failing, placed, quote)
        if unplaced:
            edit.insert(len(answer), (" " if answer.rstrip() == answer else "") + MARKS[_worst(unplaced)])
            notes.append(f"{len(unplaced)} flagged claim(s) map to no span of the answer: the whole answer is marked")
        return _done(edit, report, cite_sources, sources, [], _listed(failing, placed), notes, base)
    # drop
    if unplaced:
        notes.append(
            f"{len(unplaced)} unsupported claim(s) map to no span of the answer, so they cannot be taken out alone: "
            "the answer is refused"
        )
        return GuardedAnswer(text=message, status="refused", removed=_listed(failing, placed), notes=notes, **base)
    spans = [(s.start, s.end) for c in failing if (s := placed[c.id]) is not None]
    spans += _lead_ins_left_alone(report, failing)
    edit = drop(answer, [(s.start, s.end) for s in report.answer_sentences], spans)
    removed = _listed(failing, placed)
    for c in report.claims:  # a supported claim that stood in a span taken out goes with it
        span = placed[c.id]
        if c.label == Label.ENT and span is not None and not edit.kept(span.start, span.end):
            removed.append(
                GuardedClaim(
                    claim_id=c.id,
                    label=c.label,
                    span=span,
                    reason="supported, but it stood in the same clause or sentence as a claim taken out",
                )
            )
    removed.sort(key=lambda g: (g.span.start if g.span else -1, g.claim_id))
    if report.claims and all(not edit.kept(s.start, s.end) for c in report.claims if (s := placed[c.id]) is not None):
        if any(u.reason in _SAYS_IT_CANNOT and edit.kept(u.span.start, u.span.end) for u in report.unclaimed):
            # "X does not say, but <invented>": what the answer said it could not tell is true, and
            # all the reader can be given; it stays instead of the message
            notes.append("every claim of the answer was taken out: its abstention is what is left")
            return _done(edit, report, False, sources, removed, [], notes, base)
        notes.append("every claim of the answer was taken out")
        return GuardedAnswer(text=message, status="refused", removed=removed, notes=notes, **base)
    return _done(edit, report, cite_sources, sources, removed, [], notes, base)


def _lead_ins_left_alone(report: Report, failing: list[ClaimVerdict]) -> list[tuple[int, int]]:
    """The lead-ins of the sentences whose every claim is taken out: "Based on the given passages,"
    or "The policy states that" says nothing once what it introduced is gone. (A sentence that is
    only a preamble, "Here is a summary:", holds no claim and stays.)"""
    out = {c.id for c in failing}
    kept = {c.sentence_id for c in report.claims if c.id not in out}
    gone = {c.sentence_id for c in report.claims} - kept
    return [(u.span.start, u.span.end) for u in report.unclaimed if u.reason == "preamble" and u.sentence_id in gone]


#: the stretches that carry no claim and say the answer cannot tell: kept when every claim goes
_SAYS_IT_CANNOT = frozenset({"abstention", "refusal"})


def _done(
    edit: Edit,
    report: Report,
    cite_sources: bool,
    sources: Sources,
    removed: list[GuardedClaim],
    flagged: list[GuardedClaim],
    notes: list[str],
    base: dict[str, Any],
) -> GuardedAnswer:
    citations: list[Citation] = []
    if cite_sources:
        supported = [c for c in report.claims if c.label == Label.ENT]
        citations = cite(edit, supported, sources)
    return GuardedAnswer(
        text=edit.render(),
        status="guarded",
        removed=removed,
        flagged=flagged,
        citations=citations,
        sources=[s for s in sources.items if any(s.marker in c.markers for c in citations)],
        notes=notes,
        **base,
    )


def _unverified(report: Report, on_error: OnError, error: BaseException | None, base: dict[str, Any]) -> GuardedAnswer:
    reason = report.error or "the answer could not be verified"
    if on_error == "raise":
        exc = error if error is not None else JudgeError(reason)
        exc.report = report  # type: ignore[attr-defined]
        raise exc
    if on_error == "pass":
        answer = report.answer
        sep = "" if not answer or answer[-1].isspace() else " "
        return GuardedAnswer(
            text=f"{answer}{sep}{MARKS[None]}",
            status="unverified",
            notes=[f"not verified, passed as it came: {reason}"],
            **base,
        )
    return GuardedAnswer(text=None, status="failed", notes=[f"not verified: {reason}"], **base)


def _span_of(claim: ClaimVerdict, answer: str) -> Span | None:
    """Where the claim stands in the answer: its span, else its text found in the answer."""
    if claim.answer_span is not None and claim.answer_span.end <= len(answer):
        return claim.answer_span
    at = answer.find(claim.text) if claim.text.strip() else -1
    return Span(start=at, end=at + len(claim.text), text=claim.text) if at >= 0 else None


def _reason(claim: ClaimVerdict) -> str:
    if claim.label is None:
        return f"not verified: {claim.error or 'the judge gave no verdict'}"
    return claim.reason or ("contradicted by the context" if claim.label == Label.CON else "not in the context")


def _listed(claims: list[ClaimVerdict], placed: dict[int, Span | None]) -> list[GuardedClaim]:
    return [GuardedClaim(claim_id=c.id, label=c.label, span=placed[c.id], reason=_reason(c)) for c in claims]


def _refusal(claims: list[ClaimVerdict], min_support: float) -> str | None:
    """Why ``refuse`` refuses, or None: a contradicted claim, or too small a supported share."""
    contradicted = [c for c in claims if c.label == Label.CON]
    if contradicted:
        return f"claim {contradicted[0].id} is contradicted by the context: {_reason(contradicted[0])}"
    if claims:
        share = sum(c.label == Label.ENT for c in claims) / len(claims)
        if share < min_support:
            return f"{share:.0%} of the claims are supported, below the {min_support:.0%} required"
    return None


def _worst(claims: list[ClaimVerdict]) -> Label | None:
    return min((c.label for c in claims), key=lambda label: _RANK[label])


def _flag(edit: Edit, failing: list[ClaimVerdict], placed: dict[int, Span | None], quote: bool) -> None:
    """A mark after each failing span (the worst label of the claims that share it), and the
    context sentences the contradicted ones go against, quoted after the answer."""
    by_span: dict[tuple[int, int], list[ClaimVerdict]] = {}
    for c in failing:
        if (s := placed[c.id]) is not None:
            by_span.setdefault((s.start, s.end), []).append(c)
    for (start, end), group in sorted(by_span.items()):
        mark_after(edit, start, end, MARKS[_worst(group)])
    if not quote:
        return
    said: list[str] = []
    for c in failing:
        if c.label == Label.CON:
            for e in c.evidence[:1]:
                if e.text not in said:
                    said.append(e.text)
    if said:
        lines = "\n".join(f"{MARKS[Label.CON]} The context says: “{s}”" for s in said)
        edit.trailer = f"\n\n{lines}"
