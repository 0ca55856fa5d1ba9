"""GASP as a detector: (C, Q, A) → a :class:`Report` with one verdict per answer sentence.

No judge prompt, no generated token: a small causal LM re-reads the fixed answer under the full
context, no context and the context with each of K chunks removed (``scorer.py``); the four
features per sentence (``features.py``) are standardized with the scorer's shipped statistics
and their negated sum is thresholded (``calibration.py``). A flagged sentence is reported as NIC:
GASP says a sentence does not depend on the context, not that the context contradicts it. The
chunk whose removal lowered the sentence's likelihood most is its supporting passage; its
sentences are the evidence, with offsets into the caller's input.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from pydantic import ValidationError

from rt4chart_plugins.detector import Detector, empty_context_report, sentence_inputs, sentence_report
from rt4chart_plugins.errors import InvalidInput
from rt4chart_plugins.gasp.calibration import Calibration, load_calibration
from rt4chart_plugins.gasp.features import (
    SentenceFeatures,
    balanced_chunks,
    risk,
    sentence_features,
    token_anchors,
)
from rt4chart_plugins.gasp.scorer import LlamaScorer
from rt4chart_plugins.gasp.settings import GaspSettings
from rt4chart_plugins.llama_runtime.build import require_llama_cpp
from rt4chart_plugins.types import (
    ClaimVerdict,
    Cost,
    Evidence,
    Grounding,
    Label,
    Report,
    Sentence,
    Span,
    Window,
)

#: the scorer used when none is named; ``$RT4CHART_GASP_MODEL`` overrides. It ranked training answers
#: better than Qwen2.5-Coder-0.5B, in less time (lab/docs/benchmarks.md, "GASP, on RAGTruth test-150")
DEFAULT_SCORER = "smollm2-135m"
HEAD = "Answer using the context.\n\nContext:\n"
_SLACK = 16  # tokens kept free for tokenization differences at the seams of the prompt pieces


@dataclass
class Scored:
    """What one scoring pass found: features per answer sentence (None: not scored) and how the
    context was cut into chunks, with everything an auditor needs to know about the pass."""

    features: list[SentenceFeatures | None]
    chunks: list[tuple[int, int]]  # (first, last) context sentence ids, inclusive
    passes: int = 0
    tokens_read: int = 0
    tokens_naive: int = 0
    notes: list[str] = field(default_factory=list)


class GaspDetector(Detector):
    """Grounding sensitivity by perturbation (docs/gasp.md, "How it scores").

    ``model``: a scorer from :data:`rt4chart_plugins.models.MODELS` (fetched like the judge's
    model); ``model_path`` a GGUF file instead (then pass ``calibration``). ``chunks``: K, the
    number of leave-one-out chunks (default: what the calibration was fitted with, 5).
    ``threshold`` overrides the calibrated one. ``calibration``: a :class:`Calibration`, or a
    folder holding ``<model>.json``.
    """

    method = "gasp"

    def __init__(
        self,
        model: str | None = None,
        *,
        model_path: str | Path | None = None,
        chunks: int | None = None,
        threshold: float | None = None,
        calibration: Calibration | str | Path | None = None,
        n_ctx: int = 8192,
        n_threads: int | None = None,
        concurrency: int = 1,
        max_context_chars: int = 2_000_000,
    ):
        self.model = model or os.environ.get("RT4CHART_GASP_MODEL") or DEFAULT_SCORER
        if chunks is not None and chunks < 1:
            raise InvalidInput(f"chunks must be at least 1, got {chunks}")
        self._model_path = model_path
        self._chunks = chunks
        self._threshold = threshold
        self._calibration_spec = calibration
        self._calibration: Calibration | None = calibration if isinstance(calibration, Calibration) else None
        #: what a report depends on besides the scorer: a batch row's fingerprint reads it
        try:
            self.config = GaspSettings(
                chunks=chunks,
                threshold=threshold,
                calibration=str(calibration) if isinstance(calibration, (str, Path)) else calibration,
                n_ctx=n_ctx,
                max_context_chars=max_context_chars,
            )
        except ValidationError as exc:
            wrong = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
            raise InvalidInput(f"invalid GASP options: {wrong}") from None
        self._scorer: LlamaScorer | None = None
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.concurrency = concurrency
        self.max_context_chars = max_context_chars

    # ---- configuration -------------------------------------------------------------------------

    @property
    def calibration(self) -> Calibration:
        if self._calibration is None:
            folder = self._calibration_spec if isinstance(self._calibration_spec, (str, Path)) else None
            self._calibration = load_calibration(self.model, folder)
        return self._calibration

    @property
    def chunks(self) -> int:
        return self._chunks or self.calibration.chunks

    @property
    def threshold(self) -> float:
        return self._threshold if self._threshold is not None else self.calibration.threshold

    @property
    def name(self) -> str:
        return f"gasp:{self.model if self._model_path is None else Path(self._model_path).name}"

    @property
    def scorer(self) -> LlamaScorer:
        if self._scorer is None:
            from rt4chart_plugins import models

            require_llama_cpp()  # missing or unsafe here: said before the 0.1 GB scorer is pulled
            path = models.locate(self.model, self._model_path)
            self._scorer = LlamaScorer(path, n_ctx=self.n_ctx, n_threads=self.n_threads)
        return self._scorer

    def prepare(self) -> None:
        """Load the calibration and the model (not counted in a sample's time)."""
        _ = self.calibration
        self.scorer.load()

    # ---- scoring -------------------------------------------------------------------------------

    def score(
        self, context: list[Sentence], answer: str, answer_sentences: list[Sentence], question: str | None
    ) -> Scored:
        """The features of every answer sentence (blocking; the model is used by one call at a
        time). The context is cut only when the model's window forces it, and then it says so."""
        scorer = self.scorer
        notes: list[str] = []
        head = scorer.tokenize(HEAD, bos=True)
        tail = scorer.tokenize(f"\n\nQuestion: {question}\nAnswer:\n" if question else "\n\nAnswer:\n")
        answer_tokens = scorer.tokenize(answer)
        room = scorer.n_ctx - len(head) - len(tail) - _SLACK
        if len(answer_tokens) > room - 1:
            keep = max(1, room // 2)
            notes.append(
                f"the answer has {len(answer_tokens)} tokens; only its first {keep} were scored "
                f"(the scorer's window is {scorer.n_ctx} tokens)"
            )
            answer_tokens = answer_tokens[:keep]
        room -= len(answer_tokens)
        sizes = [len(scorer.tokenize(s.text)) + 1 for s in context]
        kept = sum(1 for total in accumulate(sizes) if total <= room)  # the longest prefix that fits
        while True:  # a joined chunk can tokenize a little longer than its sentences did
            bounds = balanced_chunks(sizes[:kept], self.chunks)
            chunk_tokens = [scorer.tokenize(_chunk_text(context[a : b + 1])) for a, b in bounds]
            if kept == 0 or sum(map(len, chunk_tokens)) <= room:
                break
            kept -= 1
        if kept < len(context):
            notes.append(
                f"context truncated to its first {kept} of {len(context)} sentences to fit the scorer's "
                f"{scorer.n_ctx}-token window"
            )
        if kept == 0:
            return Scored(features=[None] * len(answer_sentences), chunks=[], notes=notes)
        if len(bounds) < self.chunks:
            notes.append(f"the context has {kept} sentence(s): {len(bounds)} chunk(s) instead of {self.chunks}")
        cond = scorer.score(head, chunk_tokens, tail, answer_tokens)
        anchors = token_anchors(answer, scorer.token_char_spans(answer, answer_tokens))
        feats = sentence_features(cond, anchors, [(s.start, s.end) for s in answer_sentences])
        return Scored(
            features=feats,
            chunks=bounds,
            passes=cond.passes,
            tokens_read=cond.tokens_read,
            tokens_naive=cond.tokens_naive,
            notes=notes,
        )

    async def averify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        question, answer_sentences, context_sentences, base = sentence_inputs(
            self, context, answer, question, self.max_context_chars
        )
        if not answer_sentences:
            return Report(label=None, hallucinated=False, score=1.0, state="no_claims", **base)
        if not context_sentences:
            return empty_context_report(answer_sentences, base)
        await asyncio.to_thread(self.prepare)
        started = time.perf_counter()
        scored = await asyncio.to_thread(self.score, context_sentences, answer, answer_sentences, question)
        cal = self.calibration
        verdicts = []
        risks = []
        for s, f in zip(answer_sentences, scored.features):
            span = Span(start=s.start, end=s.end, text=s.text)
            if f is None:
                cut = "not scored: cut by the scorer's window"
                verdicts.append(ClaimVerdict.unjudged(s.id, s.text, s.id, cut, answer_span=span))
                continue
            r = risk(f, cal.mean, cal.std)
            risks.append(r)
            verdicts.append(_verdict(s, span, f, r, self.threshold, scored.chunks, context_sentences))
        cost = Cost(judge_calls=scored.passes, prompt_tokens=scored.tokens_read, seconds=time.perf_counter() - started)
        notes = list(scored.notes)
        if scored.passes:
            notes.append(
                f"scored with {scored.passes} passes over {scored.tokens_read} tokens "
                f"({scored.tokens_naive} without reusing shared prefixes)"
            )
        windows = [Window(index=i, first=a, last=b) for i, (a, b) in enumerate(scored.chunks)]
        return sentence_report(verdicts, base, cost, notes, max(risks) if risks else None, windows)


def _chunk_text(sentences: list[Sentence]) -> str:
    """Sentences joined as they were read: a space inside a passage, a blank line between passages."""
    parts: list[str] = []
    for i, s in enumerate(sentences):
        if i:
            parts.append("\n\n" if s.passage != sentences[i - 1].passage else " ")
        parts.append(s.text)
    return "".join(parts) + "\n"


def _verdict(
    s: Sentence,
    span: Span,
    f: SentenceFeatures,
    r: float,
    threshold: float,
    chunks: list[tuple[int, int]],
    context: list[Sentence],
) -> ClaimVerdict:
    flagged = r > threshold
    evidence: list[Evidence] = []
    if f.supporting_chunk is not None:
        first, last = chunks[f.supporting_chunk]
        evidence = [Evidence.of(c) for c in context[first : last + 1]]
    where = (
        (
            f"; removing chunk {f.supporting_chunk} (context sentences {chunks[f.supporting_chunk][0]}–"
            f"{chunks[f.supporting_chunk][1]}) lowers it most, by {f.drop:.2f}"
        )
        if f.supporting_chunk is not None
        else "; no single chunk's removal lowers it"
    )
    reason = (
        f"{'weakly' if flagged else 'strongly'} grounded: the context raises this sentence's log-likelihood by "
        f"{f.gap:+.2f} nats/token{where}; risk {r:.2f} {'>' if flagged else '≤'} threshold {threshold:.2f}"
    )
    grounding = Grounding(
        gap=f.gap,
        jsd_empty=f.jsd_empty,
        drop=f.drop,
        jsd_loo=f.jsd_loo,
        risk=r,
        threshold=threshold,
        supporting_chunk=f.supporting_chunk,
        tokens=f.tokens,
    )
    return ClaimVerdict(
        id=s.id,
        text=s.text,
        sentence_id=s.id,
        label=Label.NIC if flagged else Label.ENT,
        answer_span=span,
        evidence=evidence,
        reason=reason,
        grounding=grounding,
    )
