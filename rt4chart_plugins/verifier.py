"""The public façade: ``Verifier().verify(context=…, answer=…, question=…) -> Report``.

Async inside (judge calls dominate), a sync façade outside, bounded concurrency for batches.
Bad input raises :class:`InvalidInput` with a message saying what is wrong; in a batch the same
failure becomes a ``failed`` report for that row while every other row is still scored.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rt4chart_plugins.config import AtLeastOne, PipelineConfig, checked, options_model
from rt4chart_plugins.deadline import WATCH, DeadlinePassed, Watch
from rt4chart_plugins.detector import Detector, check_input, run_sync
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.guard import GuardedAnswer, GuardOptions
from rt4chart_plugins.guard import aguard as _aguard
from rt4chart_plugins.guard.options import given
from rt4chart_plugins.judges.base import Judge
from rt4chart_plugins.judges.registry import choose
from rt4chart_plugins.pipeline.aggregate import report_of
from rt4chart_plugins.pipeline.readings import ContextReadings
from rt4chart_plugins.pipeline.stages import run_stages
from rt4chart_plugins.pipeline.state import RunState
from rt4chart_plugins.types import Report


def pipeline_config(options: dict[str, Any]) -> PipelineConfig:
    """The validated pipeline options. A misspelt option (``decompositon``) or an out-of-range
    value fails here, before any judge call, in one line that names the fix."""
    return options_model(PipelineConfig, options, "pipeline")


class Verifier(Detector):
    """Claim-level RAG faithfulness with evidence (RT4CHART).

    ``judge``: a :class:`Judge`, or a name of :data:`~rt4chart_plugins.judges.registry.JUDGES`
    (``"trained"``, the default, ``"local"``, ``"openai"``, ``"auto"``; ``judge_kwargs`` configure
    it). An unknown name or option, or a judge that could not run (a required option missing, a
    model folder that is not there, a missing extra, a pipeline option it would ignore), fails
    here in one line; the checked choice is kept (:attr:`choice`), and the judge built from it on
    first use. Pipeline knobs
    (``decomposition``, whose default is the judge's, ``window_size``, ``window_overlap``,
    ``global_verification``, ``sub_sentence_spans``, ...) are validated up front; they may come
    whole instead, as ``pipeline=PipelineConfig(...)`` (what the CLI builds from its flags).
    """

    def __init__(
        self,
        judge: Judge | str | None = None,
        *,
        concurrency: int = 4,
        judge_kwargs: dict[str, Any] | None = None,
        pipeline: PipelineConfig | None = None,
        **config: Any,
    ):
        if pipeline is not None and not isinstance(pipeline, PipelineConfig):
            raise InvalidInput(f"pipeline must be a PipelineConfig, got {type(pipeline).__name__}")
        if pipeline is not None and config:
            raise InvalidInput(
                f"give the pipeline options whole (pipeline=) or as keywords, not both: {sorted(config)}"
            )
        # the judge chosen and checked ready to run now, once, and kept (registry.choose); nothing loads
        self.choice = choose(judge, judge_kwargs, pipeline=pipeline.model_dump() if pipeline is not None else config)
        decomposition = self.choice.decomposition  # unless told otherwise (clauses for the trained verifier)
        if pipeline is not None:  # kept whole, as the CLI built it from its flags
            unset = pipeline.decomposition is None
            self.config = pipeline.model_copy(update={"decomposition": decomposition}) if unset else pipeline
        else:
            given = config.get("decomposition")
            self.config = pipeline_config({**config, "decomposition": decomposition if given is None else given})
        self._judge_spec = judge
        self._judge: Judge | None = self.choice.instance
        self.concurrency = checked("concurrency", concurrency, AtLeastOne)
        self._readings = ContextReadings()

    @property
    def name(self) -> str:
        return self.judge.name

    def prepare(self) -> None:
        self.judge.prepare()

    def _check_before_rows(self) -> None:
        """The judge, built before a batch's rows: an option it refuses (``timeout=-1``) is one
        :class:`InvalidInput` for the call, not the same failure in every row."""
        try:
            _ = self.judge
        except InvalidInput:
            raise
        except Exception:  # noqa: BLE001 - a judge that cannot load (a missing model) fails each row, as it says
            pass

    @property
    def judge(self) -> Judge:
        if self._judge is None:
            self._judge = self.choice.build()
        return self._judge

    async def averify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        """The row's report. Its work runs under a :class:`~rt4chart_plugins.deadline.Watch`: past
        ``deadline`` seconds (the pipeline option) the row fails with the reason, and when the
        caller gives up on it (a framework's own timeout cancels the await) the work still running
        in threads stops at its next checkpoint instead of running on."""
        context, answer, question = check_input(context, answer, question, self.config.max_context_chars)
        question = question.strip() or None if question else None  # a blank question is none
        await asyncio.to_thread(self.judge.prepare)  # a model load is not this sample's cost
        watch = Watch(self.config.deadline)
        token = WATCH.set(watch)  # copied into the tasks and threads the row starts
        try:
            work = self._verify(context, answer, question)
            return await (work if watch.seconds is None else asyncio.wait_for(work, watch.seconds))
        except (DeadlinePassed, asyncio.TimeoutError):
            if not watch.passed:
                raise
            watch.cancel()
            return Report.failure(watch.reason(), answer=answer, question=question, judge=self.judge.name)
        except asyncio.CancelledError:
            watch.cancel()
            raise
        finally:
            WATCH.reset(token)

    def guard(
        self,
        context: str | list[str],
        answer: str,
        question: str | None = None,
        *,
        options: GuardOptions | None = None,
        **keywords: Any,
    ) -> GuardedAnswer:
        """The answer as a user may see it: :meth:`aguard`, from sync code."""
        return run_sync(self.aguard(context, answer, question, options=given(options, keywords)))

    async def aguard(
        self,
        context: str | list[str],
        answer: str,
        question: str | None = None,
        *,
        options: GuardOptions | None = None,
        **keywords: Any,
    ) -> GuardedAnswer:
        """Verify the answer, then act on the verdict claim by claim (docs/guard.md), as
        ``options`` say (a :class:`~rt4chart_plugins.guard.GuardOptions`, or its keywords):
        ``policy="drop"`` (default) takes out the clauses the context contradicts or lacks,
        ``"flag"`` marks them (``quote``: and quotes what the context says instead), ``"refuse"``
        answers ``message`` when a claim is contradicted or fewer than ``min_support`` of them are
        supported; ``cite=True`` adds ``[n]`` markers for the passages (or sentences) behind what
        is kept. An answer that cannot be verified gets ``text=None`` and the failed report, or,
        with ``on_error="pass"``, is passed marked unverified (``"raise"``: the error)."""
        return await _aguard(self, context, answer, question, options=given(options, keywords))

    async def _verify(self, context: str | list[str], answer: str, question: str | None) -> Report:
        state = RunState(
            context=context,
            answer=answer,
            question=question,
            judge=self.judge,
            config=self.config,
            readings=self._readings,
        )
        await run_stages(state)
        return report_of(state)
