"""What every detector shares: the sync façade over an async ``averify``, batches with bounded
concurrency where one failing row becomes a ``failed`` report, and input checks.

RT4CHART (:class:`rt4chart_plugins.Verifier`) and GASP (:class:`rt4chart_plugins.GaspDetector`)
both return a :class:`Report`, so adapters, the CLI and the benchmark take either.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rt4chart_plugins.config import AtLeastOne, checked
from rt4chart_plugins.errors import InvalidInput, JudgeUnavailable
from rt4chart_plugins.pipeline.aggregate import answer_verdict, unfaithful_spans
from rt4chart_plugins.pipeline.segment import segment_answer, segment_context
from rt4chart_plugins.text.english import clean_text
from rt4chart_plugins.types import (
    ClaimVerdict,
    Cost,
    Label,
    Report,
    Sentence,
    Span,
    VerifyInput,
    Window,
)


class Detector(ABC):
    concurrency: int = 4
    #: what the reports say wrote them (GASP and the lab's readout name their own)
    method: str = "rt4chart"

    @property
    def name(self) -> str:
        """What scored the rows (the judge's name for RT4CHART, the scorer's for GASP)."""
        return type(self).__name__

    def prepare(self) -> None:  # noqa: B027 - a hook: a detector with nothing to load keeps it
        """Load models up front (not counted in a sample's time); a no-op by default."""

    @abstractmethod
    async def averify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        """One report for one (context, question, answer)."""

    def _check_before_rows(self) -> None:  # noqa: B027 - a hook: a detector with nothing to check keeps it
        """Raise what would fail every row alike, once for the whole call, before a batch's rows
        start; a no-op by default."""

    # ---- sync façade -------------------------------------------------------------------------

    def verify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        return run_sync(self.averify(context=context, answer=answer, question=question))

    def verify_many(
        self,
        rows: Iterable[VerifyInput | dict],
        *,
        concurrency: int | None = None,
        on_result: Callable[[int, Report], None] | None = None,
        progress: bool = False,
        keep: bool = True,
    ) -> list[Report]:
        """The sync face of :meth:`averify_many`."""
        return run_sync(
            self.averify_many(rows, concurrency=concurrency, on_result=on_result, progress=progress, keep=keep)
        )

    # ---- async -------------------------------------------------------------------------------

    async def averify_many(
        self,
        rows: Iterable[VerifyInput | dict],
        *,
        concurrency: int | None = None,
        on_result: Callable[[int, Report], None] | None = None,
        progress: bool = False,
        keep: bool = True,
    ) -> list[Report]:
        """One report per row, in order; a row that fails gets a ``failed`` report with its error.

        ``on_result(index, report)`` is called as each row finishes (a batch writes it then);
        ``progress`` shows a bar (tqdm) on stderr; ``keep=False`` returns no reports, so that a
        caller who takes each from ``on_result`` does not hold them all (100,000 rows' reports
        came to gigabytes). When the judge's endpoint cannot serve any row
        (:class:`JudgeUnavailable`: a 401, or its circuit breaker opened) no further row is
        started and that one error is raised, with ``.reports``: each row's report, or None
        for the rows not scored.

        ``concurrency`` workers take the rows in turn, rather than one task per row waiting on a
        semaphore: what is in flight, not the number of rows, sets what the loop holds."""
        from tqdm import tqdm

        self._check_before_rows()
        limit = self.concurrency if concurrency is None else checked("concurrency", concurrency, AtLeastOne)
        items = list(rows)
        reports: list[Report | None] = [None] * len(items) if keep else []
        stopped: list[JudgeUnavailable] = []
        bar = tqdm(total=len(items), desc="verify", unit="row", disable=not progress)
        queue = iter(enumerate(items))  # shared by the workers: each takes the next row

        async def worker() -> None:
            for index, row in queue:
                if stopped:
                    return
                try:
                    data = read_input(row)
                    report = await self.averify(context=data.context, answer=data.answer, question=data.question)
                except JudgeUnavailable as exc:
                    stopped.append(exc)
                    return
                except Exception as exc:  # noqa: BLE001 - a row's failure is its result
                    report = failed_report(row, exc)
                bar.update(1)
                if on_result is not None:
                    on_result(index, report)
                if keep:
                    reports[index] = report

        try:
            await asyncio.gather(*(worker() for _ in range(min(limit, len(items)))))
        finally:
            bar.close()
        if stopped:
            error = stopped[0]
            error.reports = reports  # type: ignore[attr-defined]
            raise error
        return reports  # type: ignore[return-value]


def input_problems(
    context: object,
    answer: object,
    question: object = None,
    *,
    context_field: str = "context",
    answer_field: str = "answer",
) -> list[str]:
    """What keeps a row from being verified, each in one line: the one wording of a bad row, for
    ``verify()``, a batch (the CLI's and the Ray job's) and the adapters, which pass their
    framework's names for the fields (``retrieved_contexts``, ``response``…).

    An empty context (``""``, ``[]``, blank passages) is no problem: it grounds nothing, so every
    claim is baseless (NIC), and an answer that makes no claim ("I don't know") is ``no_claims``
    (docs/output.md, "An empty context")."""
    problems = []
    if context is None:
        problems.append(f"{context_field} is missing: there is no context to verify the answer against")
    elif isinstance(context, (list, tuple)):
        bad = [
            f"item {i} is {'None' if p is None else type(p).__name__}"
            for i, p in enumerate(context)
            if not isinstance(p, str)
        ]
        if bad:
            more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
            problems.append(f"{context_field} must hold strings: {', '.join(bad[:3])}{more}")
    elif not isinstance(context, str):
        problems.append(f"{context_field} must be a string or a list of strings, got {type(context).__name__}")
    if answer is None:
        problems.append(f"{answer_field} is missing: there is no answer to verify")
    elif not isinstance(answer, str):
        problems.append(f"{answer_field} must be a string, got {type(answer).__name__}")
    if question is not None and not isinstance(question, str):
        problems.append(f"question must be a string or None, got {type(question).__name__}")
    return problems


def read_input(data: object) -> VerifyInput:
    """A row given as a mapping (a batch line, a ``verify_many`` dict) as a :class:`VerifyInput`,
    or :class:`InvalidInput` worded as :func:`input_problems` words it (other keys are ignored)."""
    if isinstance(data, VerifyInput):
        return data
    if not isinstance(data, Mapping):
        raise InvalidInput(f"a row must be a JSON object (a mapping), got {type(data).__name__}")
    context, answer, question = data.get("context"), data.get("answer"), data.get("question")
    problems = input_problems(context, answer, question)
    if problems:
        raise InvalidInput("; ".join(problems))
    passages = list(context) if isinstance(context, tuple) else context
    return VerifyInput(context=passages, answer=answer, question=question)  # type: ignore[arg-type]


def check_input(
    context: object, answer: object, question: object, max_chars: int
) -> tuple[str | list[str], str, str | None]:
    """The inputs checked (:class:`InvalidInput` says what is wrong, :func:`input_problems`) and
    cleaned (:func:`clean_text`)."""
    problems = input_problems(context, answer, question)
    if problems:
        raise InvalidInput("; ".join(problems))
    assert isinstance(context, (str, list, tuple)) and isinstance(answer, str)
    total = len(context) if isinstance(context, str) else sum(len(p) for p in context)
    if total > max_chars:
        raise InvalidInput(
            f"context has {total} characters, over the limit of {max_chars} (PipelineConfig.max_context_chars)"
        )
    cleaned = clean_text(context) if isinstance(context, str) else [clean_text(p) for p in context]
    return cleaned, clean_text(answer), clean_text(question) if isinstance(question, str) else None


def sentence_inputs(
    detector: Detector, context: str | list[str], answer: str, question: str | None, max_chars: int
) -> tuple[str | None, list[Sentence], list[Sentence], dict]:
    """What a sentence-level detector (GASP, the readout) starts from: the checked inputs, the
    question (None when blank), the answer's and the context's sentences, and the report fields
    they fill (``base``)."""
    context, answer, question = check_input(context, answer, question, max_chars)
    question = question.strip() or None if question else None
    answer_sentences = segment_answer(answer)
    context_sentences = segment_context(context)
    base = {
        "answer": answer,
        "question": question,
        "answer_sentences": answer_sentences,
        "context_sentences": context_sentences,
        "judge": detector.name,
        "method": detector.method,
    }
    return question, answer_sentences, context_sentences, base


def empty_context_report(sentences: list[Sentence], base: dict) -> Report:
    """Every sentence NIC, with no model run: an empty context can ground nothing."""
    verdicts = [
        ClaimVerdict(
            id=s.id,
            text=s.text,
            sentence_id=s.id,
            label=Label.NIC,
            answer_span=Span(start=s.start, end=s.end, text=s.text),
            reason="the context is empty: nothing can ground this sentence",
        )
        for s in sentences
    ]
    note = "the context is empty: every sentence is baseless (NIC); no model was run"
    return sentence_report(verdicts, base, Cost(), [note], None)


def sentence_report(
    verdicts: list[ClaimVerdict],
    base: dict,
    cost: Cost,
    notes: list[str],
    risk: float | None,
    windows: list[Window] | None = None,
) -> Report:
    """The report of a detector that judges whole answer sentences (GASP, the readout): the
    answer's verdict, its unfaithful spans (the flagged sentences) and the answer's risk (None
    when nothing finite was scored). ``base`` holds the inputs' fields."""
    label, hallucinated, score, state = answer_verdict(verdicts)
    spans = unfaithful_spans(base["answer"], verdicts)
    finite = risk is not None and math.isfinite(risk)
    return Report(
        label=label,
        hallucinated=hallucinated,
        score=score,
        state=state,
        claims=verdicts,
        unfaithful_spans=spans,
        phrase_spans=spans,
        windows=windows or [],
        notes=notes,
        cost=cost,
        risk=risk if finite else None,
        error="no answer sentence could be scored" if state == "failed" else None,
        **base,
    )


def failed_report(row: object, exc: BaseException) -> Report:
    """The report of a row that could not be verified. It must always serialize (a batch writes
    it), so its texts are cleaned and a pydantic error becomes its short readable form."""
    answer = row.answer if isinstance(row, VerifyInput) else row.get("answer") if isinstance(row, dict) else None
    return Report.failure(clean_text(describe_error(exc)), answer=clean_text(answer) if isinstance(answer, str) else "")


def describe_error(exc: BaseException) -> str:
    """The one wording of a failed row, ``Kind: what went wrong``: ``InvalidInput: …`` for bad
    input, whatever raised it. ``verify_many``, the CLI's batch, the Ray job and the adapters all
    word a failed row with it, so one bad row reads the same in each; ``verify()`` raises the
    exception it describes.

    Pydantic's own text (a multi-line dump with URLs) becomes the field and the problem."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'row'}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        return clean_text(f"InvalidInput: {problems}")
    if isinstance(exc, RecursionError):
        return "InvalidInput: the input is nested too deeply"
    return clean_text(f"{type(exc).__name__}: {exc}")


def run_sync(coro: Any) -> Any:
    """Run a coroutine from sync code, also when the caller already has a running loop (Jupyter,
    frameworks that patch the loop): then it runs on a fresh loop in a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
