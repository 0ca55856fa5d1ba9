"""The hidden-state readout as a detector: (C, Q, A) → a :class:`Report`, one verdict per answer
sentence, from one pass of the embedded judge per sentence over a shared, KV-cached document.

Route 1 of the trained-verifier issue: the judge's global support prompt is read up to the
verdict position; the final hidden state there (plus the judge's own P(Yes)) goes through the
linear readout of ``probe.py``. No token is generated. Evidence is the context sentences that
share most content words with the sentence (the hidden state does not point at sentences).
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
from pathlib import Path

import numpy as np

from rt4chart_plugins.detector import Detector, empty_context_report, sentence_inputs, sentence_report
from rt4chart_plugins.judges.cache import JudgeCache, cache_key
from rt4chart_plugins.judges.llama.scoring import closest_sentences
from rt4chart_plugins.claims import is_refusal
from rt4chart_plugins.types import ClaimVerdict, Cost, Evidence, Label, Report, Sentence, Span
from rt4chart_lab.readout.probe import Readout, load_readout
from rt4chart_lab.readout.states import StateReader, States, chatml_question, document_prefix

DEFAULT_JUDGE = "qwen2.5-coder-1.5b"
_LABELS = (Label.ENT, Label.CON, Label.NIC)


class ReadoutDetector(Detector):
    """``model``: the judge (from :data:`rt4chart_plugins.models.MODELS`) whose hidden state is
    read; ``readout``: a :class:`Readout`, or a folder holding ``<model>.json`` (default: the
    packaged one); ``threshold`` overrides the fitted threshold on P(not ENT). ``prompt_only``:
    skip the readout and threshold the judge's own P(Yes) from the same pass (the baseline the
    readout is measured against; its threshold was fitted the same way). ``cache``: the SQLite
    file of cached states (default: the judge cache's folder)."""

    method = "readout"

    def __init__(self, model: str | None = None, *, model_path: str | Path | None = None,
                 readout: Readout | str | Path | None = None, threshold: float | None = None,
                 prompt_only: bool = False, n_ctx: int = 4096, n_threads: int | None = None,
                 concurrency: int = 1, cache: str | Path | None = None, max_context_chars: int = 2_000_000):
        self.model = model or os.environ.get("RT4CHART_READOUT_MODEL") or DEFAULT_JUDGE
        self._model_path = model_path
        self._readout_spec = readout
        self._readout: Readout | None = readout if isinstance(readout, Readout) else None
        self._threshold = threshold
        self._reader: StateReader | None = None
        self.prompt_only = prompt_only
        self._cache_path = cache
        self._judge_cache: JudgeCache | None = None
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.concurrency = concurrency
        self.max_context_chars = max_context_chars

    @property
    def readout(self) -> Readout:
        if self._readout is None:
            folder = self._readout_spec if isinstance(self._readout_spec, (str, Path)) else None
            self._readout = load_readout(self.model, folder)
        return self._readout

    @property
    def threshold(self) -> float:
        if self._threshold is not None:
            return self._threshold
        return self.readout.prompt_threshold if self.prompt_only else self.readout.threshold

    @property
    def name(self) -> str:
        kind = "prompt-yes" if self.prompt_only else "readout"
        return f"{kind}:{self.model if self._model_path is None else Path(self._model_path).name}"

    @property
    def reader(self) -> StateReader:
        if self._reader is None:
            from rt4chart_plugins import models

            self._reader = StateReader(models.locate(self.model, self._model_path), n_ctx=self.n_ctx,
                                       n_threads=self.n_threads)
        return self._reader

    def prepare(self) -> None:
        _ = self.readout
        self.reader.load()

    def _states(self, context: list[Sentence], question: str | None, texts: list[str]) -> tuple[States, int]:
        """Hidden states and P(Yes) per statement; cached per (judge file, prompt), so a re-run, or
        the prompt-only variant after the readout, runs no model."""
        reader = self.reader
        prefix, kept = document_prefix(reader, context, question)
        keys = [cache_key("readout-state", reader.model_path.name, prefix, t) for t in texts]
        cache = self._cache()
        found = [cache.get(k) for k in keys]
        missing = [i for i, f in enumerate(found) if f is None]
        tokens_read = passes = 0
        if missing:
            read = reader.read(prefix, [reader.tokenize(chatml_question(texts[i])) for i in missing])
            tokens_read, passes = read.tokens_read, read.passes
            for j, i in enumerate(missing):
                found[i] = {"hidden": base64.b64encode(read.hidden[j].tobytes()).decode(), "p_yes": float(read.p_yes[j])}
                cache.put(keys[i], found[i])
        hidden = np.stack([np.frombuffer(base64.b64decode(f["hidden"]), dtype=np.float32) for f in found])
        p_yes = np.array([f["p_yes"] for f in found], dtype=np.float64)
        return States(hidden=hidden, p_yes=p_yes, tokens_read=tokens_read, passes=passes), kept

    def _cache(self) -> JudgeCache:
        if self._judge_cache is None:
            self._judge_cache = JudgeCache(self._cache_path)
        return self._judge_cache

    def probs(self, states: States) -> np.ndarray:
        """(n, 3) P(ENT), P(CON), P(NIC): the readout's, or, prompt-only, P(Yes) as P(ENT) and
        the rest as NIC (a yes/no question cannot tell CON from NIC)."""
        if self.prompt_only:
            return np.stack([states.p_yes, np.zeros_like(states.p_yes), 1.0 - states.p_yes], axis=1)
        return self.readout.probs(states.hidden, states.p_yes)

    async def averify(self, context: str | list[str], answer: str, question: str | None = None) -> Report:
        question, answer_sentences, context_sentences, base = sentence_inputs(
            self, context, answer, question, self.max_context_chars)
        # refusals only, as its fit skipped (readout/fit.py): preambles stay statements, so that the
        # readout's measured numbers (lab/docs/training.md) stay reproducible
        claims = [s for s in answer_sentences if not is_refusal(s.text)]
        if not claims:
            return Report(label=None, hallucinated=False, score=1.0, state="no_claims", **base)
        if not context_sentences:
            return empty_context_report(claims, base)
        await asyncio.to_thread(self.prepare)
        started = time.perf_counter()
        states, kept = await asyncio.to_thread(self._states, context_sentences, question, [s.text for s in claims])
        probs = self.probs(states)
        notes = []
        if kept < len(context_sentences):
            notes.append(f"context truncated to its first {kept} of {len(context_sentences)} sentences to fit the "
                         f"judge's {self.reader.n_ctx}-token window")
        shown = context_sentences[:kept]
        verdicts = [_verdict(s, p, float(py), self.threshold, shown) for s, p, py in zip(claims, probs, states.p_yes)]
        cost = Cost(judge_calls=states.passes, prompt_tokens=states.tokens_read, seconds=time.perf_counter() - started)
        risk = float(max(1.0 - p[0] for p in probs))
        return sentence_report(verdicts, base, cost, notes, risk)


def _verdict(s: Sentence, p: np.ndarray, p_yes: float, threshold: float, context: list[Sentence]) -> ClaimVerdict:
    p_hall = 1.0 - float(p[0])
    label = Label.ENT if p_hall <= threshold else (Label.CON if p[1] >= p[2] else Label.NIC)
    cited = closest_sentences(s.text, context, k=2 if label == Label.ENT else 1) if label != Label.NIC else []
    evidence = [Evidence.of(c) for c in cited]
    reason = (f"readout P(not ENT)={p_hall:.2f} {'>' if label != Label.ENT else '≤'} threshold {threshold:.2f} "
              f"(P(ENT)={p[0]:.2f} P(CON)={p[1]:.2f} P(NIC)={p[2]:.2f}; the judge's own P(Yes)={p_yes:.2f})")
    return ClaimVerdict(id=s.id, text=s.text, sentence_id=s.id, label=label,
                        answer_span=Span(start=s.start, end=s.end, text=s.text), evidence=evidence, reason=reason,
                        probs={lab: float(x) for lab, x in zip(_LABELS, p)})
