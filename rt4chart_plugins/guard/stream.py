"""An answer guarded while it streams, sentence by sentence, free of any framework.

A model writes its answer a token at a time; a user should not wait for the whole of it, nor see a
sentence before it is judged. :class:`StreamGuard` takes the answer's text as it comes
(:meth:`~StreamGuard.push`), hands out each sentence to verify once the next one has begun
(:meth:`~StreamGuard.next_piece`), and, given its report (:meth:`~StreamGuard.judged`), the text that may be
shown now. A framework's guard only feeds it text and verifies what it asks for: the drivers
:func:`guard_stream` (sync) and :func:`aguard_stream` (async) do that loop for any iterable.

What is shown is always a prefix of what the guard gives the whole answer: each time, the pieces'
reports are joined into one report of the answer so far (each claim's span shifted to where its
piece stands) and guarded by :func:`~rt4chart_plugins.guard.policies.guard_report`, the same
code as ``guard()`` runs, so the streamed text, once the stream ends, is ``guard()``'s text for the
same verdicts, trailers (flag's quotes) at the end and the answer's own whitespace kept. Hence:

- under ``drop`` nothing is shown until a claim is kept (an answer whose every claim goes is
  refused, and a refusal cannot follow text already shown);
- under ``refuse`` nothing is shown before the end, but the message as soon as a claim is
  contradicted (the answer is refused whatever follows);
- whitespace after the last sentence shown waits for the next piece (dropping what follows may
  close it up).

A stream cut off by an error shows what was judged (a last sentence is judged only when it ended),
then ``[cut off]``, then flag's quotes; the driver raises the error after. An empty stream gives
the refusal message, never an empty string, and a chunk that is not text is refused.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any

from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard.options import GuardOptions, given
from rt4chart_plugins.guard.policies import MARKS, guard_report
from rt4chart_plugins.guard.result import GuardedAnswer
from rt4chart_plugins.pipeline.aggregate import answer_verdict, unfaithful_spans
from rt4chart_plugins.pipeline.segment import split_sentences
from rt4chart_plugins.types import ClaimVerdict, Correction, Cost, Label, Report, Sentence, Span

#: what a stream cut off before its end is marked with
CUT_OFF_MARK = "[cut off]"
#: a sentence that ended: its closing punctuation, and a quote or bracket after it
_ENDED = re.compile(r"[.!?…][\"'”’)\]]*\s*\Z")


class StreamGuard:
    """The state of one answer guarded as it streams: the text so far, the reports of the pieces
    judged, and the text already shown. ``options``: a :class:`GuardOptions`, or its keywords;
    ``on_error`` is ``"raise"`` unless they say otherwise (what was shown cannot be taken back)."""

    def __init__(
        self,
        options: GuardOptions | None = None,
        *,
        passages: Sequence[str] | None = None,
        **keywords: Any,
    ):
        self.options = given(options, keywords, on_error="raise")
        self.passages = list(passages) if passages is not None else None
        self.answer = ""  # the text received
        self.done = 0  # characters of it handed out to be judged
        self.shown = ""  # the text shown so far
        self.pieces: list[tuple[int, Report]] = []  # (offset in the answer, report) of each judged piece
        self.failed: Report | None = None  # a piece that could not be verified (on_error="pass")
        self.failed_at = 0
        self._next = (0, "")  # where the piece handed out last starts, and its text
        self.refused = False  # refuse: a claim was contradicted, the message is shown
        self.cut: BaseException | None = None
        self.result: GuardedAnswer | None = None

    # -- while it streams ---------------------------------------------------------------------

    def push(self, chunk: object) -> None:
        """Add a chunk of the answer (a chunk that is no text is refused)."""
        if not isinstance(chunk, str):
            raise InvalidInput(f"the guard streams an answer's text: got a chunk of type {type(chunk).__name__}")
        self.answer += chunk

    def next_piece(self) -> str | None:
        """The next whole sentence to verify (one that the next sentence has begun after), or
        None: one at a time, so that the first is shown one judgement after it ends."""
        if self.refused or self.failed is not None:
            return None
        spans = split_sentences(self.answer[self.done :])
        if len(spans) < 2:
            return None
        return self._hand_out(self.done + spans[1][0])

    def rest(self) -> str | None:
        """At the end of the stream (or when it was cut: only a sentence that ended), what is
        left to verify, or None."""
        if self.refused or self.failed is not None:
            return None
        left = self.answer[self.done :]
        if not left.strip() or (self.cut is not None and not _ENDED.search(left)):
            return None
        return self._hand_out(len(self.answer))

    def _hand_out(self, end: int) -> str | None:
        piece = self.answer[self.done : end]
        self.done = end
        core = piece.strip()
        if not core:
            return None
        self._next = (end - len(piece) + (len(piece) - len(piece.lstrip())), core)
        return core

    def judged(self, report: Report) -> str:
        """The report of the piece :meth:`next_piece` or :meth:`rest` handed out last; the text to show
        now (empty: nothing yet). A piece that could not be verified raises under
        ``on_error="raise"``; else it and the rest of the answer go unjudged."""
        start, core = self._next
        if report.state == "failed":
            if self.options.on_error == "raise":
                guard_report(report, self.options)
            self.failed, self.failed_at = report, start
            return ""
        self.pieces.append((start, report.model_copy(update={"answer": core})))
        if self.options.policy == "refuse":
            if any(c.label == Label.CON for _, r in self.pieces for c in r.claims):
                self.refused = True
                return self._show(self.options.message)
            return ""
        guarded = self._guard(self._joined(start + len(core)), quote=False)
        if guarded.status != "guarded" or (self.options.policy == "drop" and not _kept(guarded)):
            return ""  # drop: nothing kept yet, and a refusal cannot follow text already shown
        return self._show((guarded.text or "").rstrip())

    def _show(self, text: str) -> str:
        if not text.startswith(self.shown) or len(text) <= len(self.shown):
            return ""
        out = text[len(self.shown) :]
        self.shown = text
        return out

    # -- at the end ---------------------------------------------------------------------------

    def end(self, cut: BaseException | None = None) -> str:
        """The text that ends the stream: the rest of the guarded answer, then, when the stream
        was cut, ``[cut off]``, then flag's quotes. Sets :attr:`result`."""
        cut = cut if cut is not None else self.cut
        answer = self.answer if cut is None else self.answer[: self.done]
        if self.failed is not None:
            result = self._unverified(answer)
        elif not answer.strip() and cut is None:
            report = _join([], answer, None)
            result = GuardedAnswer(
                text=self.options.message,
                status="refused",
                policy=self.options.policy,
                report=report,
                notes=["the answer was empty"],
            )
        else:
            result = self._guard(self._joined(len(answer)), quote=self.options.quote)
        text = result.text or ""
        body, trailer = text, ""
        if self.options.quote and self.options.policy == "flag" and result.status == "guarded":
            plain = self._guard(self._joined(len(answer)), quote=False).text or ""
            if text.startswith(plain):
                body, trailer = plain, text[len(plain) :]
        if cut is not None:
            result.cut_off = True
            result.notes.append(f"the answer stopped before it ended ({type(cut).__name__}): shown is what was judged")
            body = f"{body.rstrip()} {CUT_OFF_MARK}" if body.strip() else CUT_OFF_MARK
        full = body + trailer
        result.text = full if result.text is not None else None
        if full.startswith(self.shown):
            out = full[len(self.shown) :]
        else:
            out = ""
            result.notes.append("a verdict changed what was already shown: the stream shows less than this text")
        self.shown += out
        self.result = result
        return out

    def _unverified(self, answer: str) -> GuardedAnswer:
        """on_error="pass": what was judged, guarded; the rest as it came, marked unverified
        (``"report"``: no text, the failed report)."""
        assert self.failed is not None
        if self.options.on_error == "report":
            reason = f"not verified from offset {self.failed_at}: {self.failed.error}"
            return GuardedAnswer(
                text=None, status="failed", policy=self.options.policy, report=self.failed, notes=[reason]
            )
        judged_end = self.pieces[-1][0] + len(self.pieces[-1][1].answer) if self.pieces else 0
        judged = self._guard(self._joined(judged_end), quote=False) if self.pieces else None
        head = judged.text or "" if judged is not None and judged.status == "guarded" else ""
        rest = answer[judged_end:] if head else answer[self.failed_at :]
        text = head + rest
        sep = "" if not text or text[-1].isspace() else " "
        return GuardedAnswer(
            text=f"{text}{sep}{MARKS[None]}",
            status="unverified",
            policy=self.options.policy,
            report=self._joined(len(answer)) if self.pieces else self.failed,
            notes=[f"not verified from offset {self.failed_at}, passed as it came: {self.failed.error}"],
        )

    # -- the answer so far as one report ------------------------------------------------------

    def _joined(self, end: int) -> Report:
        return _join(self.pieces, self.answer[:end], self.failed.error if self.failed else None)

    def _guard(self, report: Report, *, quote: bool) -> GuardedAnswer:
        options = self.options if quote == self.options.quote else self.options.but(quote=quote)
        return guard_report(report, options, passages=self.passages)


def _kept(guarded: GuardedAnswer) -> bool:
    """Whether a claim of the answer so far stands in the guarded text."""
    gone = {g.claim_id for g in guarded.removed}
    return any(c.id not in gone for c in guarded.report.claims)


def _join(pieces: list[tuple[int, Report]], answer: str, error: str | None) -> Report:
    """The reports of an answer's pieces as one report of ``answer``: claims and sentences
    numbered on, their spans shifted to where each piece stands."""
    claims: list[ClaimVerdict] = []
    sentences: list[Sentence] = []
    corrections: list[Correction] = []
    notes: list[str] = []
    cost = Cost()
    for offset, report in pieces:
        ids = {c.id: len(claims) + i for i, c in enumerate(report.claims)}
        first = len(sentences)
        for s in report.answer_sentences:
            sentences.append(
                s.model_copy(update={"id": first + s.id, "start": s.start + offset, "end": s.end + offset})
            )
        for c in report.claims:
            claims.append(
                c.model_copy(
                    update={
                        "id": ids[c.id],
                        "sentence_id": c.sentence_id + first if c.sentence_id >= 0 else c.sentence_id,
                        "answer_span": _shift(c.answer_span, offset),
                        "phrase_span": _shift(c.phrase_span, offset),
                    }
                )
            )
        corrections += [k.model_copy(update={"claim_id": ids.get(k.claim_id, k.claim_id)}) for k in report.corrections]
        notes += [n for n in report.notes if n not in notes]
        cost.add(report.cost)
    label, hallucinated, score, state = answer_verdict(claims)
    base = pieces[0][1] if pieces else None
    return Report(
        label=label,
        hallucinated=hallucinated,
        score=score,
        state=state,
        error=error if state == "failed" else None,
        claims=claims,
        unfaithful_spans=unfaithful_spans(answer, claims),
        phrase_spans=unfaithful_spans(answer, claims, sub_sentence=True),
        answer=answer,
        question=base.question if base else None,
        answer_sentences=sentences,
        context_sentences=base.context_sentences if base else [],
        corrections=corrections,
        notes=notes,
        cost=cost,
        judge=base.judge if base else "",
        method=base.method if base else "rt4chart",
    )


def _shift(span: Span | None, offset: int) -> Span | None:
    return None if span is None else span.model_copy(update={"start": span.start + offset, "end": span.end + offset})


def guard_stream(
    chunks: Iterable[object],
    verify: Callable[[str], Report],
    guard: StreamGuard,
    finish: Callable[[], None] | None = None,
) -> Iterator[str]:
    """The guarded text of a streamed answer, each piece as soon as it may be shown (sync).
    ``verify``: a piece of the answer's text to its report. An error of the stream is raised
    after what was judged and the ``[cut off]`` mark; a chunk that is no text is refused.
    ``finish``: called when the stream has ended whole, before its last piece (a check that may
    raise)."""
    iterator = iter(chunks)
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            break
        except Exception as exc:  # noqa: BLE001 - the stream failed mid-answer: what was judged, then the error
            guard.cut = exc
            break
        guard.push(chunk)
        while (piece := guard.next_piece()) is not None:
            if out := guard.judged(verify(piece)):
                yield out
    if guard.cut is None and finish is not None:
        finish()
    piece = guard.rest()
    if piece is not None and (out := guard.judged(verify(piece))):
        yield out
    if out := guard.end():
        yield out
    if guard.cut is not None:
        raise guard.cut


async def aguard_stream(
    chunks: AsyncIterable[object],
    verify: Callable[[str], Awaitable[Report]],
    guard: StreamGuard,
    finish: Callable[[], None] | None = None,
) -> AsyncIterator[str]:
    """:func:`guard_stream` for an async stream and an async ``verify``."""
    iterator = aiter(chunks)
    while True:
        try:
            chunk = await anext(iterator)
        except StopAsyncIteration:
            break
        except Exception as exc:  # noqa: BLE001 - the stream failed mid-answer: what was judged, then the error
            guard.cut = exc
            break
        guard.push(chunk)
        while (piece := guard.next_piece()) is not None:
            if out := guard.judged(await verify(piece)):
                yield out
    if guard.cut is None and finish is not None:
        finish()
    piece = guard.rest()
    if piece is not None and (out := guard.judged(await verify(piece))):
        yield out
    if out := guard.end():
        yield out
    if guard.cut is not None:
        raise guard.cut
