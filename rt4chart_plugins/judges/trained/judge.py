"""The trained judge: a fine-tuned MiniLM cross-encoder that labels (claim, premise) pairs.

Where the embedded LLM judge reads a window into a KV cache and answers one claim at a time in
seconds, this judge scores every claim of a window in milliseconds, its pairs in parallel. It cannot
write, so it does what needs no generation: its claims are the clauses of the answer sentences,
cut by the claims stage (:mod:`rt4chart_plugins.claims`), each judged within its sentence first;
evidence is the premise sentence(s) that best match the claim, and the unfaithful phrase is the
stretch of the claim whose content words the premise lacks.
How it was trained, and where it fails: lab/docs/training.md.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

from rt4chart_plugins.config import AtLeastOne, Probability, checked
from rt4chart_plugins.errors import Rt4chartError
from rt4chart_plugins.judges.base import Judge, VerifyRequest, VerifyResult
from rt4chart_plugins.judges.trained.decision import decide, softmax
from rt4chart_plugins.judges.trained.encoder import (
    MODEL_FILE,
    TOKENIZER_FILE,
    Manifest,
    PairScorer,
    load_manifest,
    load_tokenizer,
    token_counter,
)
from rt4chart_plugins.judges.trained.premise import Premise, Premises, coverage
from rt4chart_plugins.judges.trained.reading import LoadedEncoder, Reading, premise_question
from rt4chart_plugins.rules.facts import unsupported_facts
from rt4chart_plugins.rules.novelty import novelty
from rt4chart_plugins.types import Cost, Label, Sentence, Signals

#: ``premise_question`` is read from here by the other judges that pick the trained judge's premises
__all__ = ["TrainedJudge", "decision_read", "premise_question"]

_LOADED: dict[tuple[str, int], LoadedEncoder] = {}
_LOAD_LOCK = threading.Lock()
# a forked child inherits the dict but not the encoder's worker threads: it loads its own
os.register_at_fork(after_in_child=_LOADED.clear)


def _named(manifest: Manifest) -> str:
    return f"trained-minilm-v{manifest.version}-{manifest.sha256[:8]}"


class TrainedJudge(Judge):
    """``Verifier(judge="trained")``. ``artifact_dir``: another artifact than the packaged one;
    ``threshold``: support at or above which a claim is ENT (default: the one fitted in training);
    ``threads``: pairs scored at once, each on one core (default: all cores).

    P(ENT), P(CON) and P(NIC) come from the artifact's fitted decision over the encoder's logits,
    the share of the claim's words the premise contains and the number/name check
    (:mod:`rt4chart_plugins.judges.trained.decision`); the label is read off them. It is the
    encoder and its decision only: the deterministic rules run after it, for every judge
    (:mod:`rt4chart_plugins.pipeline.rules`)."""

    #: it picks each claim's premise out of any number of sentences, and a pair's logits depend on
    #: that pair alone, so its verdict on the whole context is the one the global pass would give
    #: after the windows: with ``window_size`` unset it reads one window, and does half the work
    #: (RAGTruth test-150: the same verdicts, 1,263 instead of 2,709 tokens an answer)
    one_window = True
    #: it cannot write: its claims are the clauses of the answer sentences (a one-clause sentence
    #: whole), each judged within its sentence first (:mod:`rt4chart_plugins.claims`)
    clause_claims = True

    def __init__(
        self, artifact_dir: str | Path | None = None, *, threshold: float | None = None, threads: int | None = None
    ):
        self.artifact_dir = Path(artifact_dir) if artifact_dir else None
        self._threshold = None if threshold is None else checked("threshold", threshold, Probability)
        self.threads = checked("threads", threads, AtLeastOne) if threads is not None else os.cpu_count() or 1
        self._state: LoadedEncoder | None = None
        self._name: str | None = None

    @property
    def name(self) -> str:  # type: ignore[override]
        """The artifact's version and checksum, read off its manifest without loading the model,
        so that the name is the same before and after it loads; ``trained`` while the artifact
        cannot be read (it then never loads)."""
        if self._name is None:
            try:
                self._name = _named(load_manifest(self.artifact_dir, check=False)[1])
            except Rt4chartError:
                return "trained"
        return self._name

    # ---- loading -----------------------------------------------------------------------------

    def prepare(self) -> None:
        self._load()

    def _load(self) -> LoadedEncoder:
        if self._state is not None:
            return self._state
        directory, manifest = load_manifest(self.artifact_dir, check=False)
        key = (str(directory.resolve()), self.threads)
        with _LOAD_LOCK:  # one session per artifact: loading costs a checksum and 23 MB
            if key not in _LOADED or _LOADED[key].manifest.sha256 != manifest.sha256:
                directory, manifest = load_manifest(directory, check=True)
                tok = load_tokenizer(directory / TOKENIZER_FILE, manifest.max_length)
                scorer = PairScorer(directory / MODEL_FILE, tok, self.threads)
                _LOADED[key] = LoadedEncoder(scorer, manifest, token_counter(directory / TOKENIZER_FILE))
            self._state = _LOADED[key]
        self._name = _named(self._state.manifest)
        return self._state

    def forget_scores(self) -> None:
        """Forget the pairs scored so far (a benchmark that times the same answers twice starts cold)."""
        self._load().scorer.forget()

    @property
    def threshold(self) -> float:
        return self._threshold if self._threshold is not None else self._load().manifest.threshold

    # ---- the Judge protocol ------------------------------------------------------------------

    def context_budget(self) -> int:
        # it picks its own premise out of any window, so windows never need shrinking for it
        return 10**9

    def reading(self) -> Reading:
        """This judge's reading over its loaded artifact: the artifact's fitted decision for each
        pair, at this judge's threshold."""
        return Reading(self._load(), self.threshold, decision_read)

    async def verify(self, request: VerifyRequest, *, cost: Cost) -> VerifyResult:
        return await asyncio.to_thread(lambda: self.reading().verify(request, cost))

    async def support_alone(
        self, clauses: list[str], sentences: list[Sentence], question: str | None, *, cost: Cost
    ) -> list[float] | None:
        """Each clause scored against its own premise, as the reading scores the clauses of a
        flagged sentence (:meth:`.reading.Reading.support_alone`)."""
        if not clauses or not sentences:
            return [-1.0] * len(clauses)
        return await asyncio.to_thread(lambda: self.reading().support_alone(clauses, sentences, question, cost))


def decision_read(
    loaded: LoadedEncoder, text: str, premise: Premise, premises: Premises, logits: list[float]
) -> tuple[tuple[float, float, float], Signals]:
    """One pair's (P(ENT), P(CON), P(NIC)) from the artifact's decision, and the signals it read:
    the premise's coverage and missing facts, and what the claim adds to the whole context."""
    cover, missing = coverage(text, premise.text), unsupported_facts(text, premise.text, extended=False)
    novel = premises.lexicon.novel(text)
    added = premises.lexicon.weight(novel)
    probs = decide(loaded.manifest.decision, logits, cover, bool(missing), added, novelty(text, novel))
    return probs, _signals(logits, cover, missing, novel)


def _signals(logits: list[float], cover: float, missing: list[str], novel: list[str]) -> Signals:
    enc = softmax(logits)
    return Signals(
        encoder={Label.ENT: enc[0], Label.CON: enc[1], Label.NIC: enc[2]}, coverage=cover, missing=missing, novel=novel
    )
