"""What the four framework adapters share: choosing the judge, the structured-output models a
framework LLM is asked to fill, and the texts that carry a report into a framework's result.

Nothing here imports a framework: each adapter module does that itself, lazily.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from pydantic import BaseModel

from rt4chart_plugins.detector import Detector, failed_report, run_sync
from rt4chart_plugins.errors import InvalidInput, JudgeError, unknown_options
from rt4chart_plugins.gasp import GaspDetector
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.chat import extract_json_text, json_instruction, prompt_messages
from rt4chart_plugins.judges.registry import JUDGES
from rt4chart_plugins.judges.schema import LENIENT
from rt4chart_plugins.types import ClaimVerdict, Label, Report
from rt4chart_plugins.verifier import Verifier

#: judges named by string, resolved by :func:`rt4chart_plugins.make_judge`
JUDGE_NAMES = tuple(JUDGES)


def build_verifier(
    judge: Any,
    wrap: Callable[..., Judge | None] | None = None,
    *,
    judge_kwargs: dict[str, Any] | None = None,
    concurrency: int = 4,
    **options: Any,
) -> Detector:
    """The detector behind an adapter: RT4CHART (a :class:`Verifier`) unless ``method="gasp"``.

    ``judge`` may be a :class:`Verifier` or any other :class:`Detector` such as a
    :class:`GaspDetector` (used as is), a :class:`Judge`, ``None`` / ``"trained"`` (the packaged
    cross-encoder verifier, the offline default), ``"local"`` (the embedded LLM judge), ``"openai"``
    (any OpenAI-compatible endpoint, configured by ``judge_kwargs``: ``base_url``, ``api_key``,
    ``model``), or a framework's own LLM object, which ``wrap`` turns into a :class:`Judge`
    (``wrap`` returns None for objects it does not know; ``judge_kwargs`` then go to that
    ChatJudge: ``cache``, ``concurrency``, ``max_retries``, ``name``).
    ``options`` are the pipeline knobs (``decomposition``, ``window_size``, ...), validated here so
    that a bad setting fails when the metric is built, not in the middle of a run. With
    ``method="gasp"`` they are GASP's instead (``model``, ``chunks``, ``threshold``, ...) and no
    judge is used: GASP scores with a small local LM.
    """
    method = options.pop("method", "rt4chart")
    if isinstance(judge, Detector):
        if options or judge_kwargs:
            raise InvalidInput(
                f"options {sorted({**options, **(judge_kwargs or {})})} were given with a ready "
                f"{type(judge).__name__}: configure that instance instead"
            )
        return judge
    if method == "gasp":
        if judge is not None:
            raise InvalidInput("method='gasp' uses no judge: drop judge=, or pass a GaspDetector as judge")
        refuse_unknown(options, GaspDetector.__init__, "GASP")
        return GaspDetector(concurrency=1, **options)
    if method != "rt4chart":
        raise InvalidInput(f"unknown method {method!r}: use 'rt4chart' or 'gasp'")
    if judge is None or isinstance(judge, Judge):
        return Verifier(judge, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)
    if isinstance(judge, str):
        if judge not in JUDGE_NAMES:
            raise InvalidInput(
                f"unknown judge {judge!r}: use 'local', 'trained', 'openai', a Judge, or this framework's LLM object"
            )
        return Verifier(judge, judge_kwargs=judge_kwargs, concurrency=concurrency, **options)
    try:
        wrapped = wrap(judge, **(judge_kwargs or {})) if wrap is not None else None
    except TypeError as exc:  # a misspelt judge_kwargs key: refused, with Python's naming of it
        raise InvalidInput(f"judge_kwargs for a {type(judge).__name__}: {exc}") from None
    if wrapped is None:
        raise InvalidInput(
            f"cannot use a {type(judge).__module__}.{type(judge).__name__} as the judge: pass one of "
            f"{', '.join(map(repr, JUDGE_NAMES))}, a rt4chart_plugins.Judge, or this framework's LLM object"
        )
    return Verifier(wrapped, concurrency=concurrency, **options)


def judge_from(judge: Any, **framework_names: Any) -> Any:
    """The judge, given under RT4CHART's name (``judge=``) or under the framework's own spelling
    (DeepEval's ``model=``, ``llm=`` in Ragas, LangChain and LlamaIndex). The framework's
    spelling is honoured, never ignored: its LLM becomes the judge. Both at once is refused."""
    given = {name: value for name, value in framework_names.items() if value is not None}
    if not given:
        return judge
    if judge is not None or len(given) > 1:
        names = ["judge"] * (judge is not None) + sorted(given)
        raise InvalidInput(f"the judge is given twice ({', '.join(n + '=' for n in names)}): pass one")
    return next(iter(given.values()))


def refuse_unknown(options: dict[str, Any], init: Callable[..., Any], what: str, also: tuple[str, ...] = ()) -> None:
    """Refuse options that ``init`` does not take, naming those it does: a typo is an error, not
    a silently ignored setting."""
    params = [
        p
        for p in inspect.signature(init).parameters.values()
        if p.name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if error := unknown_options(options, {p.name for p in params} | set(also), what):
        raise error


class Fields(NamedTuple):
    """What a framework calls the row's context and answer (``retrieved_contexts`` and
    ``response`` in ragas, ``retrieval_context`` and ``actual_output`` in DeepEval, ...), so that a
    row's reason names the field its user filled."""

    context: str
    answer: str


def read_row(context: Any, answer: Any, question: Any, fields: Fields) -> tuple[str | list[str], str, str | None]:
    """A framework row as the core takes it, or :class:`InvalidInput` saying why it cannot be
    verified: the checks every adapter shares (docs/output.md, "In an evaluation framework").

    A missing context is not an empty one, and an empty one is not evidence: verified against
    nothing, every claim would be baseless (NIC) and the row would read as a hallucination. Both
    are a row that cannot be verified, as are a context item that is not a string and a missing
    answer. A question that is not a string is left out (it only helps the judge)."""
    problems = [
        problem
        for problem in (_context_problem(context, fields.context), _answer_problem(answer, fields.answer))
        if problem
    ]
    if problems:
        raise InvalidInput("; ".join(problems))
    return (
        context if isinstance(context, str) else list(context),
        answer,
        question if isinstance(question, str) else None,
    )


def _context_problem(context: Any, field: str) -> str | None:
    if context is None:
        return f"{field} is missing: there is no context to verify the answer against"
    passages = [context] if isinstance(context, str) else context
    if not isinstance(passages, (list, tuple)):
        return f"{field} must be a list of strings, got {type(context).__name__}"
    bad = [
        f"item {i} is {'None' if p is None else type(p).__name__}"
        for i, p in enumerate(passages)
        if not isinstance(p, str)
    ]
    if bad:
        return f"{field} must hold strings: {', '.join(bad[:3])}" + (
            f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        )
    if not any(p.strip() for p in passages):
        return f"{field} is empty: there is no context to verify the answer against"
    return None


def _answer_problem(answer: Any, field: str) -> str | None:
    if answer is None:
        return f"{field} is missing: there is no answer to verify"
    if not isinstance(answer, str):
        return f"{field} must be a string, got {type(answer).__name__}"
    return None


async def averify_row(
    verifier: Detector, context: Any, answer: Any, question: Any, fields: Fields, *, timeout: float | None = None
) -> Report:
    """Verify one framework row (:func:`read_row`'s checks, then the detector, within ``timeout``
    seconds when one is set). Any failure (a row that cannot be verified, a judge that cannot be
    reached, the timeout) becomes a ``failed`` report whose ``error`` is the reason, so a framework
    run over many rows never dies on one of them; each adapter hands that reason to its
    framework's own channel for a row without a score."""
    try:
        context, answer, question = read_row(context, answer, question, fields)
        run = verifier.averify(context=context, answer=answer, question=question)
        return await (asyncio.wait_for(run, timeout) if timeout is not None else run)
    except asyncio.TimeoutError:
        return _failed(answer, question, TimeoutError(f"the row took longer than its timeout of {timeout:g} s"))
    except Exception as exc:  # noqa: BLE001 - a row's failure is its result
        return _failed(answer, question, exc)


def _failed(answer: Any, question: Any, exc: BaseException) -> Report:
    report = failed_report({"answer": answer if isinstance(answer, str) else ""}, exc)
    report.question = question if isinstance(question, str) else None
    return report


def row_error(report: Report) -> Exception:
    """The exception a row's ``failed`` report stands for, for an adapter told to raise
    (``on_error="raise"``): :class:`InvalidInput` for a row that cannot be verified,
    ``TimeoutError`` for one past its timeout, :class:`JudgeError` otherwise; the report rides
    along as ``.report``."""
    error = report.error or "verification failed"
    name, _, rest = error.partition(": ")
    kinds = {"InvalidInput": InvalidInput, "TimeoutError": TimeoutError}
    exc = kinds[name](rest) if name in kinds else JudgeError(error)  # the class says what the prefix said
    exc.report = report  # type: ignore[attr-defined]
    return exc


def check_timeout(timeout: float | None) -> float | None:
    """A row timeout as given to an adapter: None, or seconds above 0."""
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0):
        raise InvalidInput(f"timeout must be a number of seconds above 0, or None; got {timeout!r}")
    return timeout


# ---- structured output that framework LLMs are asked to fill: judges/schema.py ---------------
RESPONSE_MODELS = LENIENT


def as_json_text(value: Any) -> str:
    """A framework's result (pydantic object, dict, list, or reply text) as JSON text."""
    if value is None:
        return ""
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return extract_json_text(str(value))


def message_text(content: Any) -> str:
    """The text of a chat message's content: a string, or a list of content blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") in (None, "text") and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "".join(parts)
    return "" if content is None else str(content)


def model_label(obj: Any, framework: str) -> str:
    """``framework:Class:model`` — the judge's name, in reports and in the cache key."""
    model = None
    for attr in ("model_name", "model", "model_id", "name"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            model = value
            break
    return f"{framework}:{type(obj).__name__}" + (f":{model}" if model else "")


# ---- the report, as the texts a framework shows its users --------------------------------------


def claims_payload(report: Report) -> list[dict[str, Any]]:
    """Every claim, JSON-ready and whole, as the typed report has it: label, answer span, phrase
    span, evidence with offsets, reason, probabilities, the facts the rules found unsupported."""
    return [c.model_dump(mode="json") for c in report.claims]


#: the report's fields that a trace or a log leaves out: the context and answer dumps
_BULK = {"answer_sentences", "context_sentences", "windows"}


def report_payload(report: Report) -> dict[str, Any]:
    """The report as JSON without its sentence and window dumps: what a trace or a log carries,
    and enough to rebuild the typed report (:func:`report_from_payload`)."""
    payload = report.model_dump(mode="json", exclude=_BULK)
    payload["claims"] = claims_payload(report)
    return payload


def report_from_payload(payload: dict[str, Any] | None) -> Report | None:
    """The typed :class:`Report` back from :func:`report_payload`'s JSON (a trace, a log)."""
    if not isinstance(payload, dict):
        return None
    return Report.model_validate(payload)


def claim_table(reports: list[tuple[str, Report]]) -> Any:
    """One row per claim (pandas), the audit's table: :func:`rt4chart_plugins.audit.reports_to_dataframe`."""
    from rt4chart_plugins.audit import reports_to_dataframe

    return reports_to_dataframe(reports)


def missing_report(what: str) -> Report:
    """The stand-in for a row of a framework's result that this adapter has no report for, so the
    claim table still has one row per answer and says why that one is empty."""
    return Report(label=None, hallucinated=False, score=0.0, state="failed", error=what)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def claim_line(c: ClaimVerdict) -> str:
    """One claim, for a reason text: label, span, claim, evidence and why."""
    span = f"[{c.answer_span.start}:{c.answer_span.end}]" if c.answer_span else "[no span]"
    if not c.judged or c.label is None:
        return f'UNJUDGED claim {c.id} {span} "{_short(c.text)}": {c.error or "not judged"}'
    line = f'{c.label.value} claim {c.id} {span} "{_short(c.text)}"'
    if c.phrase_span is not None:
        line += f' (phrase "{_short(c.phrase_span.text, 80)}")'
    if c.evidence:
        cited = "; ".join(f'[{e.sentence_id}] "{_short(e.text, 120)}"' for e in c.evidence)
        line += f" — evidence: {cited}"
    else:
        line += " — no evidence in the context"
    if c.reason:
        line += f" — {_short(c.reason, 200)}"
    return line


def reason_text(report: Report, *, max_claims: int = 20) -> str:
    """A reason that names every failing claim with its span and evidence, then the tally."""
    if report.state == "failed":
        return f"verification failed: {report.error or 'no claim could be judged'}"
    if report.state == "no_claims":
        return "the answer makes no verifiable claim (nothing to check): not hallucinated"
    judged = [c for c in report.claims if c.judged and c.label is not None]
    bad = [c for c in report.claims if c.label in (Label.CON, Label.NIC)]
    unjudged = [c for c in report.claims if not c.judged or c.label is None]
    n_ent = sum(1 for c in judged if c.label == Label.ENT)
    what = "answer sentences grounded (GASP)" if report.method == "gasp" else "judged claims entailed"
    head = (
        f"{report.label.value if report.label else 'no label'}: {n_ent} of {len(judged)} {what} "
        f"(score {report.score:.2f})"
    )
    if unjudged:
        head += f"; {len(unjudged)} claim(s) could not be judged"
    lines = [head + "."]
    for c in (bad + unjudged)[:max_claims]:
        lines.append(claim_line(c))
    if len(bad) + len(unjudged) > max_claims:
        lines.append(f"… and {len(bad) + len(unjudged) - max_claims} more")
    return "\n".join(lines)


__all__ = [
    "RESPONSE_MODELS",
    "as_json_text",
    "Fields",
    "averify_row",
    "build_verifier",
    "claim_line",
    "claim_table",
    "check_timeout",
    "claims_payload",
    "extract_json_text",
    "judge_from",
    "refuse_unknown",
    "json_instruction",
    "message_text",
    "prompt_messages",
    "model_label",
    "read_row",
    "reason_text",
    "row_error",
    "missing_report",
    "report_from_payload",
    "report_payload",
    "run_sync",
]
